package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Ctrl-C mid-run, an unreachable target, bad input: clear messages, complete logs, no hang. The cases are independent
 * (each its own directory and server): they run side by side.
 */
@Execution(ExecutionMode.CONCURRENT)
class FailureTest {

    @TempDir
    Path work;

    /**
     * A run of 20 users for 60 s (it is interrupted long before) into {@code out}, its output in {@code out.log}, with
     * the default backend unless {@code extra} says otherwise.
     */
    private Process startLongRun(String out, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--users",
                "20",
                "--ramp-up",
                "0",
                "--duration",
                "60s",
                "--ramp-down",
                "0",
                "--think-scale",
                "0.03",
                "--out",
                out,
                "--no-progress",
                "-Dserver_size=0.02"));
        args.addAll(List.of(extra));
        return Cli.client(work, args.toArray(String[]::new))
                .redirectErrorStream(true)
                .redirectOutput(work.resolve(out + ".log").toFile())
                .start();
    }

    @Test
    void sigintMidRunLeavesCompleteParseableLogsAndAPartialSummary() throws Exception {
        Path out = work.resolve("int");
        // The default backend, legacy: its abort of the requests in flight could make the JDK resend a request the
        // server had received (the server counted one more than the client logged, 130/129 and 133/132); LegacyAbort.
        Process p = startLongRun("int");
        Path requests = out.resolve("requests.csv");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline
                && (!Files.exists(requests) || Files.readAllLines(requests).size() < 100)) {
            Thread.sleep(200);
        }
        assertTrue(
                Files.readAllLines(requests).size() >= 100,
                "the run made requests: " + Files.readString(work.resolve("int.log")));
        new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the client stops promptly after SIGINT");
        String log = Files.readString(work.resolve("int.log"));
        RunDir d = new RunDir(out);
        List<Map<String, String>> rows = d.csv("requests.csv"); // fails on any malformed line
        d.csv("sessions.csv");
        JsonNode s = d.json("summary.json");
        assertEquals("partial", s.get("status").asText(), log);
        assertEquals(130, p.exitValue(), "a partial run's documented status (docs/RUNNING.md, Exit status): " + log);
        assertTrue(s.get("partial").asBoolean());
        assertTrue(
                s.get("stop_reason").asText().contains("interrupted"),
                s.get("stop_reason").asText());
        assertEquals(rows.size(), s.get("requests").asLong(), "the summary covers every logged request");
        JsonNode server = d.json("server/stats.json");
        List<Map<String, String>> received = d.csv("server/requests.csv");
        assertEquals(received.size(), server.get("requests").asLong(), "the embedded server was stopped cleanly");
        assertEveryReceivedRequestIsLogged(rows, received);
        assertTrue(Files.readString(out.resolve("summary.txt")).contains("partial"));
    }

    /**
     * Every request the server received is in the client's log, once; a logged request the server
     * never saw can only be one the stop aborted (on its way, or not yet written). Counted per path:
     * aborted rows carry no connection to join on.
     */
    private static void assertEveryReceivedRequestIsLogged(
            List<Map<String, String>> logged, List<Map<String, String>> received) {
        Map<String, Long> sent = count(logged, r -> true);
        Map<String, Long> aborted = count(logged, r -> r.get("error").equals("aborted"));
        Map<String, Long> seen = count(received, r -> true);
        seen.forEach((path, n) -> assertTrue(
                n <= sent.getOrDefault(path, 0L),
                "the server received " + n + " x " + path + ", the client logged " + sent.getOrDefault(path, 0L)));
        sent.forEach((path, n) -> assertTrue(
                n - seen.getOrDefault(path, 0L) <= aborted.getOrDefault(path, 0L),
                "logged " + n + " x " + path + ", received " + seen.getOrDefault(path, 0L) + ", aborted "
                        + aborted.getOrDefault(path, 0L)));
    }

    private static Map<String, Long> count(List<Map<String, String>> rows, Predicate<Map<String, String>> which) {
        return rows.stream().filter(which).collect(Collectors.groupingBy(r -> r.get("path"), Collectors.counting()));
    }

    @Test
    void sigintWhileRequestsHangAbortsThemAtOnceAndLogsThemAborted() throws Exception {
        Path out = work.resolve("hang");
        // A third of the requests hang (the server never answers); the request timeout is the default 10 s.
        Process p = startLongRun("hang", "-Dserver_faults=hang:0.3");
        Path requests = out.resolve("requests.csv");
        Path truth = out.resolve("server/requests.csv");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline
                && (!Files.exists(truth)
                        || Files.readAllLines(truth).stream()
                                        .filter(l -> l.endsWith(",hang"))
                                        .count()
                                < 5)) {
            Thread.sleep(100);
        }
        long t0 = System.nanoTime();
        new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the client stops after SIGINT");
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        String log = Files.readString(work.resolve("hang.log"));
        // Without the abort the hung requests would hold the client for the 10 s request timeout.
        assertTrue(ms < 8000, "stopped in " + ms + " ms, not after the request timeout: " + log);
        RunDir d = new RunDir(out);
        List<Map<String, String>> rows = d.csv("requests.csv");
        long aborted =
                rows.stream().filter(r -> r.get("error").equals("aborted")).count();
        assertTrue(aborted >= 1, "the hung requests are logged as aborted: " + log);
        assertEquals(
                0,
                rows.stream().filter(r -> r.get("error").equals("read-timeout")).count(),
                "none waited out its timeout");
        JsonNode s = d.json("summary.json");
        assertEquals("partial", s.get("status").asText());
        assertEquals(aborted, s.get("errors_by_class").get("aborted").asLong());
        assertEquals(rows.size(), s.get("requests").asLong(), "each request logged once, all in the summary");
        assertEquals(
                s.get("sessions_started").asLong(),
                d.csv("sessions.csv").size(),
                "every session that began is in sessions.csv");
    }

    @Test
    void anUnreachableTargetFailsFastWithAClearErrorAndASummaryOfTheFailures() throws Exception {
        long t0 = System.nanoTime();
        Cli.Result r = Cli.run(
                work,
                60,
                "run",
                "--target",
                "http://127.0.0.1:1",
                "--users",
                "5",
                "--ramp-up",
                "0",
                "--duration",
                "60s",
                "--ramp-down",
                "0",
                "--think-scale",
                "0.001",
                "--out",
                "down",
                "--no-progress");
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
        assertEquals(2, r.status(), "an invalid run's status (docs/RUNNING.md, Exit status): " + r.err());
        assertTrue(seconds < 40, "no hang: " + seconds + " s");
        assertTrue(r.err().contains("target http://127.0.0.1:1 is unreachable (refused"), r.err());
        assertTrue(!r.err().contains("\tat "), "no stack trace: " + r.err());
        JsonNode s = new RunDir(work.resolve("down")).json("summary.json");
        assertEquals("invalid", s.get("status").asText());
        assertTrue(s.get("errors").asLong() >= 10);
        assertEquals(
                s.get("requests").asLong(),
                s.get("errors_by_class").get("refused").asLong());
    }

    @Test
    void badInputIsOneLineNamingTheProblem() throws Exception {
        Path ia = Files.writeString(work.resolve("ia.txt"), "100\n200\nten\n");
        Cli.Result r = Cli.run(work, 60, "run", "--interarrival-file", ia.toString(), "--out", "bad", "--no-progress");
        assertEquals(64, r.status(), "a usage error (EX_USAGE), not a run status");
        List<String> errors =
                r.err().lines().filter(l -> !l.startsWith("warning: ")).toList();
        assertEquals(
                List.of("error: " + ia
                        + ":3: \"ten\" is not a number; expected one inter-arrival time in milliseconds per line"),
                errors);
        Cli.Result d = Cli.run(work, 60, "run", "--duration", "soon", "--no-progress");
        assertEquals(64, d.status());
        assertEquals(
                "error: --duration soon: not a duration; expected e.g. 60s, 2m, 500ms or 1h",
                d.err().strip());
    }
}
