package org.rubis.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.rubis.format.fault.FaultSpec;
import org.rubis.server.RubisServer.Model;

/**
 * Each fault of the fault spec, seen on a raw socket, and recorded in the server's ground truth. Each case starts its
 * own server on a free port and mostly waits (for a hang, a delay, a window), so the cases run concurrently.
 */
@Tag("concurrent")
@Execution(ExecutionMode.CONCURRENT)
class FaultInjectionTest {

    @TempDir
    Path dir;

    private static final String PAGE = "/PHP/index.html";

    /** What a raw client saw: the head lines, the body bytes read, and how reading ended. */
    record Seen(List<String> head, int declaredLength, int bodyBytes, String end) {}

    /** One exchange that stops reading at the end of a whole body (end "body"): whatever follows is not waited for. */
    private static Seen exchange(int port, int soTimeoutMs) throws IOException {
        return exchange(port, soTimeoutMs, 0);
    }

    /**
     * One exchange; after a whole body, waits up to {@code afterBodyMs} for what follows: the server's close
     * ("eof-after-body"), more bytes ("more") or nothing ("timeout"); 0 does not wait (end "body").
     */
    private static Seen exchange(int port, int soTimeoutMs, int afterBodyMs) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(soTimeoutMs);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + PAGE + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            List<String> head = new ArrayList<>();
            int declared = -1;
            int body = 0;
            String end;
            try {
                StringBuilder line = new StringBuilder();
                for (int c; (c = in.read()) >= 0; ) {
                    if (c == '\n') {
                        String l = line.toString();
                        line.setLength(0);
                        if (l.isEmpty()) {
                            break;
                        }
                        head.add(l);
                        if (l.toLowerCase().startsWith("content-length:")) {
                            declared = Integer.parseInt(l.substring(15).strip());
                        }
                        if (head.size() == 1 && !l.startsWith("HTTP/1.1")) {
                            break; // not HTTP
                        }
                    } else if (c != '\r') {
                        line.append((char) c);
                    }
                }
                byte[] buf = new byte[65536];
                while (declared >= 0 && body < declared) {
                    int n = in.read(buf, 0, Math.min(buf.length, declared - body));
                    if (n < 0) {
                        break;
                    }
                    body += n;
                }
                if (declared >= 0 && body == declared && afterBodyMs == 0) {
                    end = "body";
                } else if (declared >= 0 && body == declared) {
                    s.setSoTimeout(afterBodyMs);
                    end = in.read() < 0 ? "eof-after-body" : "more";
                } else {
                    end = "eof";
                }
            } catch (SocketTimeoutException e) {
                end = "timeout";
            } catch (SocketException e) {
                end = "reset";
            }
            return new Seen(head, declared, body, end);
        }
    }

    private static List<String[]> truth(Path dir) throws IOException {
        List<String[]> rows = new ArrayList<>();
        for (String l : Files.readAllLines(dir.resolve("requests.csv"))
                .subList(1, Files.readAllLines(dir.resolve("requests.csv")).size())) {
            String[] f = l.split(",");
            rows.add(f);
        }
        return rows;
    }

    private static String faultOf(String[] row) {
        return row.length >= 9 ? row[row.length - 1] : "";
    }

    @ParameterizedTest
    @EnumSource(Model.class)
    void hangAcceptsAndNeverAnswers(Model model) throws Exception {
        try (RubisServer s = FaultyServer.start(model, "hang", dir)) {
            Seen seen = exchange(s.port(), 700);
            assertEquals("timeout", seen.end(), "no byte came back: " + seen);
            assertTrue(seen.head().isEmpty());
        }
        assertEquals("hang", faultOf(truth(dir).get(0)));
    }

    @ParameterizedTest
    @EnumSource(Model.class)
    void delayAnswersCorrectlyAfterTheDelay(Model model) throws Exception {
        try (RubisServer s = FaultyServer.start(model, "delay=400", dir)) {
            long t0 = System.nanoTime();
            Seen seen = exchange(s.port(), 10_000);
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertEquals("HTTP/1.1 200 OK", seen.head().get(0));
            assertEquals(seen.declaredLength(), seen.bodyBytes());
            assertTrue(ms >= 400, "answered after the delay, not before: " + ms + " ms");
        }
        String[] row = truth(dir).get(0);
        assertEquals("delay", faultOf(row));
        assertTrue(Long.parseLong(row[3]) >= 400_000_000L, "the server's service time includes the delay");
    }

    @ParameterizedTest
    @EnumSource(Model.class)
    void resetSendsPartOfTheBodyThenAReset(Model model) throws Exception {
        try (RubisServer s = FaultyServer.start(model, "reset", dir)) {
            Seen seen = exchange(s.port(), 10_000);
            assertTrue(seen.bodyBytes() < seen.declaredLength(), seen.toString());
            assertEquals("reset", seen.end(), seen.toString());
        }
        assertEquals("reset", faultOf(truth(dir).get(0)));
    }

    @ParameterizedTest
    @EnumSource(Model.class)
    void truncateAnnouncesMoreThanItSendsThenCloses(Model model) throws Exception {
        try (RubisServer s = FaultyServer.start(model, "truncate", dir)) {
            Seen seen = exchange(s.port(), 10_000);
            assertEquals("HTTP/1.1 200 OK", seen.head().get(0));
            assertEquals(16_384, seen.declaredLength());
            assertEquals(8_192, seen.bodyBytes(), "half the announced body");
            assertEquals("eof", seen.end());
        }
        assertEquals("truncate", faultOf(truth(dir).get(0)));
    }

    @ParameterizedTest
    @EnumSource(Model.class)
    void idleCloseAnswersKeepAliveThenClosesAtOnce(Model model) throws Exception {
        try (RubisServer s = FaultyServer.start(model, "idle-close", dir)) {
            // 1 s after the body: an idle close comes at once, the keep-alive timeout only after 5 s
            Seen seen = exchange(s.port(), 10_000, 1000);
            assertTrue(
                    seen.head().stream().anyMatch(h -> h.equalsIgnoreCase("connection: keep-alive")), seen.toString());
            assertEquals(seen.declaredLength(), seen.bodyBytes());
            assertEquals(
                    "eof-after-body",
                    seen.end(),
                    "closed although keep-alive was promised (keep-alive timeout is 5 s)");
        }
        assertEquals("idle-close", faultOf(truth(dir).get(0)));
    }

    @ParameterizedTest
    @EnumSource(Model.class)
    void statusAnswersTheGivenServerError(Model model) throws Exception {
        try (RubisServer s = FaultyServer.start(model, "status=502", dir)) {
            Seen seen = exchange(s.port(), 10_000);
            assertTrue(seen.head().get(0).startsWith("HTTP/1.1 502"), seen.toString());
            assertEquals(seen.declaredLength(), seen.bodyBytes());
        }
        String[] row = truth(dir).get(0);
        assertEquals("status", faultOf(row));
        assertEquals("502", row[5]);
    }

    @ParameterizedTest
    @EnumSource(Model.class)
    void garbageAnswersBytesThatAreNotHttp(Model model) throws Exception {
        try (RubisServer s = FaultyServer.start(model, "garbage", dir)) {
            Seen seen = exchange(s.port(), 10_000);
            assertTrue(seen.head().get(0).startsWith("SSH-2.0"), seen.toString());
            assertEquals(-1, seen.declaredLength());
        }
        assertEquals("garbage", faultOf(truth(dir).get(0)));
    }

    @ParameterizedTest
    @EnumSource(Model.class)
    void largeSendsTheWholeLargeBody(Model model) throws Exception {
        try (RubisServer s = FaultyServer.start(model, "large=20", dir)) {
            Seen seen = exchange(s.port(), 20_000);
            assertEquals(20 << 20, seen.declaredLength());
            assertEquals(20 << 20, seen.bodyBytes());
        }
        String[] row = truth(dir).get(0);
        assertEquals("large", faultOf(row));
        assertEquals(String.valueOf(20 << 20), row[6]);
    }

    @ParameterizedTest
    @EnumSource(Model.class)
    void stopAcceptingHoldsNewConnectionsUntilTheWindowEnds(Model model) throws Exception {
        try (RubisServer s = FaultyServer.start(model, "stop-accepting@0.2-4", dir)) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while (!s.truth().statsJson().contains("\"stop-accepting\": 1") && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(
                    s.truth().statsJson().contains("\"stop-accepting\": 1"),
                    s.truth().statsJson());
            assertEquals("timeout", exchange(s.port(), 700).end(), "no answer while the server does not accept");
            Seen after = exchange(s.port(), 15_000); // waits in the backlog until the window ends
            assertEquals("HTTP/1.1 200 OK", after.head().get(0));
        }
    }

    /** A die at a time (no request names it) is counted in stats.json too: it was never. */
    @ParameterizedTest
    @EnumSource(Model.class)
    void aTimedDieIsCountedInStats(Model model) throws Exception {
        RubisServer s = FaultyServer.start(model, "die@1", dir);
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!Files.exists(dir.resolve("stats.json")) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
        } finally {
            s.close();
        }
        assertTrue(
                Files.readString(dir.resolve("stats.json")).contains("\"die\": 1"),
                Files.readString(dir.resolve("stats.json")));
    }

    @ParameterizedTest
    @EnumSource(Model.class)
    @SuppressWarnings("try") // each probe only connects and stays open a moment: its try has no use for it
    void dieEndsTheServerWithoutAnswering(Model model) throws Exception {
        RubisServer s = FaultyServer.start(model, "die", dir);
        try {
            int port = s.port();
            Seen seen = exchange(port, 10_000);
            assertTrue(seen.head().isEmpty(), seen.toString());
            assertTrue(seen.end().equals("eof") || seen.end().equals("reset"), seen.toString());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            boolean refused = false;
            while (!refused && System.nanoTime() < deadline) {
                try (Socket probe = new Socket("127.0.0.1", port)) {
                    Thread.sleep(50);
                } catch (ConnectException e) {
                    refused = true;
                } catch (SocketException e) {
                    // the dying listener reset a probe it had accepted: try again
                }
            }
            assertTrue(refused, "the listener is gone");
        } finally {
            s.close();
        }
        assertEquals("die", faultOf(truth(dir).get(0)));
        assertTrue(Files.readString(dir.resolve("stats.json")).contains("\"die\": 1"));
    }

    /** A fraction hits that share of the requests, and the ground truth names exactly the requests hit. */
    @ParameterizedTest
    @EnumSource(Model.class)
    void aFractionHitsThatShareAndTheGroundTruthAgrees(Model model) throws Exception {
        int errors = 0;
        try (RubisServer s = FaultyServer.start(model, "status=500:0.25", dir);
                RawHttp c = new RawHttp(s.port())) {
            for (int i = 0; i < 40; i++) {
                errors += c.get(PAGE).status() == 500 ? 1 : 0;
            }
        }
        assertTrue(errors >= 8 && errors <= 12, "about a quarter of 40: " + errors);
        long logged =
                truth(dir).stream().filter(r -> faultOf(r).equals("status")).count();
        assertEquals(errors, logged);
        assertTrue(Files.readString(dir.resolve("stats.json")).contains("\"status\": " + errors));
    }

    @org.junit.jupiter.api.Test
    void aMalformedSpecIsOneLineNamingTheRule() {
        for (String bad : List.of(
                "explode",
                "delay=abc",
                "status=200",
                "reset:1.5",
                "reset:NaN",
                "stop-accepting",
                "stop-accepting:0.5@1-2",
                "delay@5-2",
                "large=99999",
                "hang=3",
                ",",
                "delay=2000@1e300")) {
            String m = assertThrows(IllegalArgumentException.class, () -> FaultSpec.parse(bad), bad)
                    .getMessage();
            assertTrue(m.startsWith("fault spec \""), m);
            assertFalse(m.contains("\n"), m);
        }
        assertEquals(
                3,
                FaultSpec.parse("reset:0.1, delay=3000:0.5@10-20 ,die@30")
                        .rules()
                        .size());
    }
}
