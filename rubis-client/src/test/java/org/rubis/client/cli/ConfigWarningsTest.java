package org.rubis.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ConfigLoader;

/** Before a run, the warnings about what the user gave; the packaged files' own warnings only in the summary. */
class ConfigWarningsTest {

    @Test
    void thePackagedTablesWarningIsLeftToTheSummary() {
        ClientConfig c = ConfigLoader.load((Path) null, Map.of());
        assertTrue(
                c.warnings().stream().anyMatch(w -> w.startsWith("classpath:")),
                "the packaged table warns: " + c.warnings());
        StringWriter out = new StringWriter();
        ConfigWarnings.print(c, new PrintWriter(out));
        assertEquals("", out.toString(), "nothing the user gave is wrong");
    }
}
