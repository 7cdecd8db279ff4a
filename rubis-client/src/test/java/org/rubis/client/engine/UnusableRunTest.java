package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.rubis.client.config.ConfigLoader;
import org.rubis.client.report.Summary;
import org.rubis.format.run.RunStatus;
import org.rubis.server.FaultyServer;
import org.rubis.server.RubisServer;

/**
 * Runs whose figures cannot be used must not read as a measurement: one whose run phase had no request is
 * {@code failed} (it said {@code complete}, exit 0, with {@code --duration 1ms}), and one whose replies were mostly
 * errors has a verdict that names them (131 of 132 replies {@code http-503} read "OK"). The server's own log is the
 * truth for the error share. Each case has its own server and mostly waits for its run: the cases run concurrently.
 */
@Tag("concurrent")
@Execution(ExecutionMode.CONCURRENT)
class UnusableRunTest {

    @TempDir
    Path tmp;

    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    private static Summary run(String spec, Path dir, Map<String, String> more) throws Exception {
        try (RubisServer server = FaultyServer.start(RubisServer.Model.EVENT, spec, dir.resolve("truth"))) {
            Map<String, String> p = new HashMap<>(Map.of(
                    "client_target",
                    "http://127.0.0.1:" + server.port(),
                    "client_backend",
                    "netty",
                    "workload_number_of_clients_per_node",
                    "3",
                    "workload_up_ramp_time_in_ms",
                    "0",
                    "workload_down_ramp_time_in_ms",
                    "0",
                    "workload_session_run_time_in_ms",
                    "1000",
                    "workload_think_scale",
                    "0.005",
                    "client_progress",
                    "no"));
            p.putAll(more);
            return new RunEngine(ConfigLoader.load((Path) null, p), dir, QUIET).run();
        }
    }

    @Test
    void aRunWhoseRepliesWereMostlyErrorsHasAVerdictThatNamesThem() throws Exception {
        Path dir = tmp.resolve("errors");
        // 3 s: enough requests that some are served (with 1 s, a loaded host sent so few that all were 503s)
        Summary s = run("status=503:0.95", dir, Map.of("workload_session_run_time_in_ms", "3000"));
        JsonNode json = s.json();
        JsonNode truth =
                new ObjectMapper().readTree(dir.resolve("truth/stats.json").toFile());
        long served503 = truth.path("faults").path("status").asLong();
        long requests = json.path("requests").asLong();
        assertTrue(served503 > 0.5 * requests, "the server answered most requests 503: " + truth);
        assertEquals(
                served503,
                json.path("errors_by_class").path("http-503").asLong(),
                "each 503 the server sent is one error");
        assertEquals(RunStatus.COMPLETE, s.status(), "some replies were served: a measurement of a failing target");
        JsonNode health = json.path("client_health");
        List<String> causes =
                new ObjectMapper().convertValue(health.path("causes"), new TypeReference<List<String>>() {});
        assertTrue(
                causes.contains("ERRORS"),
                "the verdict names the errors: " + health.path("verdict").asText());
        String verdict = health.path("verdict").asText();
        assertTrue(
                verdict.startsWith("SUSPECT") && verdict.contains("ERRORS: ") && verdict.contains("http-503 "),
                verdict);
        assertTrue(s.text().contains("ERRORS: "), "summary.txt says it too");
    }

    @Test
    void aRunWithNoRunPhaseRequestFailed() throws Exception {
        Path dir = tmp.resolve("1ms");
        // 1 ms of run phase after a 1 s up ramp in which each user makes its one session of one request: the ramp
        // sends, the measurement gets nothing.
        Summary s = run(
                "",
                dir,
                Map.of(
                        "workload_session_run_time_in_ms",
                        "1",
                        "workload_up_ramp_time_in_ms",
                        "1000",
                        "workload_sessions_per_user",
                        "1",
                        "workload_maximum_number_of_transitions",
                        "1"));
        long runLines = Files.readAllLines(dir.resolve("requests.csv")).stream()
                .filter(l -> l.contains(",run,"))
                .count();
        assertEquals(0, runLines, "no request in the run phase");
        assertTrue(s.json().path("requests").asLong() > 0, "the ramps sent requests");
        assertEquals(RunStatus.FAILED, s.status(), s.stopReason());
        assertEquals(2, s.status().exitCode());
        assertTrue(s.stopReason().startsWith("no request in the run phase"), s.stopReason());
    }
}
