package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** server_faults reaches the embedded server, whose ground truth names the faulted requests; bad specs and flags are refused. */
@Order(1) // among the longest classes: starts first (src/test/pom.xml, testclass.order)
class ServerFaultsTest {

    @TempDir
    Path work;

    @Test
    void theEmbeddedServerInjectsTheConfiguredFaultsAndSaysWhich() throws Exception {
        Cli.Result r = Cli.run(
                work,
                120,
                "run",
                "--users",
                "5",
                "--ramp-up",
                "0",
                "--duration",
                "2s",
                "--ramp-down",
                "0",
                "--think-scale",
                "0.03",
                "--backend",
                "pooled",
                "--out",
                "f",
                "--no-progress",
                "-Dserver_size=0.02",
                "-Dserver_faults=status=503:0.2");
        RunDir d = new RunDir(work.resolve("f"));
        List<Map<String, String>> server = d.csv("server/requests.csv");
        long faulted =
                server.stream().filter(x -> x.get("fault").equals("status")).count();
        assertTrue(faulted > 0 && faulted < server.size(), faulted + " of " + server.size() + "; " + r.out() + r.err());
        assertTrue(server.stream()
                .filter(x -> x.get("fault").equals("status"))
                .allMatch(x -> x.get("status").equals("503")));
        long client503 = d.csv("requests.csv").stream()
                .filter(x -> x.get("status").equals("503"))
                .count();
        assertEquals(faulted, client503, "the client saw exactly the 503s the server injected");
        assertEquals(
                faulted,
                d.json("server/stats.json").path("faults").path("status").asLong());
    }

    @Test
    void aBadSpecOrAnUnsafeJvmFlagIsAOneLineErrorBeforeAnythingStarts() throws Exception {
        Cli.Result r = Cli.run(work, 60, "run", "--duration", "2s", "--out", "x", "-Dserver_faults=explode:0.5");
        assertNotEquals(0, r.status());
        assertTrue(
                r.err().contains("server_faults: fault spec \"explode:0.5\": \"explode\": unknown fault kind"),
                r.err());
        Cli.Result j = Cli.run(
                work,
                60,
                "run",
                "--duration",
                "2s",
                "--out",
                "y",
                "-Dserver_java_options=-XX:OnOutOfMemoryError=/bin/true");
        assertNotEquals(0, j.status());
        assertTrue(
                j.err()
                        .contains(
                                "server_java_options: JVM flag \"-XX:OnOutOfMemoryError=/bin/true\" refused: it runs a command"),
                j.err());
        assertTrue(!j.err().contains("\tat "), "no stack trace: " + j.err());
    }

    /** The largest `large` fault documented in docs/FAULTS.md. */
    static final int LARGE_MAX_MB = 64;

    /**
     * The documented maximum of the large fault works on every backend and both server models: every faulted request has
     * its ground-truth line and reaches the client whole; one MiB more is a one-line error before anything starts.
     */
    @Test
    void theLargestLargeFaultReachesEveryBackendWhole() throws Exception {
        String[][] cases = {{"legacy", "event"}, {"pooled", "prefork"}, {"dedicated", "event"}, {"netty", "prefork"}};
        for (String[] c : cases) {
            String out = "large-" + c[0];
            Cli.Result r = Cli.run(
                    work,
                    180,
                    "run",
                    "--users",
                    "3",
                    "--ramp-up",
                    "0",
                    "--duration",
                    "2s",
                    "--ramp-down",
                    "0",
                    "--think-scale",
                    "0.05",
                    "--backend",
                    c[0],
                    "--server-model",
                    c[1],
                    "--seed",
                    "3",
                    "--out",
                    out,
                    "--no-progress",
                    "-Dserver_size=0.01",
                    "-Dserver_faults=large=" + LARGE_MAX_MB + ":0.3");
            assertEquals(0, r.status(), c[0] + "/" + c[1] + ": " + r.out() + r.err());
            RunDir d = new RunDir(work.resolve(out));
            List<Map<String, String>> client = d.csv("requests.csv");
            List<Map<String, String>> server = d.csv("server/requests.csv");
            assertEquals(client.size(), server.size(), c[0] + "/" + c[1] + ": every request has its ground-truth line");
            long faulted =
                    server.stream().filter(x -> x.get("fault").equals("large")).count();
            assertTrue(faulted > 0, c[0] + "/" + c[1] + ": the fault was injected");
            long whole = client.stream()
                    .filter(x -> x.get("error").isEmpty()
                            && x.get("bytes").equals(String.valueOf((long) LARGE_MAX_MB << 20)))
                    .count();
            assertEquals(faulted, whole, c[0] + "/" + c[1] + ": each large reply read whole, without an error");
        }
        Cli.Result over = Cli.run(
                work, 60, "run", "--duration", "1s", "--out", "over", "-Dserver_faults=large=" + (LARGE_MAX_MB + 1));
        assertEquals(64, over.status(), over.err());
        assertEquals(1, over.err().strip().lines().count(), over.err());
    }
}
