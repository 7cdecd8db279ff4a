package org.rubis.client.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ServerSocketFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rubis.format.io.Tls;

/**
 * The JDK resends, once and silently, a request whose reply failed before its status line, even on the connection
 * the request opened itself: the server then sees two requests for one log line. The legacy backend switches that off
 * through the JDK's internals, over http and over https (where the public connection object wraps the one holding
 * them). Against a server that reads each request and closes without a reply, the server's own count of requests is
 * the client's: one, failed, with no retry.
 */
class LegacyNoResendTest {

    private ServerSocket server;
    private final AtomicInteger requests = new AtomicInteger();

    private String start(String scheme) throws IOException {
        ServerSocketFactory factory = scheme.equals("https")
                ? Tls.load(null, null, false).context().getServerSocketFactory()
                : ServerSocketFactory.getDefault();
        server = factory.createServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().start(() -> {
            while (!server.isClosed()) {
                try (Socket s = server.accept()) {
                    if (StaleConnectionRetryTest.readRequest(s.getInputStream())) {
                        requests.incrementAndGet(); // and close without a reply
                    }
                } catch (IOException e) {
                    // a failed handshake or the client went away: the next connection
                }
            }
        });
        return scheme + "://127.0.0.1:" + server.getLocalPort();
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"http", "https"})
    void aReplyThatNeverComesIsNotSentAgainBehindTheLog(String scheme) throws Exception {
        Reply out = new Reply();
        try (Backend b = TestBackends.create("legacy", start(scheme), 5000, false)) {
            Backend.Session session = b.startSession();
            ((BlockingBackend) b).execute(session, "/page", out);
            b.endSession(session);
        }
        assertTrue(out.failed(), "no reply: a failure, " + out.errorLabel());
        assertEquals(0, out.retries(), "no retry logged");
        assertEquals(1, requests.get(), "the server received the request once: the JDK did not resend it");
    }
}
