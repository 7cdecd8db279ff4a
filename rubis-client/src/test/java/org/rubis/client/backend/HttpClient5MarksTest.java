package org.rubis.client.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Where the HttpClient 5 backends put their send instant ({@link HttpClient5Marks}), checked against
 * an in-process server's own instants (same {@link System#nanoTime()} clock): a request is never
 * reported as sent after the server read it, its reply never as ended before the server wrote it,
 * and a pooled request that waited for the pool's only connection keeps that wait in its response
 * time (it is reported as sent before the connection it waited for was free).
 */
class HttpClient5MarksTest {

    private static final long HOLD_MS = 300;
    private static final String BODY = "<html>" + "x".repeat(3000) + "</html>";

    private ServerSocket server;
    /** Per request, in arrival order: the instant its head had been read and the instant before its reply was written. */
    private final List<long[]> served = new CopyOnWriteArrayList<>();

    private final CountDownLatch firstRead = new CountDownLatch(1);
    private volatile long holdMs;

    @BeforeEach
    void start() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().start(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    Thread.ofPlatform().daemon().start(() -> serve(s));
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

    private void serve(Socket s) {
        byte[] reply = ("HTTP/1.1 200 OK\r\nContent-Length: " + BODY.length() + "\r\nContent-Type: text/html\r\n\r\n"
                        + BODY)
                .getBytes(StandardCharsets.ISO_8859_1);
        try (s;
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream()) {
            while (readRequest(in)) {
                long read = System.nanoTime();
                firstRead.countDown();
                Thread.sleep(holdMs);
                served.add(new long[] {read, System.nanoTime()});
                out.write(reply);
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // the client went away
        }
    }

    private static boolean readRequest(InputStream in) throws IOException {
        int state = 0;
        int c;
        while ((c = in.read()) >= 0) {
            state = switch (state) {
                case 0, 2 -> c == '\r' ? state + 1 : 0;
                case 1 -> c == '\n' ? 2 : 0;
                default -> c == '\n' ? 4 : 0;
            };
            if (state == 4) {
                return true;
            }
        }
        return false;
    }

    private String base() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    @Test
    void aPooledRequestThatWaitedForTheOnlyConnectionKeepsTheWaitInItsResponseTime() throws Exception {
        holdMs = HOLD_MS;
        PooledBackend pooled = (PooledBackend) TestBackends.create(
                "pooled",
                base(),
                "client_connect_timeout_ms",
                "5000",
                "client_request_timeout_ms",
                "10000",
                "client_pool_max",
                "1");
        try {
            Reply first = new Reply();
            Reply second = new Reply();
            Thread t = Thread.ofPlatform().start(() -> pooled.execute(null, "/first", first));
            assertTrue(firstRead.await(10, TimeUnit.SECONDS), "the server read the first request");
            long secondCalled = System.nanoTime();
            pooled.execute(null, "/second", second); // waits for the pool's one connection, held by the first
            t.join(10_000);
            assertEquals(200, first.status, first.errorLabel());
            assertEquals(200, second.status, second.errorLabel());
            assertEquals(2, served.size());
            long firstReplyWritten = served.get(0)[1]; // before the write: the connection was busy until after it
            long secondRead = served.get(1)[0];
            assertTrue(
                    second.sendNano() >= secondCalled && second.sendNano() < firstReplyWritten,
                    "the waiting request is measured from before its connection was free: sent "
                            + (second.sendNano() - secondCalled) / 1000 + " us after the call, connection free "
                            + (firstReplyWritten - secondCalled) / 1000 + " us after it");
            assertTrue(
                    second.sendNano() + second.responseNs() >= secondRead + HOLD_MS * 1_000_000,
                    "its response time spans the wait and its own service");
            assertEquals(0, second.retries(), "no resend");
        } finally {
            pooled.close();
        }
    }

    @Test
    void eachBackendsMarksBracketTheServersOwnInstantsOnNewAndReusedConnections() throws Exception {
        holdMs = 20;
        for (String kind : List.of("pooled", "dedicated")) {
            Backend b = TestBackends.create(
                    kind,
                    base(),
                    "client_connect_timeout_ms",
                    "5000",
                    "client_request_timeout_ms",
                    "10000",
                    "client_pool_max",
                    "4");
            served.clear();
            try {
                Backend.Session session = b.startSession();
                Reply r = new Reply();
                for (int i = 0; i < 3; i++) {
                    Backends.execute(b, session, "/page" + i, r);
                    assertEquals(200, r.status, b.name() + " " + r.errorLabel());
                    assertEquals(BODY.length(), r.bytes, b.name());
                    assertEquals(i == 0, r.newConnection, b.name() + " request " + i);
                    long[] s = served.get(i);
                    assertTrue(
                            r.sendNano() <= s[0],
                            b.name() + " request " + i + ": reported sent after the server read it");
                    assertTrue(
                            r.sendNano() + r.responseNs() >= s[1],
                            b.name() + " request " + i + ": reported ended before the server wrote the reply");
                    assertTrue(
                            r.ttfbNs() > 0 && r.ttfbNs() <= r.responseNs(),
                            b.name() + " ttfb " + r.ttfbNs() + " response " + r.responseNs());
                    assertTrue(
                            r.responseNs() >= holdMs * 1_000_000,
                            b.name() + ": the server's hold is inside the response time");
                }
                b.endSession(session);
            } finally {
                b.close();
            }
        }
    }

    @Test
    void httpClientsOwnWorkBeforeTheLeaseAndAfterTheResponseHeadIsOutsideTheResponseTime() throws Exception {
        holdMs = 0;
        long slowMs = 500;
        PoolingHttpClientConnectionManager cm =
                PoolingHttpClientConnectionManagerBuilder.create().build();
        // stand-ins for the client's own CPU: a request interceptor runs before the lease, a response one after the
        // head
        try (CloseableHttpClient client = HttpClient5Exchange.builder(cm, 10_000)
                        .addRequestInterceptorFirst((request, entity, context) -> sleep(slowMs))
                        .addResponseInterceptorFirst((response, entity, context) -> sleep(slowMs))
                        .build();
                HttpClient5Exchange exchange = new HttpClient5Exchange(base(), 0, 10_000)) {
            Reply r = new Reply();
            for (int i = 0; i < 2; i++) {
                long called = System.nanoTime();
                exchange.execute(client, "/slow" + i, r);
                long took = System.nanoTime() - called;
                assertEquals(200, r.status, r.errorLabel());
                assertTrue(took >= 2 * slowMs * 1_000_000, "the call itself took the interceptors' time");
                assertTrue(
                        r.sendNano() - called >= slowMs * 1_000_000,
                        "sent after the work before the lease: " + (r.sendNano() - called) / 1000 + " us");
                assertTrue(
                        r.ttfbNs() < slowMs * 1_000_000,
                        "first byte before the work after the head: " + r.ttfbNs() / 1000 + " us");
                long[] s = served.get(i);
                assertTrue(
                        r.sendNano() <= s[0] && r.sendNano() + r.responseNs() >= s[1],
                        "marks bracket the server's instants");
            }
        } finally {
            cm.close();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
