package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGINT and SIGTERM at each moment of a run: the client stops within seconds, with every request and session it
 * began in its logs and a summary that covers them, and exits with the run's documented status: 130 for a run
 * stopped early ({@code partial}), whichever the signal (SIGTERM exited 143), and the run's own status for a signal
 * that comes once the run has ended (while its summary is written). A SIGTERM during the end-of-run wait, with 100 s
 * request timeouts and a server that stopped answering, once made the JVM exit 143 after 60 s with no summary.json
 * and no request or session line. A signal while the live view lingers after the run, or during a run that would
 * linger, ends the process within seconds too (it slept out the linger, and a deleted pod was killed at its grace
 * period). The runs go side by side, each against its own loopback server in this JVM.
 */
@Order(1) // among the longest classes: starts first (src/test/pom.xml, testclass.order)
class SignalTest {

    @TempDir
    Path work;

    private record Moment(
            String name,
            String signal,
            List<String> jvm,
            List<String> args,
            String marker,
            long afterMs,
            boolean hangAfterMarker,
            int status) {}

    private record Stopped(Moment m, int status, long ms, String log, Path out) {}

    @Test
    void aSignalAtAnyMomentLeavesAnAnalysableRunDirectoryWithinSeconds() throws Exception {
        List<String> quick = List.of("--users", "3", "--think-scale", "0.01", "--ramp-down", "0", "--no-progress");
        List<Moment> moments = List.of(
                // Three users start 1, 3 and 5 s into a 6 s up ramp.
                new Moment(
                        "up-ramp",
                        "INT",
                        List.of(),
                        List.of("--ramp-up", "6s", "--duration", "30s"),
                        "Run: ",
                        2500,
                        false,
                        130),
                new Moment(
                        "run-phase",
                        "TERM",
                        List.of(),
                        List.of("--ramp-up", "0", "--duration", "30s"),
                        "Run: ",
                        1500,
                        false,
                        130),
                // The server stops answering 500 ms into a 1 s run: the sessions' last requests hang past its end.
                new Moment(
                        "end-of-run-wait",
                        "TERM",
                        List.of(),
                        List.of("--ramp-up", "0", "--duration", "1s", "-Dclient_request_timeout_ms=100000"),
                        "Run: ",
                        500,
                        true,
                        130),
                new Moment(
                        "summary",
                        "TERM",
                        List.of("-Drubis.test.summary_stall_ms=3000"),
                        List.of("--ramp-up", "0", "--duration", "1s"),
                        "rubis.test.summary_stall_ms",
                        300,
                        false,
                        0));
        stopAll(moments, quick);
    }

    /**
     * The live view lingers 25 s after a complete run: SIGINT 2 s into it ends the process at once, with the run's own
     * status (a deleted Kubernetes pod slept out the linger and was killed at its grace period); SIGTERM during the run
     * of one that would linger writes its partial summary and ends, no linger. Apart from the moments above, whose
     * timing a busier host would upset.
     */
    @Test
    void aSignalWhileTheLiveViewLingersEndsTheProcessAtOnce() throws Exception {
        List<String> quick = List.of("--users", "3", "--think-scale", "0.01", "--ramp-down", "0", "--no-progress");
        List<Moment> moments = List.of(
                // The live view lingers 25 s after a complete run: SIGINT 2 s into it ends the process at once, with
                // the run's own status (a deleted pod slept out the linger and was killed at its grace period).
                new Moment(
                        "linger",
                        "INT",
                        List.of(),
                        List.of(
                                "--ramp-up",
                                "0",
                                "--duration",
                                "2s",
                                "--metrics-port",
                                Integer.toString(LiveRunProcess.freePort()),
                                "--metrics-linger",
                                "25s"),
                        "Live view: stays up",
                        2000,
                        false,
                        0),
                // SIGTERM during the run of one that would linger: it writes its partial summary and ends, no linger.
                new Moment(
                        "run-phase-lingering",
                        "TERM",
                        List.of(),
                        List.of(
                                "--ramp-up",
                                "0",
                                "--duration",
                                "30s",
                                "--metrics-port",
                                Integer.toString(LiveRunProcess.freePort()),
                                "--metrics-linger",
                                "25s"),
                        "Run: ",
                        1500,
                        false,
                        130));
        stopAll(moments, quick);
    }

    /** Every moment's run side by side; every failure reported, not the first one's. */
    private void stopAll(List<Moment> moments, List<String> quick) throws Exception {
        List<CompletableFuture<Stopped>> runs = new ArrayList<>();
        for (Moment m : moments) {
            runs.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return stop(m, quick);
                } catch (Exception e) {
                    throw new IllegalStateException(m.name() + ": " + e, e);
                }
            }));
        }
        List<Executable> checks = new ArrayList<>();
        for (CompletableFuture<Stopped> f : runs) {
            Stopped stopped = f.get(120, TimeUnit.SECONDS);
            checks.add(() -> check(stopped));
        }
        assertAll(checks); // every moment's failures, not the first one's
    }

    /**
     * SIGINT 1.5 s into a 3 s up ramp whose every request is still in flight (the server reads them and never
     * answers): the stop aborted them, the target refused nothing, so the run is {@code partial}, exit 130, on every
     * backend. It once said {@code failed} ("no request succeeded"), exit 2.
     */
    @Test
    void aStopWhoseOnlyRequestsWereInFlightIsPartialOnEveryBackend() throws Exception {
        List<CompletableFuture<Stopped>> runs = new ArrayList<>();
        for (String backend : List.of("legacy", "pooled", "dedicated", "netty")) {
            Moment m = new Moment(
                    "in-flight-" + backend,
                    "INT",
                    List.of(),
                    List.of("--backend", backend, "--ramp-up", "3s", "--duration", "30s", "--think-scale", "0"),
                    "Run: ",
                    1500,
                    false,
                    130);
            runs.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return stop(m, List.of("--users", "3", "--ramp-down", "0", "--no-progress"), true);
                } catch (Exception e) {
                    throw new IllegalStateException(m.name() + ": " + e, e);
                }
            }));
        }
        List<Executable> checks = new ArrayList<>();
        for (CompletableFuture<Stopped> f : runs) {
            Stopped stopped = f.get(120, TimeUnit.SECONDS);
            checks.add(() -> {
                check(stopped);
                List<Map<String, String>> requests = new RunDir(stopped.out()).csv("requests.csv");
                assertTrue(
                        requests.stream().allMatch(r -> r.get("error").equals("aborted")),
                        "every request was in flight, aborted by the stop: " + requests);
            });
        }
        assertAll(checks);
    }

    private Stopped stop(Moment m, List<String> quick) throws Exception {
        return stop(m, quick, false);
    }

    /** Starts the run, signals it at its moment, and waits for its exit. */
    private Stopped stop(Moment m, List<String> quick, boolean neverAnswer) throws Exception {
        try (Server server = new Server()) {
            server.hang = neverAnswer;
            List<String> args = new ArrayList<>(List.of("run", "--target", server.base(), "--out", m.name()));
            args.addAll(quick);
            args.addAll(m.args());
            Path log = work.resolve(m.name() + ".log");
            Process p = Cli.client(work, m.jvm(), args.toArray(String[]::new))
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!Files.readString(log).contains(m.marker())) {
                    assertTrue(
                            p.isAlive() && System.nanoTime() < deadline,
                            m.name() + ": no '" + m.marker() + "': " + Files.readString(log));
                    Thread.sleep(50);
                }
                Thread.sleep(m.afterMs());
                if (m.hangAfterMarker()) {
                    server.hang = true;
                    Thread.sleep(2500); // past the run's end: its sessions wait for their hung requests
                }
                assertTrue(p.isAlive(), m.name() + ": still running when signalled: " + Files.readString(log));
                long t0 = System.nanoTime();
                new ProcessBuilder("kill", "-" + m.signal(), Long.toString(p.pid()))
                        .start()
                        .waitFor();
                assertTrue(p.waitFor(60, TimeUnit.SECONDS), m.name() + ": exits after SIG" + m.signal());
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                return new Stopped(m, p.exitValue(), ms, Files.readString(log), work.resolve(m.name()));
            } finally {
                p.destroyForcibly();
            }
        }
    }

    private static void check(Stopped s) throws IOException {
        String what = s.m().name() + " (SIG" + s.m().signal() + "): " + s.log();
        assertEquals(s.m().status(), s.status(), "exit status: " + what);
        // Seconds, not the 100 s request timeouts (nor the shutdown hook's 60 s); the summary stall's 3 s included.
        assertTrue(s.ms() < 8000, "stopped " + s.ms() + " ms after the signal: " + what);
        RunDir d = new RunDir(s.out());
        List<Map<String, String>> requests = d.csv("requests.csv"); // fails on any torn line
        JsonNode summary = d.json("summary.json");
        assertEquals(
                s.m().status() == 0 ? "complete" : "partial",
                summary.path("status").asText(),
                what);
        assertEquals(
                requests.size(), summary.path("requests").asLong(), "every logged request is in the summary: " + what);
        assertTrue(requests.size() > 0, what);
        assertEquals(
                summary.path("sessions_started").asLong(),
                d.csv("sessions.csv").size(),
                "every session that began is in sessions.csv: " + what);
        assertTrue(Files.isRegularFile(s.out().resolve("summary.txt")), what);
        if (s.m().hangAfterMarker()) {
            long aborted = requests.stream()
                    .filter(r -> r.get("error").equals("aborted"))
                    .count();
            assertTrue(aborted >= 1, "the hung requests are logged, aborted: " + what);
            assertEquals(
                    0,
                    requests.stream()
                            .filter(r -> r.get("error").equals("read-timeout"))
                            .count(),
                    what);
            assertTrue(
                    summary.path("stop_reason").asText().contains("end-of-run wait"),
                    summary.path("stop_reason").asText());
        }
    }

    /**
     * A loopback HTTP/1.1 server that answers every request with a small page on a kept-alive connection, or, once
     * {@link #hang} is set, reads requests and never answers them.
     */
    private static final class Server implements AutoCloseable {
        private final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final List<Socket> open = new CopyOnWriteArrayList<>();
        volatile boolean hang;

        Server() throws IOException {
            Thread t = new Thread(
                    () -> {
                        while (!socket.isClosed()) {
                            try {
                                Socket s = socket.accept();
                                open.add(s);
                                Thread.ofVirtual().start(() -> serve(s));
                            } catch (IOException e) {
                                return;
                            }
                        }
                    },
                    "signal-test-server");
            t.setDaemon(true);
            t.start();
        }

        String base() {
            return "http://127.0.0.1:" + socket.getLocalPort();
        }

        private void serve(Socket s) {
            byte[] page = "<html><body>Home</body></html>".getBytes(StandardCharsets.US_ASCII);
            byte[] head = ("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: " + page.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII);
            try (s;
                    InputStream in = s.getInputStream();
                    OutputStream out = s.getOutputStream()) {
                int matched = 0;
                for (int b = in.read(); b >= 0; b = in.read()) {
                    matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : b == '\r' ? 1 : 0;
                    if (matched == 4) {
                        matched = 0;
                        if (!hang) {
                            out.write(head);
                            out.write(page);
                            out.flush();
                        }
                    }
                }
            } catch (IOException e) {
                // the client closed or aborted
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
            for (Socket s : open) {
                s.close();
            }
        }
    }
}
