package org.rubis.client.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rubis.format.run.ErrorClass;

/**
 * The legacy backend's abort at Ctrl-C never makes the JDK send a request twice (the server would
 * count one request more than the client logs). The race is forced: the stopping thread pauses
 * between a connection's "do not resend" mark and its close, the way a preempted thread would,
 * while the request it marked gets its response, and another request (held in the JDK's proxy
 * selection before it takes a connection) goes on. That request is one the abort does not track
 * (the JDK's keep-alive cache is the whole process's: another backend, a library in the same JVM),
 * so that only the cache decides which connection it gets. With {@code disconnect()}'s two steps
 * unguarded, the first request's connection returns to the cache, the other request takes it and
 * writes, and the late close makes the JDK resend it on a new connection. The server's record of
 * what it received is the truth.
 */
class LegacyAbortTest {

    private ServerSocket server;
    private Thread acceptor;
    /** "path@client port" per request received, in order. */
    private final List<String> received = new CopyOnWriteArrayList<>();
    /** Requests whose response waits until their latch opens. */
    private final Map<String, CountDownLatch> held = new ConcurrentHashMap<>();

    private ProxySelector previous;

    @BeforeEach
    void start() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = Thread.ofPlatform().daemon().start(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    Thread.ofPlatform().daemon().start(() -> serve(s));
                } catch (IOException e) {
                    return;
                }
            }
        });
        previous = ProxySelector.getDefault();
    }

    @AfterEach
    void stop() throws Exception {
        ProxySelector.setDefault(previous);
        held.values().forEach(CountDownLatch::countDown);
        server.close();
        acceptor.join(2000);
    }

    private void serve(Socket s) {
        try (s;
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream()) {
            String path;
            while ((path = readRequest(in)) != null) {
                received.add(path + "@" + s.getPort());
                CountDownLatch hold = held.get(path);
                if (hold != null) {
                    hold.await(10, TimeUnit.SECONDS);
                }
                out.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: text/html\r\n\r\nhello"
                        .getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // the client went away
        }
    }

    /** The request's path, or null at the end of the connection. */
    private static String readRequest(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0) {
            head.append((char) c);
            if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) {
                return head.toString().split(" ", 3)[1];
            }
        }
        return null;
    }

    private long receivedCount(String path) {
        return received.stream().filter(r -> r.startsWith(path + "@")).count();
    }

    private static boolean await(BooleanSupplier done, long ms) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > end) {
                return false;
            }
            Thread.sleep(2);
        }
        return true;
    }

    @Test
    void anAbortThatMeetsAResponseDoesNotMakeTheJdkSendAnotherRequestTwice() throws Exception {
        assertTrue(
                LegacyAbort.exact(),
                "this JDK's internals are readable (else the abort is disconnect(), which this test would fail)");
        String base = "http://127.0.0.1:" + server.getLocalPort();
        CountDownLatch answerFirst = new CountDownLatch(1);
        CountDownLatch answerSecond = new CountDownLatch(1);
        held.put("/first", answerFirst);
        held.put("/second", answerSecond);
        CountDownLatch secondSelecting = new CountDownLatch(1);
        CountDownLatch secondGoesOn = new CountDownLatch(1);
        ProxySelector.setDefault(new HoldingSelector(previous, "/second", secondSelecting, secondGoesOn));

        LegacyBackend b = (LegacyBackend) TestBackends.create("legacy", base, 5000, false);
        LegacyBackend untracked = (LegacyBackend) TestBackends.create("legacy", base, 5000, false);
        Backend.Session session = b.startSession();
        Reply first = new Reply();
        Reply second = new Reply();
        Thread firstUser = Thread.ofPlatform().start(() -> b.execute(session, "/first", first));
        assertTrue(await(() -> receivedCount("/first") == 1, 5000), "the first request is waiting for its response");
        Thread secondUser =
                Thread.ofPlatform().start(() -> untracked.execute(untracked.startSession(), "/second", second));
        assertTrue(
                secondSelecting.await(5, TimeUnit.SECONDS),
                "the second request is on its way, before taking a connection");

        b.abort().betweenMarkAndClose(() -> {
            try {
                answerFirst.countDown(); // the first request's response comes now...
                await(
                        () -> !firstUser.isAlive(),
                        500); // ...it ends, its connection back in the JDK's cache (unless the abort holds the cache)
                secondGoesOn.countDown(); // the other request takes a connection and writes
                await(() -> receivedCount("/second") > 0, 500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        b.abortInFlight();
        answerSecond.countDown();
        firstUser.join(5000);
        secondUser.join(5000);

        assertEquals(1, receivedCount("/first"), "received: " + received);
        assertEquals(
                1,
                receivedCount("/second"),
                "the JDK sent the other request again after the abort closed its connection: " + received);
        assertEquals(
                200, first.status, "the first request's response was complete before its close: " + first.errorLabel());
        assertEquals(
                200, second.status, "a request the abort does not track is not ended by it: " + second.errorLabel());
    }

    @Test
    void anAbortEndsARequestWaitingForItsResponseWhichIsSentOnce() throws Exception {
        String base = "http://127.0.0.1:" + server.getLocalPort();
        held.put("/hang", new CountDownLatch(1));
        LegacyBackend b = (LegacyBackend) TestBackends.create("legacy", base, 10_000, false);
        Backend.Session session = b.startSession();
        Reply warm = new Reply();
        b.execute(session, "/warm", warm); // a connection in the cache: the hung request reuses it
        assertEquals(200, warm.status);
        Reply hung = new Reply();
        Thread user = Thread.ofPlatform().start(() -> b.execute(session, "/hang", hung));
        assertTrue(await(() -> receivedCount("/hang") == 1, 5000));
        long t0 = System.nanoTime();
        b.abortInFlight();
        user.join(5000);
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertEquals(ErrorClass.ABORTED, hung.error());
        assertTrue(ms < 2000, "ended by the abort, not the 10 s read timeout: " + ms + " ms");
        Thread.sleep(200);
        assertEquals(1, receivedCount("/hang"), "not resent: " + received);
    }

    /** Holds the JDK's proxy lookup for one path (the request is then past the backend's stop check, before its connection). */
    private static final class HoldingSelector extends ProxySelector {
        private final ProxySelector delegate;
        private final String path;
        private final CountDownLatch entered;
        private final CountDownLatch goOn;

        HoldingSelector(ProxySelector delegate, String path, CountDownLatch entered, CountDownLatch goOn) {
            this.delegate = delegate;
            this.path = path;
            this.entered = entered;
            this.goOn = goOn;
        }

        @Override
        public List<Proxy> select(URI uri) {
            if (path.equals(uri.getPath())) {
                entered.countDown();
                try {
                    goOn.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return List.of(Proxy.NO_PROXY);
            }
            return delegate == null ? List.of(Proxy.NO_PROXY) : delegate.select(uri);
        }

        @Override
        public void connectFailed(URI uri, SocketAddress sa, IOException ioe) {
            if (delegate != null) {
                delegate.connectFailed(uri, sa, ioe);
            }
        }
    }
}
