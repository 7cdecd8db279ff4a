package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * {@code kill -9} of the client: the embedded server ends with it, and every log has its header. The cases are
 * independent (each its own directory and processes): they run side by side.
 */
@Execution(ExecutionMode.CONCURRENT)
class KillTest {

    @TempDir
    Path work;

    /** A run of 5 users for 120 s (it is killed long before) into {@code out}, its output in {@code out.log}. */
    private Process startLongRun(String out, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("run"));
        args.addAll(List.of(extra));
        args.addAll(List.of(
                "--users",
                "5",
                "--ramp-up",
                "0",
                "--duration",
                "120s",
                "--ramp-down",
                "0",
                "--think-scale",
                "0.05",
                "--out",
                out,
                "--no-progress",
                "-Dserver_size=0.02"));
        return Cli.client(work, args.toArray(String[]::new))
                .redirectErrorStream(true)
                .redirectOutput(work.resolve(out + ".log").toFile())
                .start();
    }

    @Test
    void theEmbeddedServerEndsWhenTheClientIsKilledAndTheLogsStayReadable() throws Exception {
        Path out = work.resolve("k");
        Process p = startLongRun("k");
        ProcessHandle server = null;
        int clientLogged = 0;
        Path requests = out.resolve("requests.csv");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline
                && (server == null
                        || !Files.exists(requests)
                        || Files.readAllLines(requests).size() < 20)) {
            server = p.toHandle()
                    .children()
                    .filter(h -> h.info().commandLine().orElse("").contains("org.rubis.server.ServerMain"))
                    .findFirst()
                    .orElse(null);
            Thread.sleep(200);
        }
        try {
            assertTrue(
                    server != null && Files.readAllLines(requests).size() >= 20,
                    "the run started: " + Files.readString(work.resolve("k.log")));
            clientLogged = Files.readAllLines(requests).size() - 1;
            p.destroyForcibly(); // SIGKILL: no shutdown hook runs in the client
            assertTrue(p.waitFor(10, TimeUnit.SECONDS));
            CompletableFuture<ProcessHandle> gone = server.onExit();
            gone.get(15, TimeUnit.SECONDS); // throws TimeoutException if the server outlives its parent
            assertFalse(server.isAlive(), "the embedded server exited");
        } finally {
            if (server != null && server.isAlive()) {
                server.destroyForcibly();
            }
        }
        RunDir d = new RunDir(out);
        List<Map<String, String>> served = d.csv("server/requests.csv");
        assertTrue(
                served.size() >= clientLogged,
                "the server's log was flushed: it served " + served.size() + " requests, the client had logged "
                        + clientLogged + " answers before the kill");
        assertTrue(
                d.json("server/stats.json").get("requests").asLong() >= served.size(),
                "stats.json written at the server's exit");
        assertTrue(Files.readString(out.resolve("server/server.log")).contains("parent process gone"));
        for (String f : List.of("requests.csv", "sessions.csv", "client-gc.csv", "client-health.csv")) {
            String text = Files.readString(out.resolve(f));
            assertTrue(
                    text.contains(",") && text.indexOf('\n') > 0,
                    f + " has its header after kill -9: \"" + text + "\"");
        }
        assertEquals(
                "end_epoch_ms,duration_ms,gc,action,cause,heap_after_bytes",
                Files.readAllLines(out.resolve("client-gc.csv")).get(0));
    }

    /**
     * kill -9 of run --jvm-profile: the child client JVM and its embedded server end with it (they watch their parent), and the
     * child, stopped as by Ctrl-C, leaves a partial run directory.
     */
    @Test
    void theChildClientJvmAndItsServerEndWhenTheParentIsKilled() throws Exception {
        Path out = work.resolve("child");
        Process p = startLongRun("child", "--jvm-profile", "default");
        ProcessHandle client = null;
        ProcessHandle server = null;
        Path requests = out.resolve("requests.csv");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        try {
            while (System.nanoTime() < deadline
                    && (server == null
                            || !Files.exists(requests)
                            || Files.readAllLines(requests).size() < 20)) {
                client = p.toHandle().children().findFirst().orElse(null);
                server = client == null
                        ? null
                        : client.children()
                                .filter(h -> h.info().commandLine().orElse("").contains("org.rubis.server.ServerMain"))
                                .findFirst()
                                .orElse(null);
                Thread.sleep(200);
            }
            assertTrue(
                    client != null
                            && server != null
                            && Files.readAllLines(requests).size() >= 20,
                    "the run started in the child: " + Files.readString(work.resolve("child.log")));
            p.destroyForcibly(); // SIGKILL of the parent: no shutdown hook runs in it
            assertTrue(p.waitFor(10, TimeUnit.SECONDS));
            client.onExit().get(60, TimeUnit.SECONDS); // throws TimeoutException if the child outlives its parent
            server.onExit().get(60, TimeUnit.SECONDS);
            assertFalse(client.isAlive() || server.isAlive(), "the child client JVM and its server exited");
        } finally {
            for (ProcessHandle h : new ProcessHandle[] {client, server}) {
                if (h != null && h.isAlive()) {
                    h.destroyForcibly();
                }
            }
        }
        RunDir d = new RunDir(out);
        assertEquals(
                "partial",
                d.json("summary.json").path("status").asText(),
                "the child stopped as by Ctrl-C, its summary written");
        assertTrue(Files.readString(work.resolve("child.log")).contains("rubis-client: parent process gone; stopping"));
        assertEquals(
                "stopped: the parent process is gone",
                d.json("summary.json").path("stop_reason").asText(),
                "the stop names its cause, not a signal (it once said SIGINT/SIGTERM)");
        assertEquals(
                d.csv("requests.csv").size(),
                d.json("summary.json").path("requests").asInt(),
                "every logged request is in the summary");
    }
}
