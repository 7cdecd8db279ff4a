package org.rubis.format.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.rubis.format.run.RunStatus;
import org.rubis.format.stats.Stationarity.Judgement;

/**
 * summary.json files written by real runs of the version before the schema (a single run, a merged one of two shards,
 * closed and hybrid load profiles, the kernel backend with a capture, a wire check, assertions, an end-of-run stall,
 * the heap per user, a shard) read into the records with unknown keys refused, and every value they hold comes back
 * out of the records unchanged: no key the schema lacks, none it misnames.
 */
class SummaryJsonTest {

    static Stream<Path> summaries() throws IOException, URISyntaxException {
        Path dir = Path.of(SummaryJsonTest.class.getResource("/summaries").toURI());
        try (Stream<Path> files = Files.list(dir)) {
            return files.sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("summaries")
    void aRealRunsSummaryReadsStrictlyAndEveryValueComesBack(Path file) throws IOException {
        SummaryJson s = SummaryJson.read(file, SchemaMapper.STRICT);
        JsonNode written = SchemaMapper.STRICT.readTree(file.toFile());
        JsonNode back = SchemaMapper.STRICT.valueToTree(s);
        List<String> lost = new ArrayList<>();
        compare("", written, back, lost);
        assertEquals(List.of(), lost, file + ": values the records did not carry");
    }

    @Test
    void typedFiguresAreTheFilesOwn() throws IOException, URISyntaxException {
        Path file = Path.of(getClass().getResource("/summaries/single-run.json").toURI());
        SummaryJson s = SummaryJson.read(file);
        JsonNode tree = SchemaMapper.STRICT.readTree(file.toFile());
        assertEquals(RunStatus.COMPLETE, s.status());
        assertEquals(Judgement.NOT_JUDGED, s.stationarity().verdict());
        assertEquals(List.of(Cause.CLIENT, Cause.HOST), s.clientHealth().causes());
        assertEquals(
                tree.path("response_time_ms").path("run").path("p99_9").asDouble(),
                s.responseTimeMs().run().p999());
        assertEquals(
                tree.path("client_health")
                        .path("run_send_lateness_ms")
                        .path("p99")
                        .asDouble(),
                s.clientHealth().runSendLatenessMs().p99());
        assertEquals(
                tree.path("stationarity").path("trend_ci99_low").asDouble(),
                s.stationarity().trendCi99Low());
        assertFalse(s.responseTimeMs().run().states().isEmpty());
        assertEquals(0, s.schemaVersion(), "written before schema_version: read as 0");
    }

    @Test
    void aNewerVersionIsRefusedInOneLineNamingFileAndVersion(@TempDir Path dir) throws IOException {
        int newer = SummaryJson.SCHEMA_VERSION + 1;
        Path file = dir.resolve("summary.json");
        assertRefused(file, "{\"status\":\"complete\",\"schema_version\":" + newer + "}", ": schema_version " + newer);
    }

    @Test
    void anUnreadableForeignOrMistypedFileIsRefusedInOneLine(@TempDir Path dir) throws IOException {
        assertRefused(dir.resolve("broken.json"), "{\"status\": \"compl", ": not a readable summary.json");
        assertRefused(
                dir.resolve("stats.json"), "{\"requests\": 3}", ": not a summary.json of rubis-client (no status key)");
        assertRefused(
                dir.resolve("typed.json"),
                "{\"status\":\"complete\",\"requests\":{\"a\":1}}",
                ": summary.json of schema_version 0 does not fit");
    }

    /** Reading {@code content} fails with one line that starts with the file's name and then {@code start}. */
    private static void assertRefused(Path file, String content, String start) throws IOException {
        Files.writeString(file, content);
        IOException e = assertThrows(IOException.class, () -> SummaryJson.read(file));
        assertTrue(e.getMessage().startsWith(file + start), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    /** Every leaf of {@code written} must be in {@code back} with the same value (numbers compared as numbers). */
    private static void compare(String at, JsonNode written, JsonNode back, List<String> lost) {
        if (written.isObject()) {
            if (back == null || !back.isObject()) {
                lost.add(at + " (an object)");
                return;
            }
            for (Map.Entry<String, JsonNode> e : written.properties()) {
                compare(at + "." + e.getKey(), e.getValue(), back.get(e.getKey()), lost);
            }
        } else if (written.isArray()) {
            if (back == null || !back.isArray() || back.size() != written.size()) {
                lost.add(at + " (an array)");
                return;
            }
            for (int i = 0; i < written.size(); i++) {
                compare(at + "[" + i + "]", written.get(i), back.get(i), lost);
            }
        } else if (written.isNull()) {
            if (back != null && !back.isNull()) {
                lost.add(at + " (null came back as " + back + ")");
            }
        } else if (back == null) {
            lost.add(at);
        } else if (written.isNumber() ? written.asDouble() != back.asDouble() : !written.equals(back)) {
            lost.add(at + " (" + written + " came back as " + back + ")");
        }
    }
}
