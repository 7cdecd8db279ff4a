package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.rubis.client.config.ConfigLoader;
import org.rubis.format.io.AtomicFile;
import org.rubis.format.stats.LittleBand;
import org.rubis.server.FaultyServer;
import org.rubis.server.RubisServer;

/**
 * The summary's stationarity check on real runs: a run stopped early (Ctrl-C) is judged on the time it ran, not on the
 * planned run phase's empty seconds after the stop; a run phase too short to judge says "not judged", never steady.
 */
@Tag("concurrent")
@Execution(ExecutionMode.CONCURRENT)
class StationarityRunTest {

    @TempDir
    Path tmp;

    private JsonNode run(String name, String runMs, long stopAfterMs) throws Exception {
        Path dir = tmp.resolve(name);
        try (RubisServer server = FaultyServer.start(RubisServer.Model.EVENT, "", tmp.resolve(name + "-server"))) {
            Map<String, String> p = Map.of(
                    "client_target",
                    "http://127.0.0.1:" + server.port(),
                    "client_backend",
                    "netty",
                    "workload_number_of_clients_per_node",
                    "8",
                    "workload_up_ramp_time_in_ms",
                    "0",
                    "workload_down_ramp_time_in_ms",
                    "0",
                    "workload_session_run_time_in_ms",
                    runMs,
                    "workload_think_scale",
                    "0.01",
                    "client_progress",
                    "no");
            RunEngine engine = new RunEngine(
                    ConfigLoader.load((Path) null, p), dir, new PrintStream(OutputStream.nullOutputStream()));
            Thread stopper = Thread.ofPlatform().daemon().start(() -> {
                try {
                    Thread.sleep(stopAfterMs);
                    engine.requestStop("interrupted (Ctrl-C)");
                } catch (InterruptedException ignored) {
                    // the run ended first
                }
            });
            try {
                return engine.run().json();
            } finally {
                stopper.interrupt();
            }
        }
    }

    @Test
    void aRunStoppedEarlyIsJudgedOnTheTimeItRan() throws Exception {
        // 30 s planned, stopped about 10 s into the run phase (after the one-second fixed-cost window)
        JsonNode s = run("stopped", "30000", 11_500);
        assertEquals("partial", s.get("status").asText(), s.toString());
        double ran = s.get("run_seconds").asDouble();
        assertTrue(ran > 3 && ran < 25, "stopped early: " + ran + " s");
        JsonNode st = s.get("stationarity");
        int windows = st.get("windows").asInt();
        assertTrue(
                windows == (int) Math.floor(ran - 0.001) || windows == (int) Math.floor(ran + 0.001),
                "the whole seconds run (" + ran + " s), not the 30 planned: " + st);
        assertTrue(
                st.get("second_half_rps").asDouble()
                        > 0.5 * st.get("first_half_rps").asDouble(),
                "the second half is of the time run, not the empty planned seconds: " + st);
        if (windows < LittleBand.MIN_WINDOWS) { // a host slow enough to stop it this early
            assertEquals("not-judged", st.get("verdict").asText(), st.toString());
        } else {
            assertFalse(st.get("text").asText().contains("not judged"), st.toString());
        }
    }

    @Test
    void aRunPhaseTooShortToJudgeIsNotJudgedAndNotSteady() throws Exception {
        JsonNode s = run("short", "2000", 600_000);
        // The status is the run phase's, not this case's subject: complete when it served a request, failed when a
        // loaded host sent its first requests after the 2 s (docs/RUNNING.md); "too short" is the phase's length's.
        assertEquals(
                s.get("throughput_rps").asDouble() > 0 ? "complete" : "failed",
                s.get("status").asText(),
                s.toString());
        JsonNode st = s.get("stationarity");
        assertEquals("not-judged", st.get("verdict").asText(), st.toString());
        assertFalse(st.get("steady").asBoolean(), "not judged is not steady: " + st);
        assertEquals(
                "too short: 2 whole windows of 1 s, need 8",
                st.get("not_judged_reason").asText());
        Path dir = tmp.resolve("short");
        String text = Files.readString(dir.resolve("summary.txt"));
        assertTrue(
                text.contains("run phase steady:        not judged (too short: 2 whole windows of 1 s, need 8)\n"),
                text);
        assertTrue(text.contains("NOT JUDGED: whether the run phase was steady"), text);
        assertFalse(
                Files.exists(AtomicFile.temporary(dir.resolve("summary.json")))
                        || Files.exists(AtomicFile.temporary(dir.resolve("summary.txt"))),
                "the summaries were renamed into place");
        JsonNode h = s.get("client_health");
        assertTrue(
                h.get("gc_pause_total_ms").asLong() >= h.get("gc_max_pause_ms").asLong(), h.toString());
        assertTrue(text.contains("\nGC:  "), text);
    }
}
