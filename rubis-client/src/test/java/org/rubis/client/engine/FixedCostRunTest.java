package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rubis.client.config.ConfigLoader;
import org.rubis.server.FaultyServer;
import org.rubis.server.RubisServer;

/**
 * The summary prints the client's fixed CPU cost apart from its CPU per request: both figures are
 * there and sane on a short run, and the idle window that measures the fixed cost sends nothing,
 * by the server's own request log (every arrival after the window's end).
 */
class FixedCostRunTest {

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"netty", "legacy"})
    void theSummaryHasTheFixedCostAndTheCostPerRequestAndTheWindowSendsNothing(String backend) throws Exception {
        Path dir = tmp.resolve(backend);
        Path truth = tmp.resolve(backend + "-server");
        JsonNode s;
        try (RubisServer server = FaultyServer.start(RubisServer.Model.EVENT, "", truth)) {
            Map<String, String> p = Map.of(
                    "client_target",
                    "http://127.0.0.1:" + server.port(),
                    "client_backend",
                    backend,
                    "workload_number_of_clients_per_node",
                    "4",
                    "workload_up_ramp_time_in_ms",
                    "0",
                    "workload_down_ramp_time_in_ms",
                    "500",
                    "workload_session_run_time_in_ms",
                    "2000",
                    "workload_think_scale",
                    "0.005",
                    "client_progress",
                    "no");
            s = new RunEngine(ConfigLoader.load((Path) null, p), dir, new PrintStream(OutputStream.nullOutputStream()))
                    .run()
                    .json();
        }
        assertEquals("complete", s.get("status").asText(), s.toString());
        JsonNode h = s.get("client_health");
        assertTrue(h.get("fixed_cpu_cores").asDouble() >= 0, "fixed cost measured: " + h);
        assertTrue(h.get("fixed_cpu_cores_error").asDouble() >= 0, h.toString());
        assertTrue(h.get("fixed_cpu_window_s").asDouble() >= 1.0, "a one-second window: " + h);
        assertTrue(h.get("fixed_cpu_method").asText().contains("idle window"), h.toString());
        double perRequest = h.get("run_request_cpu_us").asDouble();
        assertTrue(perRequest >= 0, "CPU per request measured: " + h);
        assertTrue(
                perRequest <= h.get("run_cpu_us_per_request").asDouble(), "the fixed cost taken out never adds: " + h);
        assertTrue(h.get("request_cpu_us").asDouble() >= 0, h.toString());
        // The kernel's part: measured (Linux), never more than the whole (its /proc ticks are 10 ms: two of slack).
        double system = h.get("run_system_cpu_seconds").asDouble();
        assertTrue(
                system >= 0 && system <= h.get("run_cpu_seconds").asDouble() + 0.02,
                "kernel CPU within the run's CPU: " + h);
        assertTrue(h.get("run_system_cpu_us_per_request").asDouble() >= 0, h.toString());
        String text = Files.readString(dir.resolve("summary.txt"));
        assertTrue(text.contains("CPU cost:") && text.contains("fixed ") && text.contains("us per request"), text);
        assertTrue(text.contains("of them in the kernel"), text);
        // The split by thread role: the requests' own threads (event loops or user threads) and the log writer worked,
        // and the parts add up to the process's run-phase CPU (its /proc ticks are 10 ms: slack of a few). The server
        // runs in this JVM here (its event loops count too), so no role can be asserted idle.
        JsonNode roles = h.get("run_cpu_seconds_by_thread");
        assertTrue(roles != null && roles.isObject(), "split measured: " + h);
        // Legacy's users are threads of their own, alive through the down ramp, so still there at the run phase's end.
        String sending = backend.equals("netty") ? "event_loops" : "users";
        assertTrue(roles.path(sending).asDouble() > 0, "the " + sending + " sent the requests: " + roles);
        assertTrue(roles.get("log_writer").asDouble() > 0, "the log writer wrote them: " + roles);
        double sum = 0;
        for (JsonNode v : roles) {
            sum += v.asDouble();
        }
        double process = h.get("run_cpu_seconds").asDouble();
        assertTrue(
                Math.abs(sum - process) <= 0.05 + 0.1 * process,
                "the parts (" + sum + " s) make the process's run CPU (" + process + " s): " + h);
        assertTrue(text.contains("CPU by thread:") && text.contains("log writer"), text);

        // The server's own log: requests arrived, none of them before the end of the idle window.
        long windowStartNs = h.get("fixed_cpu_window_start_epoch_ms").asLong() * 1_000_000L;
        long windowEndNs = h.get("fixed_cpu_window_end_epoch_ms").asLong() * 1_000_000L;
        assertTrue(windowStartNs > 0 && windowEndNs > windowStartNs, h.toString());
        List<String> lines = Files.readAllLines(truth.resolve("requests.csv"));
        int arrival = List.of(lines.get(0).split(",")).indexOf("arrival_epoch_ns");
        assertTrue(arrival >= 0, lines.get(0));
        assertTrue(lines.size() > 10, "the run sent requests: " + lines.size());
        for (String line : lines.subList(1, lines.size())) {
            long at = Long.parseLong(line.split(",")[arrival]);
            assertTrue(
                    at >= windowEndNs,
                    "a request arrived " + (windowEndNs - at) / 1e6 + " ms before the end of the idle window: " + line);
        }
    }
}
