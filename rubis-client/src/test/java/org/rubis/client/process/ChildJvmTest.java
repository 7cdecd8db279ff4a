package org.rubis.client.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.rubis.client.input.ConfigException;

/** The child JVM's GC log option takes any run directory -Xlog can name. */
class ChildJvmTest {

    @Test
    void theGcLogFileIsQuotedAndADoubleQuoteRefused() {
        assertEquals(
                "-Xlog:gc*:file=\"runs/a:b,c/gc.log\":time,uptime,level,tags",
                ChildJvm.gcLog(Path.of("runs/a:b,c/gc.log")));
        ConfigException e = assertThrows(ConfigException.class, () -> ChildJvm.gcLog(Path.of("runs/q\"x/gc.log")));
        assertEquals(
                "--out runs/q\"x: a double quote in the path cannot be given to the child JVM's GC log (-Xlog has no escape for it); "
                        + "choose a directory name without one",
                e.getMessage());
    }
}
