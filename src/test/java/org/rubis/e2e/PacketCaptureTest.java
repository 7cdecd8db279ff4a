package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.analysis.wire.WireCapture;
import org.rubis.analysis.wire.WireConnection;
import org.rubis.analysis.wire.WireRequest;
import org.rubis.client.wire.CaptureException;
import org.rubis.client.wire.CaptureSpec;
import org.rubis.client.wire.CaptureStats;
import org.rubis.client.wire.PacketCapture;

/**
 * The live capture against a real server on loopback: what it writes must be exactly the traffic the test
 * made (N requests on K keep-alive connections), as read back by the offline analyser. Needs the capture
 * privilege and libpcap (CI runs as root with libpcap0.8); skipped with the reason otherwise. And a run asked to
 * capture where libpcap is missing goes on without the capture and says so; a capture its disk cut is not called
 * complete.
 */
class PacketCaptureTest {
    static final int CONNECTIONS = 3;
    static final int REQUESTS_PER_CONNECTION = 4;

    @TempDir
    Path tmp;

    @Test
    void captureHoldsExactlyTheRequestsAndConnectionsMade() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.createContext("/", ex -> {
            byte[] body =
                    ("page " + ex.getRequestURI().getPath() + " ").repeat(200).getBytes(StandardCharsets.US_ASCII);
            ex.getResponseHeaders().add("Content-Type", "text/plain");
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream o = ex.getResponseBody()) {
                o.write(body);
            }
        });
        server.start();
        int port = server.getAddress().getPort();
        Path file = tmp.resolve("capture.pcap");
        PacketCapture capture = startOrSkip(CaptureSpec.forTarget("127.0.0.1", port), file);
        List<String> paths = new ArrayList<>();
        CaptureStats stats;
        try {
            assertEquals("lo", capture.interfaceName());
            for (int c = 0; c < CONNECTIONS; c++) {
                try (Socket s = new Socket("127.0.0.1", port)) {
                    s.setSoTimeout(10_000);
                    for (int r = 0; r < REQUESTS_PER_CONNECTION; r++) {
                        String path = "/c" + c + "/r" + r;
                        paths.add(path);
                        exchange(s, path, port);
                    }
                }
            }
        } finally {
            stats = capture.stop();
            server.stop(0);
        }
        assertEquals(0, stats.kernelDrops(), "kernel drops");
        assertTrue(
                stats.packetsWritten() > CONNECTIONS * (REQUESTS_PER_CONNECTION * 2 + 3),
                "packets written: " + stats.packetsWritten());
        assertEquals("tcp and host 127.0.0.1 and port " + port, stats.filter());

        WireCapture w = WireCapture.read(file);
        assertEquals(CONNECTIONS, w.connections.size(), "connections on the wire");
        assertEquals(CONNECTIONS * REQUESTS_PER_CONNECTION, w.requests.size(), "requests on the wire");
        assertEquals(paths, w.requests.stream().map(r -> r.path).toList());
        long startNs =
                stats.start().getEpochSecond() * 1_000_000_000L + stats.start().getNano();
        long stopNs =
                stats.stop().getEpochSecond() * 1_000_000_000L + stats.stop().getNano();
        for (WireConnection c : w.connections) {
            assertTrue(c.synSeen);
            assertEquals(REQUESTS_PER_CONNECTION, c.requests.size());
            assertEquals(WireConnection.CloseKind.FIN_CLIENT, c.closeKind);
            assertEquals("127.0.0.1:" + port, c.server);
        }
        long previous = 0;
        for (WireRequest r : w.requests) {
            assertEquals(200, r.status);
            assertTrue(
                    r.requestNs > previous && r.requestNs < r.firstByteNs && r.firstByteNs <= r.lastByteNs,
                    "instants in order");
            // the kernel stamps packets with the same wall clock: within the capture's start and stop (1 s of slack)
            assertTrue(
                    r.requestNs > startNs - 1_000_000_000L && r.lastByteNs < stopNs + 1_000_000_000L,
                    "instants within the capture");
            assertTrue(r.responseNs() < Duration.ofSeconds(10).toNanos());
            long body = ("page " + r.path + " ").length() * 200L;
            assertTrue(
                    r.responseBytes > body && r.responseBytes < body + 300,
                    "whole response counted once: " + r.responseBytes);
            previous = r.requestNs;
        }
    }

    @Test
    void anInterfaceThatDoesNotExistIsAOneLineError() throws Exception {
        CaptureSpec spec = CaptureSpec.forTarget("127.0.0.1", 9).withInterface("nosuchif0");
        try {
            PacketCapture c = PacketCapture.start(spec, tmp.resolve("x.pcap"));
            c.stop();
            throw new AssertionError("capture started on an interface that does not exist");
        } catch (CaptureException e) {
            skipWhenUnavailable(e);
            assertEquals(CaptureException.Kind.NO_INTERFACE, e.kind(), e.getMessage());
            assertTrue(e.getMessage().contains("nosuchif0") && !e.getMessage().contains("\n"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> CaptureSpec.forTarget("127.0.0.1", 0));
    }

    private static PacketCapture startOrSkip(CaptureSpec spec, Path file) {
        try {
            return PacketCapture.start(spec, file);
        } catch (CaptureException e) {
            skipWhenUnavailable(e);
            throw new AssertionError(e.getMessage(), e);
        }
    }

    private static void skipWhenUnavailable(CaptureException e) {
        Assumptions.assumeFalse(
                e.kind() == CaptureException.Kind.NO_PRIVILEGE || e.kind() == CaptureException.Kind.LIBPCAP_MISSING,
                "packet capture unavailable here (" + e.getMessage() + "); CI runs as root with libpcap0.8");
    }

    private static void exchange(Socket s, String path, int port) throws IOException {
        OutputStream o = s.getOutputStream();
        o.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: keep-alive\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        o.flush();
        InputStream in = s.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int state = 0;
        while (state < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed before the headers ended");
            }
            head.write(b);
            state = (b == '\r' && (state == 0 || state == 2)) || (b == '\n' && (state == 1 || state == 3))
                    ? state + 1
                    : 0;
        }
        String headers = head.toString(StandardCharsets.US_ASCII);
        assertTrue(headers.startsWith("HTTP/1.1 200"), headers);
        int length = -1;
        for (String line : headers.split("\r\n")) {
            if (line.toLowerCase().startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        assertTrue(length > 0, headers);
        in.readNBytes(length);
    }

    /**
     * A run whose disk fills up while it captures: libpcap counts no drop for the packets its writes lost, so
     * capture-stats.json said complete with 0 drops over a cut pcap, and summary.txt said both "Accuracy not measured
     * (no packet capture)" and INCOMPLETE. The disk is a real 900 KiB tmpfs (root only: skipped, saying why, elsewhere).
     */
    @Test
    void aCaptureCutByAFullDiskIsNotComplete() throws Exception {
        Path disk = Files.createDirectories(tmp.resolve("disk"));
        boolean mounted = exec("mount", "-t", "tmpfs", "-o", "size=900k", "tmpfs", disk.toString()) == 0;
        Assumptions.assumeTrue(mounted, "skipped: cannot mount a 900 KiB tmpfs here (needs root and CAP_SYS_ADMIN)");
        try {
            Path out = disk.resolve("run");
            Process p = Cli.client(
                            tmp,
                            "run",
                            "--users",
                            "10",
                            "--ramp-up",
                            "0",
                            "--duration",
                            "60s",
                            "--ramp-down",
                            "0",
                            "--think-scale",
                            "0.03",
                            "--jit-warmup",
                            "off",
                            "--capture",
                            "--out",
                            out.toString(),
                            "--no-progress",
                            "--target",
                            SharedServer.target())
                    .redirectErrorStream(true)
                    .redirectOutput(tmp.resolve("full.txt").toFile())
                    .start();
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "stopped at the full disk");
            String log = Files.readString(tmp.resolve("full.txt"));
            Assumptions.assumeFalse(
                    log.contains("libpcap") || log.contains("permission to capture"), "no capture here: " + log);
            assertTrue(log.contains("disk full"), log);
            RunDir dir = new RunDir(out);
            JsonNode stats = dir.json("capture-stats.json");
            assertFalse(stats.path("file_whole").asBoolean(true), "the disk refused the capture's writes: " + stats);
            assertFalse(stats.path("complete").asBoolean(true), "a cut capture is not complete: " + stats);
            JsonNode summary = dir.json("summary.json");
            assertEquals("incomplete", summary.path("wire_check").path("status").asText(), summary.toString());
            String text = Files.readString(out.resolve("summary.txt"));
            assertTrue(text.contains("INCOMPLETE"), text);
            assertFalse(text.contains("Accuracy not measured"), "one statement of the accuracy: " + text);
            assertFalse(text.contains("NOT MEASURED"), text);
        } finally {
            exec("umount", disk.toString());
        }
    }

    private static int exec(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor(20, TimeUnit.SECONDS) ? p.exitValue() : -1;
    }

    /** No libpcap (simulated by pointing pcap4j at a library that does not exist): one line, the run goes on, the summary says so. */
    @Test
    void withoutLibpcapTheRunGoesOnAndSaysSo() throws Exception {
        Path out = tmp.resolve("nolib");
        Path log = tmp.resolve("nolib.txt");
        Process p = new ProcessBuilder(
                        Cli.java(),
                        "-Dorg.pcap4j.core.pcapLibName=/nonexistent/libpcap.so",
                        "-jar",
                        Cli.clientJar().toString(),
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
                        "0.03",
                        "--seed",
                        "2",
                        "--capture",
                        "--out",
                        out.toString(),
                        "--no-progress",
                        "--target",
                        SharedServer.target())
                .directory(tmp.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        String text = Files.readString(log);
        assertEquals(0, p.exitValue(), text);
        List<String> warnings = text.lines()
                .filter(l -> l.contains("capture") && l.startsWith("warning:"))
                .toList();
        assertEquals(1, warnings.size(), text);
        assertTrue(warnings.get(0).contains("libpcap") && warnings.get(0).contains("without capture"), warnings.get(0));
        assertFalse(text.contains("\tat "), "no stack trace: " + text);
        JsonNode s = new RunDir(out).json("summary.json");
        assertEquals("complete", s.path("status").asText());
        assertEquals("not run", s.path("wire_check").path("status").asText());
        assertTrue(s.path("wire_check").path("reason").asText().contains("libpcap"));
        assertFalse(Files.exists(out.resolve("capture.pcap")));
    }
}
