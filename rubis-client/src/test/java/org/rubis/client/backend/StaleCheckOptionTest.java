package org.rubis.client.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code client_http_stale_check_ms}: a server that answers with keep-alive and then closes the
 * connection at once (an idle timeout of zero). With the stale check on, HttpClient notices the
 * close before reusing the connection and opens a new one (no retry); off (the default), the
 * request goes out on the closed connection and is resent by {@link StaleConnectionRetry}.
 */
class StaleCheckOptionTest {

    @ParameterizedTest
    @ValueSource(ints = {0, 50})
    @SuppressWarnings("try") // the server is closed early, to end its accept loop before the join
    void theStaleCheckIsOffByDefaultAndAvailableAsAnOption(int staleCheckMs) throws Exception {
        AtomicInteger connections = new AtomicInteger();
        try (ServerSocket server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            Thread t = Thread.ofPlatform().daemon().start(() -> {
                while (!server.isClosed()) {
                    try (Socket s = server.accept();
                            InputStream in = s.getInputStream();
                            OutputStream out = s.getOutputStream()) {
                        connections.incrementAndGet();
                        int state = 0;
                        int c;
                        while (state < 4 && (c = in.read()) >= 0) {
                            state = (c == '\r' && (state == 0 || state == 2))
                                            || (c == '\n' && (state == 1 || state == 3))
                                    ? state + 1
                                    : 0;
                        }
                        out.write(
                                "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.ISO_8859_1));
                        out.flush();
                    } catch (Exception e) {
                        // next
                    }
                }
            });
            String base = "http://127.0.0.1:" + server.getLocalPort();
            try (DedicatedBackend b = (DedicatedBackend) TestBackends.create(
                    "dedicated",
                    base,
                    "client_connect_timeout_ms",
                    "2000",
                    "client_request_timeout_ms",
                    "5000",
                    "client_http_stale_check_ms",
                    String.valueOf(staleCheckMs))) {
                Backend.Session s = b.startSession();
                Reply first = new Reply();
                b.execute(s, "/a", first);
                Thread.sleep(300); // idle longer than the check's threshold; the server's FIN has arrived
                Reply second = new Reply();
                b.execute(s, "/b", second);
                assertEquals(200, second.status, second.errorLabel());
                assertTrue(second.newConnection);
                assertEquals(staleCheckMs > 0 ? 0 : 1, second.retries(), "stale check " + staleCheckMs + " ms");
                b.endSession(s);
            }
            server.close();
            t.join(2000);
        }
        assertEquals(2, connections.get());
    }
}
