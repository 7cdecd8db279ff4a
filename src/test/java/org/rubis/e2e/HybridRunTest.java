package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hybrid arrivals scheduled against the clock: from a file and from a rate schedule (against the shared server). The
 * class's runs are made before the tests: the file's alone, the other three side by side.
 */
class HybridRunTest {

    @TempDir
    static Path work;

    /** The inter-arrival file's gaps, in ms. */
    static final double[] GAPS_MS = new double[40];

    static final List<String> CAP_POLICIES = List.of("drop", "delay");

    /** Each run's result by its output directory. */
    static Map<String, Cli.Result> results;

    @BeforeAll
    static void runs() throws Exception {
        StringBuilder file = new StringBuilder("# inter-arrival times in ms\n");
        for (int i = 0; i < GAPS_MS.length; i++) {
            GAPS_MS[i] = 20 + (i * 37) % 90 + 0.5;
            file.append(GAPS_MS[i]).append('\n');
        }
        Path ia = Files.writeString(work.resolve("ia.txt"), file);
        Path schedule = Files.writeString(work.resolve("flash.txt"), "0 10\n1 40\n2 10\n");
        String target = SharedServer.target();
        String[] fromFile = {
            "run",
            "--interarrival-file",
            ia.toString(),
            "--ramp-up",
            "0",
            "--duration",
            "5s",
            "--ramp-down",
            "0",
            "--think-scale",
            "0.02",
            "--max-transitions",
            "4",
            "--seed",
            "5",
            "--out",
            "h",
            "--no-progress",
            "--target",
            target
        };
        String[] fromSchedule = {
            "run",
            "--rate-schedule",
            schedule.toString(),
            "--interarrival",
            "deterministic",
            "--ramp-up",
            "0",
            "--duration",
            "3s",
            "--ramp-down",
            "0",
            "--think-scale",
            "0.02",
            "--max-transitions",
            "2",
            "--seed",
            "6",
            "--out",
            "f",
            "--no-progress",
            "--target",
            target
        };
        // The file's run alone (its start lateness is judged), then the other three side by side.
        Cli.Result h = Cli.run(work, 120, fromFile);
        List<String[]> runs = new ArrayList<>();
        runs.add(fromSchedule);
        for (String policy : CAP_POLICIES) {
            runs.add(new String[] {
                "run",
                "--session-rate",
                "40",
                "--interarrival",
                "deterministic",
                "--max-sessions",
                "3",
                "--cap-policy",
                policy,
                "--ramp-up",
                "0",
                "--duration",
                "2s",
                "--ramp-down",
                "0",
                "--think-scale",
                "0.05",
                "--max-transitions",
                "5",
                "--seed",
                "2",
                "--out",
                "cap-" + policy,
                "--no-progress",
                "--target",
                target
            });
        }
        List<Cli.Result> done = BackgroundRun.all(work, 120, runs);
        results = Map.of("h", h, "f", done.get(0), "cap-drop", done.get(1), "cap-delay", done.get(2));
    }

    private static long[] intendedStarts(RunDir d) throws Exception {
        return d.csv("sessions.csv").stream()
                .mapToLong(r -> Long.parseLong(r.get("intended_start_epoch_ns")))
                .sorted()
                .toArray();
    }

    /** The run written to {@code out}, which exited 0. */
    private static RunDir run(String out) {
        Cli.Result r = results.get(out);
        assertEquals(0, r.status(), r.out() + r.err());
        return new RunDir(work.resolve(out));
    }

    @Test
    void sessionsStartAtTheCumulativeSumsOfTheInterArrivalFile() throws Exception {
        RunDir d = run("h");
        long[] starts = intendedStarts(d);
        assertEquals(GAPS_MS.length, starts.length, "one session per line");
        for (int i = 1; i < starts.length; i++) {
            assertEquals(Math.round(GAPS_MS[i] * 1e6), starts[i] - starts[i - 1], 2, "gap " + i);
        }
        long[] late = d.csv("sessions.csv").stream()
                .mapToLong(
                        x -> Long.parseLong(x.get("start_epoch_ns")) - Long.parseLong(x.get("intended_start_epoch_ns")))
                .sorted()
                .toArray();
        assertTrue(late[0] >= 0, "never early");
        // Lateness depends on the host's load (these machines are shared): the bound only catches a
        // dispatcher that serialises sessions or waits a think time before starting one.
        assertTrue(late[late.length / 2] < 250_000_000, "median start lateness " + late[late.length / 2] / 1e6 + " ms");
        assertTrue(d.json("summary.json").get("client_health").has("session_start_lateness_ms"));
        assertEquals("hybrid", d.json("summary.json").get("arrivals").asText());
    }

    @Test
    void aRateScheduleProducesTheRequestedSessionsPerInterval() throws Exception {
        RunDir d = run("f");
        long[] starts = intendedStarts(d);
        int[] perSecond = new int[3];
        for (long s : starts) {
            perSecond[(int) ((s - starts[0]) / 1_000_000_000L)]++;
        }
        assertEquals(List.of(10, 40, 10), Arrays.stream(perSecond).boxed().toList());
        for (Map<String, String> s : d.csv("sessions.csv")) {
            assertTrue(Integer.parseInt(s.get("requests")) <= 2);
        }
    }

    @Test
    void aCapOnConcurrentSessionsCountsWhatItDroppedOrDelayed() throws Exception {
        for (String policy : CAP_POLICIES) {
            RunDir d = run("cap-" + policy);
            var s = d.json("summary.json");
            assertTrue(
                    s.get("peak_active_sessions").asInt() <= 3,
                    policy + ": the cap holds: " + s.get("peak_active_sessions"));
            if (policy.equals("drop")) {
                long dropped = d.csv("sessions.csv").stream()
                        .filter(x -> x.get("end_reason").equals("dropped"))
                        .count();
                assertTrue(dropped > 0, "sessions beyond the cap are dropped");
                assertEquals(dropped, s.get("sessions_dropped_by_cap").asLong());
            } else {
                assertTrue(s.get("sessions_delayed_by_cap").asLong() > 0, "sessions beyond the cap wait");
                assertTrue(
                        s.get("client_health")
                                        .get("session_start_lateness_ms")
                                        .get("p90")
                                        .asDouble()
                                > 10,
                        "a delayed start is recorded as lateness, not shifted silently");
            }
        }
    }
}
