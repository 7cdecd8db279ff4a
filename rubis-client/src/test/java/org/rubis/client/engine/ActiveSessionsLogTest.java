package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.analysis.RunAnalysis;
import org.rubis.analysis.io.RunDirectory;
import org.rubis.client.config.ConfigLoader;
import org.rubis.format.run.RunFiles;

/**
 * The sessions a report plots as active agree with the client's own count (client-health.csv's
 * {@code active_sessions}, sampled each second): a session cut by the end of the run was active until the cut, so its
 * sessions.csv end is the cut, not its last reply. With the last reply as its end, the report's plot fell from ~275
 * to 145 during a run phase in which client-health.csv said 294-296. One run against its own server, mostly waiting.
 */
@Tag("concurrent")
class ActiveSessionsLogTest {

    @TempDir
    Path tmp;

    @Test
    void theActiveSessionsOfTheLogsAreTheClientsOwnCount() throws Exception {
        try (PageServer server = new PageServer()) {
            Path dir = tmp.resolve("run");
            // A session every 100 ms with TPC-W think times (7 s mean) in a 3.5 s run: the active sessions only grow
            // (none ends before the end cuts it), and most sessions are cut after their first request.
            Map<String, String> p = Map.of(
                    "client_target",
                    server.base(),
                    "client_backend",
                    "netty",
                    "workload_arrivals",
                    "hybrid",
                    "workload_session_rate",
                    "10",
                    "workload_interarrival_distribution",
                    "deterministic",
                    "workload_up_ramp_time_in_ms",
                    "0",
                    "workload_down_ramp_time_in_ms",
                    "0",
                    "workload_session_run_time_in_ms",
                    "3500",
                    "workload_think_scale",
                    "1",
                    "client_progress",
                    "no");
            new RunEngine(ConfigLoader.load((Path) null, p), dir, new PrintStream(OutputStream.nullOutputStream()))
                    .run();
            NavigableMap<Long, Integer> plotted =
                    RunAnalysis.of(new RunDirectory(dir)).sessions().active();
            List<String> health = Files.readAllLines(RunFiles.clientHealth(dir));
            List<String> header = List.of(health.get(0).split(","));
            int epochMs = header.indexOf("epoch_ms");
            int active = header.indexOf("active_sessions");
            int compared = 0;
            for (int i = 1; i + 1 < health.size(); i++) {
                String[] f = health.get(i).split(",", -1);
                String[] next = health.get(i + 1).split(",", -1);
                int before = Integer.parseInt(f[active]);
                int after = Integer.parseInt(next[active]);
                if (before == 0 || after < before) {
                    continue; // before the first session began, or across the end that cut them
                }
                // Two samples about a second apart while the count only grew: the logs' count at the whole second
                // between them lies between the two.
                long second = Long.parseLong(f[epochMs]) / 1000 + 1;
                int logs = plotted.getOrDefault(second, 0);
                assertTrue(
                        before <= logs && logs <= after,
                        "second " + second + ": the client counted " + before + " then " + after
                                + " active sessions, the logs " + logs + " (" + plotted + ")");
                compared++;
            }
            assertTrue(compared >= 1, "the run had two samples with sessions active: " + health);
        }
    }
}
