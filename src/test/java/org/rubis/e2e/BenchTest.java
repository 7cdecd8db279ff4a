package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * What a benchmark leaves and prints, on the smallest one ({@code bench server}, one model, a few seconds): each row
 * ends with its run's own verdict, the one in that run's summary.json; the child run's per-request logs are deleted
 * once read, its summary kept, unless {@code --keep-runs}. The two benchmarks are independent (each its own
 * directory and server): they run side by side.
 */
@Execution(ExecutionMode.CONCURRENT)
class BenchTest {

    @TempDir
    static Path work;

    private static final List<String> PER_REQUEST =
            List.of("requests.csv", "sessions.csv", "server/requests.csv", "server/connections.csv");

    private static Cli.Result bench(String out, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of(
                "bench",
                "server",
                "--users",
                "4",
                "--ramp-up",
                "0",
                "--duration",
                "2s",
                "--list",
                "event",
                "--out",
                out));
        args.addAll(List.of(more));
        Cli.Result r = Cli.run(work, 180, Cli.FULL_JIT, args.toArray(String[]::new)); // bench measures
        assertEquals(0, r.status(), r.out() + r.err());
        return r;
    }

    @Test
    void theTableGivesEachRunsVerdictAndThePerRequestLogsAreDeleted() throws Exception {
        Cli.Result r = bench("tidy");
        Path run = work.resolve("tidy/server-event");
        String verdict = new RunDir(run)
                .json("summary.json")
                .get("client_health")
                .get("verdict")
                .asText();
        String word = verdict.substring(0, verdict.indexOf(':'));
        List<String> lines = r.out().lines().toList();
        String header = lines.stream()
                .filter(l -> l.startsWith("model "))
                .findFirst()
                .orElseThrow(() -> new AssertionError(r.out()));
        assertTrue(header.strip().endsWith("verdict"), header);
        String row = lines.stream()
                .filter(l -> l.startsWith("event "))
                .findFirst()
                .orElseThrow(() -> new AssertionError(r.out()));
        assertTrue(row.strip().endsWith(" " + word), row + " vs " + verdict);
        assertTrue(Files.isRegularFile(run.resolve("summary.json")) && Files.isRegularFile(run.resolve("summary.txt")));
        assertTrue(Files.isRegularFile(run.resolve("server/stats.json")));
        for (String f : PER_REQUEST) {
            assertFalse(Files.exists(run.resolve(f)), f + " left behind");
        }
    }

    @Test
    void keepRunsKeepsThem() throws Exception {
        bench("kept", "--keep-runs");
        Path run = work.resolve("kept/server-event");
        long requests = new RunDir(run).json("summary.json").get("requests").asLong();
        for (String f : PER_REQUEST) {
            assertTrue(Files.isRegularFile(run.resolve(f)), f + " kept");
        }
        assertEquals(requests, new RunDir(run).csv("requests.csv").size(), "requests.csv whole");
    }
}
