package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ctrl-C mid-run, an unreachable target, bad input: clear messages, complete logs, no hang. */
class FailureTest {

    @TempDir Path work;

    @Test
    void sigintMidRunLeavesCompleteParseableLogsAndAPartialSummary() throws Exception {
        Path out = work.resolve("int");
        Process p = Cli.client(work, "run", "--users", "20", "--ramp-up", "0", "--duration", "60s", "--ramp-down", "0", "--think-scale", "0.03",
                "--out", "int", "--no-progress", "-Dserver_size=0.02").redirectErrorStream(true).redirectOutput(work.resolve("int.log").toFile()).start();
        Path requests = out.resolve("requests.csv");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline && (!Files.exists(requests) || Files.readAllLines(requests).size() < 100)) {
            Thread.sleep(200);
        }
        assertTrue(Files.readAllLines(requests).size() >= 100, "the run made requests: " + Files.readString(work.resolve("int.log")));
        new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the client stops promptly after SIGINT");
        String log = Files.readString(work.resolve("int.log"));
        RunDir d = new RunDir(out);
        List<Map<String, String>> rows = d.csv("requests.csv"); // fails on any malformed line
        d.csv("sessions.csv");
        JsonNode s = d.json("summary.json");
        assertEquals("partial", s.get("status").asText(), log);
        assertTrue(s.get("partial").asBoolean());
        assertTrue(s.get("stop_reason").asText().contains("interrupted"), s.get("stop_reason").asText());
        assertEquals(rows.size(), s.get("requests").asLong(), "the summary covers every logged request");
        JsonNode server = d.json("server/stats.json");
        assertEquals(rows.size(), server.get("requests").asLong(), "the embedded server was stopped cleanly and agrees");
        assertTrue(Files.readString(out.resolve("summary.txt")).contains("partial"));
    }

    @Test
    void anUnreachableTargetFailsFastWithAClearErrorAndASummaryOfTheFailures() throws Exception {
        long t0 = System.nanoTime();
        Cli.Result r = Cli.run(work, 60, "run", "--target", "http://127.0.0.1:1", "--users", "5", "--ramp-up", "0", "--duration", "60s",
                "--ramp-down", "0", "--think-scale", "0.001", "--out", "down", "--no-progress");
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
        assertNotEquals(0, r.status());
        assertTrue(seconds < 40, "no hang: " + seconds + " s");
        assertTrue(r.err().contains("target http://127.0.0.1:1 is unreachable (connect-refused"), r.err());
        assertTrue(!r.err().contains("\tat "), "no stack trace: " + r.err());
        JsonNode s = new RunDir(work.resolve("down")).json("summary.json");
        assertEquals("invalid", s.get("status").asText());
        assertTrue(s.get("errors").asLong() >= 10);
        assertEquals(s.get("requests").asLong(), s.get("errors_by_class").get("connect-refused").asLong());
    }

    @Test
    void badInputIsOneLineNamingTheProblem() throws Exception {
        Path ia = Files.writeString(work.resolve("ia.txt"), "100\n200\nten\n");
        Cli.Result r = Cli.run(work, 60, "run", "--interarrival-file", ia.toString(), "--out", "bad", "--no-progress");
        assertEquals(1, r.status());
        List<String> errors = r.err().lines().filter(l -> !l.startsWith("warning: ")).toList();
        assertEquals(List.of("error: " + ia + ":3: \"ten\" is not a number; expected one inter-arrival time in milliseconds per line"), errors);
        Cli.Result d = Cli.run(work, 60, "run", "--duration", "soon", "--no-progress");
        assertEquals(1, d.status());
        assertEquals("error: --duration soon: not a duration; expected e.g. 60s, 2m, 500ms or 1h", d.err().strip());
    }
}
