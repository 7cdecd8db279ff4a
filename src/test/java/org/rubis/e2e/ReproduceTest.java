package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * {@code reproduce all --smoke}: every experiment runs end to end, keeps its run directories and plots its figures,
 * and the shapes that hold even at the smallest scale on a busy machine hold (smoke scale runs three experiments side
 * by side; these shapes are counts and bounds that the load does not move). Magnitudes (the published figures) are not
 * asserted: they depend on the machine and its load. About a minute of child JVMs, one of them a server at capacity:
 * it runs with -Pfull (.ci/run), alone among the e2e classes.
 */
@Tag("full")
@Isolated("its experiments drive a server to capacity and count connections: no other test may load the machine beside"
        + " them")
class ReproduceTest {

    @TempDir
    Path work;

    @Test
    void smokeReproductionProducesEveryFindingAndTheRobustShapes() throws Exception {
        Path out = work.resolve("repro");
        Cli.Result r = Cli.run(work, 900, Cli.FULL_JIT, "reproduce", "all", "--smoke", "--out", out.toString());
        System.out.println(r.out()); // each run's and each experiment's time, in the test's report
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(Files.readString(out.resolve("reproduction.html")).contains("Connection sharing"));
        JsonNode report =
                new ObjectMapper().readTree(out.resolve("reproduction.json").toFile());
        assertEquals("smoke", report.get("scale").asText());
        Map<String, JsonNode> findings = new HashMap<>();
        report.get("findings").forEach(f -> findings.put(f.get("name").asText(), f));
        assertEquals(8, findings.size(), findings.keySet().toString());
        for (JsonNode f : findings.values()) {
            String name = f.get("name").asText();
            assertNotEquals(
                    "failed",
                    f.get("verdict").asText(),
                    name + ": " + f.get("why").asText());
            assertNotEquals(
                    "skipped",
                    f.get("verdict").asText(),
                    name + ": " + f.get("why").asText());
            assertTrue(f.get("published").asText().length() > 20, name);
            assertTrue(f.get("figures").size() >= 1, name + " has a figure");
            for (JsonNode fig : f.get("figures")) {
                Path png = out.resolve(fig.get("file").asText());
                assertTrue(Files.size(png) > 1000, png + " is a plot");
            }
            assertTrue(f.get("runs").size() >= 1, name + " kept its runs");
            for (JsonNode run : f.get("runs")) {
                assertTrue(
                        Files.isRegularFile(out.resolve(run.asText()).resolve("summary.json")),
                        run + " kept with its summary");
            }
        }

        // The JDK's keep-alive cache shares a few connections among all users; dedicated holds one per session
        // (server's count).
        JsonNode conn = findings.get("connection-sharing").get("data");
        int legacy = conn.get("legacy").get("max_concurrent_connections").asInt();
        int dedicated = conn.get("dedicated").get("max_concurrent_connections").asInt();
        assertTrue(
                legacy * 2 < dedicated, "legacy " + legacy + " vs dedicated " + dedicated + " concurrent connections");
        assertTrue(
                conn.get("legacy").get("max_requests_per_connection").asInt()
                        > conn.get("dedicated")
                                .get("max_requests_per_connection")
                                .asInt(),
                conn.toString());

        // Resumed handshakes happen only when resumption is on.
        JsonNode tls = findings.get("tls").get("data");
        assertTrue(tls.get("resumption_on").get("resumed_handshakes").asLong() > 0, tls.toString());
        assertEquals(0, tls.get("resumption_off").get("resumed_handshakes").asLong(), tls.toString());
        assertTrue(tls.get("resumption_off").get("full_handshakes").asLong() > 0, tls.toString());

        // Past capacity open arrivals' achieved rate falls below offered; a closed population never offers more than it
        // is served.
        JsonNode load = findings.get("closed-vs-open").get("data");
        assertTrue(
                load.get("open_top_achieved_rps").asDouble()
                        < 0.8 * load.get("open_top_offered_rps").asDouble(),
                load.toString());
        assertTrue(load.get("closed_capped").asBoolean(), load.toString());

        // A millisecond clock has only whole milliseconds; the nanosecond log never reports a zero time.
        assertEquals(0, findings.get("ms-timers").get("data").get("ns_zero").asLong());
        List<String> names = List.of(
                "error-vs-load",
                "heap-capacity",
                "ms-timers",
                "connection-sharing",
                "flash-crowd",
                "closed-vs-open",
                "principles-ab",
                "tls");
        assertTrue(findings.keySet().containsAll(names));
    }
}
