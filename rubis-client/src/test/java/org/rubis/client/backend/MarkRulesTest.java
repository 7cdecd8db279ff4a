package org.rubis.client.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rubis.format.run.ErrorClass;

/**
 * The rules of where a mark is taken ({@link Reply}), for every backend, against a loopback server's own instants
 * (the same {@link System#nanoTime()} clock): it delays its first byte and its last byte by known amounts, answers a
 * whole reply in one write, closes without a reply, or closes a reused connection under a request. Each mark must lie
 * between the server's instants that bound it, so the times bracket the server's delays.
 */
class MarkRulesTest {

    private static final long FIRST_MS = 80;
    private static final long LAST_MS = 150;
    private static final long FAIL_MS = 60;
    private static final long MS = 1_000_000L;
    private static final String BODY = "<html>" + "x".repeat(3000) + "</html>";
    private static final String SMALL = "<html>small</html>";

    /** What the server did for one request, by its own clock; 0 for what it did not do. */
    private record Served(
            String path, int onConnection, long accepted, long read, long firstWrite, long lastWrite, long closed) {}

    private ServerSocket server;
    private final List<Served> served = new CopyOnWriteArrayList<>();
    private final AtomicInteger accepted = new AtomicInteger();

    @BeforeEach
    void start() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().start(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    long at = System.nanoTime();
                    accepted.incrementAndGet();
                    Thread.ofPlatform().daemon().start(() -> serve(s, at));
                } catch (IOException e) {
                    return;
                }
            }
        });
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
    }

    /**
     * {@code /split}: the first byte {@link #FIRST_MS} after the request was read (the head and half the body), the
     * rest {@link #LAST_MS} later; {@code /whole}: a small reply in one write after {@link #FIRST_MS}; {@code /drop}:
     * closed without a reply {@link #FAIL_MS} after the request; {@code /gone}: closed at once when it comes on a
     * reused connection, answered on a new one; anything else: answered at once.
     */
    private void serve(Socket s, long acceptedNano) {
        try (s;
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream()) {
            for (int n = 1; ; n++) {
                String path = readRequest(in);
                if (path == null) {
                    return;
                }
                long read = System.nanoTime();
                long accept = n == 1 ? acceptedNano : 0;
                switch (path) {
                    case "/split" -> {
                        Thread.sleep(FIRST_MS);
                        long first = System.nanoTime();
                        byte[] all = reply(BODY);
                        int half = all.length - BODY.length() / 2;
                        out.write(all, 0, half);
                        out.flush();
                        Thread.sleep(LAST_MS);
                        long last = System.nanoTime();
                        served.add(new Served(path, n, accept, read, first, last, 0));
                        out.write(all, half, all.length - half);
                        out.flush();
                    }
                    case "/whole" -> {
                        Thread.sleep(FIRST_MS);
                        long first = System.nanoTime();
                        served.add(new Served(path, n, accept, read, first, first, 0));
                        out.write(reply(SMALL));
                        out.flush();
                    }
                    case "/drop" -> {
                        Thread.sleep(FAIL_MS);
                        served.add(new Served(path, n, accept, read, 0, 0, System.nanoTime()));
                        return;
                    }
                    case "/gone" -> {
                        if (n > 1) {
                            served.add(new Served(path, n, accept, read, 0, 0, System.nanoTime()));
                            return;
                        }
                        long first = System.nanoTime();
                        served.add(new Served(path, n, accept, read, first, first, 0));
                        out.write(reply(SMALL));
                        out.flush();
                    }
                    default -> {
                        long first = System.nanoTime();
                        served.add(new Served(path, n, accept, read, first, first, 0));
                        out.write(reply(SMALL));
                        out.flush();
                    }
                }
            }
        } catch (IOException | InterruptedException e) {
            // the client went away
        }
    }

    private static byte[] reply(String body) {
        return ("HTTP/1.1 200 OK\r\nContent-Length: " + body.length() + "\r\nContent-Type: text/html\r\n\r\n" + body)
                .getBytes(StandardCharsets.ISO_8859_1);
    }

    /** The path of the next request's line, once its head has been read; null at the end of the stream. */
    private static String readRequest(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0) {
            head.append((char) c);
            int n = head.length();
            if (n >= 4 && head.substring(n - 4).equals("\r\n\r\n")) {
                String[] line = head.substring(0, head.indexOf("\r")).split(" ");
                return line.length > 1 ? line[1] : "";
            }
        }
        return null;
    }

    private Backend backend(String kind) {
        return TestBackends.create(kind, "http://127.0.0.1:" + server.getLocalPort(), 5000, false);
    }

    private Served last(String path) {
        for (int i = served.size() - 1; i >= 0; i--) {
            if (served.get(i).path().equals(path)) {
                return served.get(i);
            }
        }
        throw new AssertionError("the server did not see " + path + ": " + served);
    }

    /** Rules 1, 3 and 4 on a new connection, then on the reused one. */
    @ParameterizedTest
    @ValueSource(strings = {"legacy", "pooled", "dedicated", "netty", "kernel"})
    void theFirstAndLastByteMarksBracketTheServersDelays(String kind) {
        try (Backend b = backend(kind)) {
            Backend.Session session = b.startSession();
            for (int i = 0; i < 2; i++) {
                String what = kind + (i == 0 ? ", new connection" : ", reused connection");
                Reply r = new Reply();
                long called = System.nanoTime();
                Backends.execute(b, session, "/split", r);
                Served s = last("/split");
                assertEquals(200, r.status, what + ": " + r.errorLabel());
                assertTrue(BODY.equals(r.body), what + ": the whole body");
                assertEquals(i == 0, r.newConnection, what);
                long first = r.sendNano() + r.ttfbNs();
                assertTrue(called <= r.sendNano(), what + ": the send is marked after the backend was called");
                assertTrue(r.sendNano() <= s.read(), what + ": and before the server had read the request");
                assertTrue(s.firstWrite() <= first, what + ": the first byte is marked after the server wrote it");
                assertTrue(first < s.lastWrite(), what + ": at the first read, before the server wrote the rest");
                assertTrue(r.endNano() >= s.lastWrite(), what + ": the last byte is marked after the server wrote it");
                assertTrue(r.ttfbNs() >= FIRST_MS * MS, what + ": the first-byte delay is in the ttfb: " + r.ttfbNs());
                assertTrue(r.responseNs() - r.ttfbNs() >= LAST_MS * MS / 2, what + ": the last-byte delay after it");
                assertTrue(r.responseNs() >= (FIRST_MS + LAST_MS) * MS, what + ": both delays are in the response");
                if (i == 0 && (kind.equals("legacy") || kind.equals("netty") || kind.equals("kernel"))) {
                    assertTrue(r.sendNano() < s.accepted(), what + ": the connect is after the send mark");
                }
            }
            b.endSession(session);
        }
    }

    /** Rule 4 for HttpClient 5: a body that came with the head ends at the head. */
    @ParameterizedTest
    @ValueSource(strings = {"legacy", "pooled", "dedicated", "netty", "kernel"})
    void aReplyWrittenAtOnceEndsNoEarlierThanItsHead(String kind) {
        try (Backend b = backend(kind)) {
            Backend.Session session = b.startSession();
            Reply r = new Reply();
            Backends.execute(b, session, "/whole", r);
            Served s = last("/whole");
            assertEquals(SMALL, r.body, kind + ": " + r.errorLabel());
            long first = r.sendNano() + r.ttfbNs();
            assertTrue(r.sendNano() <= s.read() && s.firstWrite() <= first && first <= r.endNano(), kind);
            assertTrue(r.ttfbNs() >= FIRST_MS * MS, kind + ": " + r.ttfbNs());
            if (kind.equals("pooled") || kind.equals("dedicated")) {
                assertEquals(r.ttfbNs(), r.responseNs(), kind + ": the body came with the head, so it ended there");
            }
            b.endSession(session);
        }
    }

    /** Rule 5: a failure is marked where it is detected, after the server's close. */
    @ParameterizedTest
    @ValueSource(strings = {"legacy", "pooled", "dedicated", "netty", "kernel"})
    void aFailureIsMarkedWhenItIsDetected(String kind) {
        try (Backend b = backend(kind)) {
            Backend.Session session = b.startSession();
            Reply r = new Reply();
            long called = System.nanoTime();
            Backends.execute(b, session, "/drop", r);
            List<Served> drops =
                    served.stream().filter(x -> x.path().equals("/drop")).toList();
            assertTrue(r.failed(), kind);
            assertEquals(ErrorClass.CLOSED_BEFORE_ANY_BYTE, r.error(), kind);
            assertEquals(0, r.ttfbNs(), kind + ": no byte came");
            assertTrue(called <= r.sendNano() && r.sendNano() <= drops.get(0).read(), kind + ": sent before the read");
            assertTrue(r.endNano() >= drops.get(drops.size() - 1).closed(), kind + ": marked after the close");
            assertTrue(r.responseNs() >= FAIL_MS * MS, kind + ": the wait for the close is in the response time");
            b.endSession(session);
        }
    }

    /**
     * Rule 6: a request resent because the server closed its reused connection is marked again before the resend, so
     * the failed attempt is outside its window, on every backend (legacy switches the JDK's own resend off and resends
     * as the others do).
     */
    @ParameterizedTest
    @ValueSource(strings = {"legacy", "pooled", "dedicated", "netty", "kernel"})
    void aRetriedRequestIsMarkedAgainBeforeItsResend(String kind) {
        try (Backend b = backend(kind)) {
            Backend.Session session = b.startSession();
            Reply first = new Reply();
            Backends.execute(b, session, "/ok", first);
            assertEquals(200, first.status, kind + ": " + first.errorLabel());
            Reply r = new Reply();
            Backends.execute(b, session, "/gone", r);
            assertEquals(SMALL, r.body, kind + ": " + r.errorLabel());
            assertEquals(1, r.retries(), kind);
            Served failed = served.stream()
                    .filter(x -> x.path().equals("/gone") && x.closed() != 0)
                    .findFirst()
                    .orElseThrow();
            Served resent = last("/gone");
            assertTrue(r.sendNano() <= resent.read() && r.endNano() >= resent.firstWrite(), kind + ": the resend");
            assertTrue(r.sendNano() >= failed.closed(), kind + ": marked again after the failed attempt ended");
            b.endSession(session);
        }
    }

    /** Rule 7: what a prepare readies does not touch the wire; the prepared connect is in the request's window. */
    @ParameterizedTest
    @ValueSource(strings = {"dedicated", "netty"})
    void aPreparedConnectIsInTheWindow(String kind) throws Exception {
        try (Backend b = backend(kind)) {
            PreparingBackend p = (PreparingBackend) b;
            Backend.Session session = b.startSession();
            if (b instanceof EventLoopBackend e) {
                e.loop(session).submit(() -> p.prepare(session)).get(5, TimeUnit.SECONDS);
            } else {
                p.prepare(session);
            }
            Thread.sleep(50);
            assertEquals(0, accepted.get(), kind + ": the prepare connected nothing");
            Reply r = new Reply();
            Backends.execute(b, session, "/split", r);
            Served s = last("/split");
            assertNull(r.error(), kind);
            assertTrue(r.newConnection, kind);
            assertTrue(r.sendNano() <= s.read() && r.ttfbNs() >= FIRST_MS * MS, kind);
            if (kind.equals("netty")) {
                assertTrue(r.sendNano() < s.accepted(), kind + ": the prepared channel connected after the send mark");
            }
            b.endSession(session);
        }
    }
}
