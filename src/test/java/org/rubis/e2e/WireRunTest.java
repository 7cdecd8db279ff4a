package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.analysis.io.RunDirectory;
import org.rubis.analysis.wire.WireCheck;
import org.rubis.client.wire.CaptureException;
import org.rubis.client.wire.CaptureSpec;
import org.rubis.client.wire.CaptureStats;
import org.rubis.client.wire.PacketCapture;
import org.rubis.format.run.Columns;

/**
 * A real run captured on loopback: wire, client and server must agree on every request and connection.
 * The server runs in its own JVM on a port chosen here (so the capture's filter is known before the run);
 * its logs are put into the run directory as the embedded server's would be. Skipped without the capture
 * privilege or libpcap (CI runs as root with libpcap0.8).
 */
class WireRunTest {

    @TempDir
    Path work;

    @Test
    void wireClientAndServerAgreeOnARealRun() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path srv = work.resolve("srv");
        Process server = new ProcessBuilder(
                        Cli.java(),
                        "-cp",
                        Cli.clientJar().toString(),
                        "org.rubis.server.ServerMain",
                        "--port",
                        String.valueOf(port),
                        "--out",
                        srv.toString(),
                        "--size",
                        "0.02")
                .redirectErrorStream(true)
                .redirectOutput(work.resolve("server.txt").toFile())
                .start();
        Path run = work.resolve("run");
        CaptureStats stats;
        try {
            waitForPort(port, server);
            PacketCapture capture;
            try {
                capture = PacketCapture.start(CaptureSpec.forTarget("127.0.0.1", port), work.resolve("capture.pcap"));
            } catch (CaptureException e) {
                Assumptions.assumeFalse(
                        e.kind() == CaptureException.Kind.NO_PRIVILEGE
                                || e.kind() == CaptureException.Kind.LIBPCAP_MISSING,
                        "packet capture unavailable here (" + e.getMessage() + "); CI runs as root with libpcap0.8");
                throw e;
            }
            try {
                Cli.Result r = Cli.run(
                        work,
                        120,
                        "run",
                        "--target",
                        "http://127.0.0.1:" + port,
                        "--users",
                        "10",
                        "--ramp-up",
                        "0",
                        "--duration",
                        "3s",
                        "--ramp-down",
                        "0",
                        "--think-scale",
                        "0.03",
                        "--backend",
                        "dedicated",
                        "--seed",
                        "5",
                        "--out",
                        run.toString(),
                        "--no-progress");
                assertEquals(0, r.status(), r.out() + r.err());
            } finally {
                stats = capture.stop();
            }
        } finally {
            server.destroy();
            server.waitFor(30, TimeUnit.SECONDS);
        }
        Files.move(work.resolve("capture.pcap"), run.resolve("capture.pcap"));
        stats.writeJson(run.resolve("capture-stats.json"));
        Files.createDirectories(run.resolve("server"));
        try (Stream<Path> files = Files.list(srv)) {
            for (Path f : files.toList()) {
                Files.copy(f, run.resolve("server").resolve(f.getFileName()));
            }
        }

        WireCheck w = WireCheck.run(new RunDirectory(run), null);
        assertTrue(w.complete(), "capture complete: " + w.notes);
        assertTrue(w.clientRequests > 50, "requests: " + w.clientRequests);
        assertEquals(w.clientRequests, w.matched, "every client line matched: " + w.notes);
        assertEquals(0, w.clientOnly);
        assertEquals(0, w.wireOnly);
        assertEquals(w.capture.requests.size(), w.serverRequests, "wire and server requests");
        assertEquals(w.serverRequests, w.serverMatched);
        assertEquals(w.clientConnectionsOpened, w.wireConnectionsWithRequests(), "connections: client vs wire");
        assertEquals(w.clientDistinctConnections, w.wireConnectionsWithRequests());
        // the connections that carried requests, by address:port: the server's own log against the wire
        // (connection totals differ by probes without a request: the test's readiness check, the client's)
        Set<String> serverIds = Files.readAllLines(run.resolve("server/requests.csv")).stream()
                .skip(1)
                .map(l -> l.substring(0, l.indexOf(',')))
                .collect(Collectors.toSet());
        Set<String> wireIds = w.capture.connections.stream()
                .filter(c -> !c.requests.isEmpty())
                .map(c -> c.client)
                .collect(Collectors.toSet());
        assertEquals(serverIds, wireIds, "connections: server vs wire");
        assertTrue(w.serverConnections >= wireIds.size());
        WireCheck.Group all = w.groups.get("all");
        assertEquals(w.matched, all.response.count());
        assertTrue(
                w.groups.containsKey("dedicated/new") && w.groups.containsKey("dedicated/reused"),
                w.groups.keySet().toString());
        List<String> lines = Files.readAllLines(run.resolve("wire.csv"));
        assertEquals(w.matched + 1, lines.size());
        int match = Columns.WIRE.indexOf("match");
        assertTrue(lines.stream().skip(1).allMatch(l -> l.split(",", -1)[match].equals("matched")), lines.get(1));

        Cli.Result report = Cli.analysis(work, "report", run.toString());
        assertEquals(0, report.status(), report.err());
        assertTrue(Files.readString(run.resolve("report.html")).contains("id=wire"));
    }

    private static void waitForPort(int port, Process server) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                throw new AssertionError("server exited: " + server.exitValue());
            }
            try {
                new Socket("127.0.0.1", port).close();
                return;
            } catch (IOException e) {
                Thread.sleep(200);
            }
        }
        throw new AssertionError("server did not listen on " + port);
    }
}
