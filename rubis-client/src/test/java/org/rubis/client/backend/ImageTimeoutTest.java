package org.rubis.client.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An image that never comes (the request timeout fires during the page's image fetches, {@code --images}) ends the
 * image fetches, not the page: the page's reply is kept with its status, bytes and own times and the images fetched
 * before, with the error {@code image-read-timeout}, in every backend alike. The session's next request, sent at once
 * from the reply's callback (a due step with no think time: netty runs it inline, on the event loop), opens a new
 * connection rather than the timed-out one (a request written on it would fail at its close and be resent: the
 * resend shows), and the server sees the requests the client reported plus the hung images'.
 */
class ImageTimeoutTest {

    private static final int TIMEOUT_MS = 400;
    /** The request timeout of the tests where nothing should time out: far beyond a loaded host's delays. */
    private static final int NO_TIMEOUT_MS = 30_000;

    private static final String SHOWN = "/img/shown.jpg";
    private static final String HUNG = "/img/hung.jpg";
    private static final byte[] IMAGE = new byte[100];
    private static final byte[] PAGE = ("<html><IMG SRC=\"" + SHOWN + "\"><IMG SRC=\"" + HUNG + "\"></html>")
            .getBytes(StandardCharsets.ISO_8859_1);
    private static final String MISSING = "/img/missing.jpg";
    /** A page whose only image is answered 404 (with a body). */
    private static final byte[] MISSING_PAGE =
            ("<html><IMG SRC=\"" + MISSING + "\"></html>").getBytes(StandardCharsets.ISO_8859_1);

    private static final String CLOSING = "/img/closing.jpg";
    /** A page whose only image is served with {@code Connection: close}. */
    private static final byte[] CLOSING_PAGE =
            ("<html><IMG SRC=\"" + CLOSING + "\"></html>").getBytes(StandardCharsets.ISO_8859_1);

    /** A page served with {@code Connection: close} whose first image closes its connection too. */
    private static final byte[] CLOSE_CHAIN_PAGE = ("<html><IMG SRC=\"" + CLOSING + "\"><IMG SRC=\"" + SHOWN
                    + "\"></html>")
            .getBytes(StandardCharsets.ISO_8859_1);

    private static final String DRIP = "/img/drip.jpg";
    /** A page whose only image comes a byte every 50 ms: each read within the timeout, the whole image far beyond it. */
    private static final byte[] DRIP_PAGE =
            ("<html><IMG SRC=\"" + DRIP + "\"></html>").getBytes(StandardCharsets.ISO_8859_1);

    private HttpServer server;
    private ExecutorService handlers;
    /** Released at the end: the hung image's handler waits for it, never answering. */
    private final CountDownLatch release = new CountDownLatch(1);
    /** Every request the server saw, as path@client port, in arrival order. */
    private final Queue<String> seen = new ConcurrentLinkedQueue<>();

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        handlers = Executors.newCachedThreadPool();
        server.setExecutor(handlers);
        server.createContext("/", ex -> {
            String path = ex.getRequestURI().getPath();
            seen.add(path + "@" + ex.getRemoteAddress().getPort());
            if (path.equals(HUNG)) {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return;
            }
            if (path.equals(DRIP)) {
                drip(ex);
                return;
            }
            if (path.equals(CLOSING) || path.startsWith("/pageclose/")) {
                ex.getResponseHeaders().set("Connection", "close");
            }
            if (path.equals(MISSING)) {
                ex.sendResponseHeaders(404, IMAGE.length);
                try (OutputStream o = ex.getResponseBody()) {
                    o.write(IMAGE);
                }
                return;
            }
            byte[] body = path.equals(SHOWN) || path.equals(CLOSING)
                    ? IMAGE
                    : path.startsWith("/closing/")
                            ? CLOSING_PAGE
                            : path.startsWith("/missing/")
                                    ? MISSING_PAGE
                                    : path.startsWith("/pageclose/")
                                            ? CLOSE_CHAIN_PAGE
                                            : path.startsWith("/drip/") ? DRIP_PAGE : PAGE;
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream o = ex.getResponseBody()) {
                o.write(body);
            }
        });
        server.start();
    }

    /** 100 bytes announced, one sent every 50 ms until the client goes or the test ends. */
    private void drip(HttpExchange ex) throws IOException {
        ex.sendResponseHeaders(200, IMAGE.length);
        try (OutputStream o = ex.getResponseBody()) {
            for (int i = 0; i < IMAGE.length && !release.await(50, TimeUnit.MILLISECONDS); i++) {
                o.write(0);
                o.flush();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.stop(0);
        handlers.shutdownNow();
    }

    private Backend backend(String name) {
        return backend(name, TIMEOUT_MS);
    }

    private Backend backend(String name, int timeoutMs) {
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        return TestBackends.create(name, base, timeoutMs, true);
    }

    /**
     * Sends as the run's execution model does: an event-loop backend without blocking, its callback on the session's
     * loop; a blocking backend on the caller, then the callback.
     */
    private static void send(Backend b, Backend.Session session, String path, Reply out, Runnable onReply) {
        if (b instanceof EventLoopBackend e) {
            e.send(session, path, out, onReply);
        } else {
            ((BlockingBackend) b).execute(session, path, out);
            onReply.run();
        }
    }

    /**
     * Page {@code prefix}1, then page {@code prefix}2 sent from its reply callback, in one session: a due step
     * with no think time (netty runs it inline, on the event loop).
     */
    private void twoPages(String name, String prefix, Reply first, Reply next) throws Exception {
        twoPages(name, prefix, first, next, TIMEOUT_MS);
    }

    private void twoPages(String name, String prefix, Reply first, Reply next, int timeoutMs) throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        try (Backend b = backend(name, timeoutMs)) {
            Backend.Session session = b.startSession();
            send(b, session, prefix + "1", first, () -> send(b, session, prefix + "2", next, done::countDown));
            assertTrue(done.await(10, TimeUnit.SECONDS), "both requests ended");
            b.endSession(session);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"legacy", "pooled", "dedicated", "netty"})
    void anImageTimeoutKeepsThePageAndTheNextRequestOpensANewConnection(String name) throws Exception {
        Reply first = new Reply();
        Reply next = new Reply();
        twoPages(name, "/page/", first, next);
        for (Reply r : List.of(first, next)) {
            assertEquals("image-read-timeout", r.errorLabel(), "the image's failure, not the page's");
            assertEquals(200, r.status, "the page's own status");
            assertTrue(!r.failed(), "the page stands (the session goes on with it)");
            assertEquals(PAGE.length, r.bytes, "the page's bytes");
            assertEquals(1, r.images, "the image fetched before the hang");
            assertEquals(IMAGE.length, r.imageBytes);
            assertTrue(
                    r.responseNs() > 0 && r.responseNs() < TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS),
                    "the page's own time, not the image's wait: " + r.responseNs());
        }
        assertTrue(next.newConnection, "the next request opened a new connection");
        assertEquals(
                0,
                next.retries(),
                "at once: not first written on the timed-out connection, then resent when it closed");
        List<String> requests = List.copyOf(seen);
        assertEquals(6, requests.size(), "2 pages logged, their 2 images fetched, their 2 hung images: " + requests);
        Map<String, Long> byPath = requests.stream()
                .collect(Collectors.groupingBy(s -> s.substring(0, s.indexOf('@')), Collectors.counting()));
        assertEquals(Map.of("/page/1", 1L, "/page/2", 1L, SHOWN, 2L, HUNG, 2L), byPath, requests.toString());
        assertNotEquals(
                port(requests, HUNG, 0),
                port(requests, "/page/2", 0),
                "not on the timed-out image's connection: " + requests);
        if (!next.localAddress.isEmpty()) {
            assertTrue(
                    next.localAddress.endsWith(":" + port(requests, "/page/2", 0)),
                    "the client names the connection the server saw");
        }
    }

    /**
     * A stop during the page's image fetches ends the hung image at once, not after the request timeout, and the
     * page stands with {@code image-aborted}, in every backend (the blocking ones did not abort images, and netty
     * failed the page as {@code aborted}).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"legacy", "pooled", "dedicated", "netty"})
    void aStopDuringTheImagesEndsThemAtOnceAndThePageStands(String name) throws Exception {
        Reply page = new Reply();
        CountDownLatch done = new CountDownLatch(1);
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        Backend b = TestBackends.create(
                name, base, 60_000,
                true); // a request timeout far beyond the wait below: only the stop can end the hung image
        try (b) {
            Backend.Session session = b.startSession();
            Thread sender = Thread.ofPlatform()
                    .start(() -> send(b, session, "/page/1", page, done::countDown)); // blocking backends block here
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (seen.stream().noneMatch(r -> r.startsWith(HUNG + "@")) && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertTrue(seen.stream().anyMatch(r -> r.startsWith(HUNG + "@")), "the hung image was requested: " + seen);
            b.abortInFlight();
            assertTrue(
                    done.await(10, TimeUnit.SECONDS), "the stop ended the image fetch (the request timeout is 60 s)");
            sender.join(10_000);
            b.endSession(session);
        }
        assertEquals("image-aborted", page.errorLabel(), "the image's end, not the page's");
        assertEquals(200, page.status, "the page's own status");
        assertEquals(PAGE.length, page.bytes);
        assertEquals(1, page.images, "the image fetched before the hang");
    }

    /**
     * The request timeout bounds a whole image, not each read: an image that drips a byte every 50 ms (every read
     * well within the 400 ms timeout, the whole image 5 s) ends as {@code image-read-timeout} within about the
     * timeout, and the page stands, in every backend (the blocking ones timed only each read of an image).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"legacy", "pooled", "dedicated", "netty"})
    void anImageThatDripsEndsAtTheRequestTimeout(String name) throws Exception {
        Reply page = new Reply();
        CountDownLatch done = new CountDownLatch(1);
        try (Backend b = backend(name)) {
            Backend.Session session = b.startSession();
            send(b, session, "/drip/1", page, done::countDown);
            assertTrue(done.await(10, TimeUnit.SECONDS), "the request ended");
            b.endSession(session);
        }
        assertEquals("image-read-timeout", page.errorLabel(), "the image's deadline, not the page's failure");
        assertEquals(200, page.status, "the page's own status");
        assertEquals(DRIP_PAGE.length, page.bytes);
        assertEquals(0, page.images, "the dripping image was not fetched whole");
    }

    /** A 404 image is an image fetched (its bytes counted) in every backend: legacy's JDK threw on it (image-io). */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"legacy", "pooled", "dedicated", "netty"})
    void anImageAnswered404IsCountedLikeAnyOther(String name) throws Exception {
        Reply page = new Reply();
        CountDownLatch done = new CountDownLatch(1);
        try (Backend b = backend(name, NO_TIMEOUT_MS)) {
            Backend.Session session = b.startSession();
            send(b, session, "/missing/1", page, done::countDown);
            assertTrue(done.await(10, TimeUnit.SECONDS), "the request ended");
            b.endSession(session);
        }
        assertEquals("", page.errorLabel(), "a 404 image is no failure of the page");
        assertEquals(200, page.status);
        assertEquals(1, page.images);
        assertEquals(IMAGE.length, page.imageBytes, "its body counted");
    }

    /**
     * An image served with {@code Connection: close} ends its connection: the session's next request, due at once
     * (netty sends it inline, before the server's close has arrived), opens a new connection; netty once wrote it on
     * the closing one, where it failed before any byte and was resent.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"legacy", "pooled", "dedicated", "netty"})
    void anImageThatClosesItsConnectionLeavesTheNextRequestANewOne(String name) throws Exception {
        Reply first = new Reply();
        Reply next = new Reply();
        twoPages(name, "/closing/", first, next, NO_TIMEOUT_MS);
        assertPagesStoodWithTheirImages(1, first, next);
        assertTrue(next.newConnection, "the next request opened a new connection");
        assertEquals(0, next.retries(), "at once: not first written on the closing connection, then resent");
        List<String> requests = List.copyOf(seen);
        assertEquals(4, requests.size(), "2 pages, 2 images, nothing resent: " + requests);
    }

    /**
     * A page served with {@code Connection: close} still has its images fetched, each on a new connection when the
     * reply before it closed its own (the page's, then the first image's), as a browser does, and the next page reuses
     * the last image's connection; netty used to skip the page's images after a closing page, and the images after a
     * closing image, without an error.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"legacy", "pooled", "dedicated", "netty"})
    void imagesAfterAClosingReplyComeOnNewConnections(String name) throws Exception {
        Reply first = new Reply();
        Reply next = new Reply();
        twoPages(name, "/pageclose/", first, next, NO_TIMEOUT_MS);
        assertPagesStoodWithTheirImages(2, first, next);
        assertEquals(0, next.retries(), "nothing written on a closing connection and resent");
        List<String> requests = List.copyOf(seen);
        assertEquals(6, requests.size(), "2 pages, 4 images, nothing resent: " + requests);
        assertEquals(
                port(requests, SHOWN, 0),
                port(requests, "/pageclose/2", 0),
                "the next page reused the last image's open connection");
        assertTrue(!next.newConnection, "and says so");
        if (!next.localAddress.isEmpty()) {
            assertTrue(
                    next.localAddress.endsWith(":" + port(requests, "/pageclose/2", 0)),
                    "the client names the connection the server saw, not the page's closed one: " + next.localAddress
                            + " " + requests);
        }
        for (int n = 0; n < 2; n++) {
            String page = port(requests, "/pageclose/" + (n + 1), 0);
            String closing = port(requests, CLOSING, n);
            String shown = port(requests, SHOWN, n);
            assertEquals(
                    3,
                    Set.of(page, closing, shown).size(),
                    "page, closing image and next image each on its own connection: " + requests);
        }
    }

    /** Each page stood (a closing reply is no failure) with all its {@code images} images fetched. */
    private static void assertPagesStoodWithTheirImages(int images, Reply... pages) {
        for (Reply r : pages) {
            assertEquals("", r.errorLabel(), "a closing reply is no failure");
            assertEquals(200, r.status);
            assertEquals(images, r.images, "every image fetched");
            assertEquals(images * IMAGE.length, r.imageBytes);
        }
    }

    /** The client port of the {@code n}th request for {@code path}. */
    private static String port(List<String> requests, String path, int n) {
        return requests.stream()
                .filter(s -> s.startsWith(path + "@"))
                .skip(n)
                .findFirst()
                .orElseThrow()
                .substring(path.length() + 1);
    }
}
