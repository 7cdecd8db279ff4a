package org.rubis.analysis.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The merged summary.txt rendered from the schema's records is the text the merge wrote before them: a merged run of
 * two shards ({@code run --shards 2 --duration 5s}), its summary.json and summary.txt as that version wrote them.
 */
class SummaryTextTest {

    @Test
    void theMergedTextFromTheRecordsIsTheTextWrittenBefore() throws Exception {
        Path dir = Path.of(getClass().getResource("/merged-before-schema").toURI());
        String written = Files.readString(dir.resolve("summary.txt"));
        String rendered = SummaryText.of(
                new ObjectMapper().readTree(dir.resolve("summary.json").toFile()));
        assertEquals(written, rendered);
    }
}
