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
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rubis.format.run.ErrorClass;

/**
 * A server that answers the first request on each connection and closes the connection on the
 * second without a reply (what a server's idle keep-alive close looks like to a request that
 * races it). Every backend must resend that request once on a new connection, log it as a retry
 * on a new connection, and not report an error. The server's own accounting (connections
 * accepted, requests read) is the truth.
 */
class StaleConnectionRetryTest {

    private ServerSocket server;
    private final List<Integer> clientPorts = new CopyOnWriteArrayList<>();
    private final AtomicInteger requests = new AtomicInteger();
    private Thread acceptor;

    @BeforeEach
    void start() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = Thread.ofPlatform().daemon().start(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    clientPorts.add(s.getPort());
                    Thread.ofPlatform().daemon().start(() -> serve(s));
                } catch (IOException e) {
                    return;
                }
            }
        });
    }

    private void serve(Socket s) {
        try (s;
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream()) {
            if (!readRequest(in)) {
                return;
            }
            requests.incrementAndGet();
            out.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: text/html\r\n\r\nhello"
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            if (readRequest(in)) {
                requests.incrementAndGet(); // and close without a reply
            }
        } catch (IOException e) {
            // the client went away
        }
    }

    /** Reads one request head (to its blank line); false when the connection ended first. */
    static boolean readRequest(InputStream in) throws IOException {
        int state = 0;
        int c;
        while ((c = in.read()) >= 0) {
            state = (c == '\r' && (state == 0 || state == 2)) || (c == '\n' && (state == 1 || state == 3))
                    ? state + 1
                    : 0;
            if (state == 4) {
                return true;
            }
        }
        return false;
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
        acceptor.join(2000);
    }

    private Backend backend(String kind, String base) {
        return TestBackends.create(kind, base, 5000, false);
    }

    @ParameterizedTest
    @ValueSource(strings = {"legacy", "pooled", "dedicated", "netty"})
    void aRequestOnAConnectionClosedWithoutReplyIsRetriedOnceOnANewConnection(String kind) {
        String base = "http://127.0.0.1:" + server.getLocalPort();
        try (Backend b = backend(kind, base)) {
            Backend.Session session = b.startSession();
            Reply first = new Reply();
            Backends.execute(b, session, "/first", first);
            assertEquals(200, first.status, kind + " first: " + first.errorLabel());
            assertEquals(0, first.retries());
            assertTrue(first.newConnection);

            Reply second = new Reply();
            Backends.execute(b, session, "/second", second);
            assertEquals("", second.errorLabel(), kind);
            assertEquals(200, second.status, kind);
            assertEquals("hello", second.body);
            assertEquals(1, second.retries(), kind + ": the retry is logged");
            assertTrue(second.newConnection, kind + ": the retried request went on a new connection");
            assertTrue(second.responseNs() > 0);
            b.endSession(session);
        }
        // Truth from the server: two connections, three requests (the second one twice).
        assertEquals(2, clientPorts.size(), kind + " connections " + clientPorts);
        assertEquals(3, requests.get(), kind);
    }

    @ParameterizedTest
    @ValueSource(strings = {"legacy", "pooled", "dedicated", "netty"})
    void theRetriedRequestIsLoggedOnItsNewConnection(String kind) {
        String base = "http://127.0.0.1:" + server.getLocalPort();
        try (Backend b = backend(kind, base)) {
            Backend.Session session = b.startSession();
            Reply first = new Reply();
            Backends.execute(b, session, "/first", first);
            Reply second = new Reply();
            Backends.execute(b, session, "/second", second);
            assertEquals("127.0.0.1:" + clientPorts.get(0), first.localAddress, kind);
            assertEquals("127.0.0.1:" + clientPorts.get(1), second.localAddress, kind);
            assertTrue(
                    first.connection != 0 && second.connection != 0 && first.connection != second.connection,
                    kind + ": each connection its own serial: " + first.connection + ", " + second.connection);
            b.endSession(session);
        }
    }

    /**
     * The rule by error class, for a first attempt on a reused connection that got no response byte. A connect failure
     * was meant never to be retried (the rule once tested the labels' "connect-" prefix, which "refused" and
     * "unreachable" lost when the classes were renamed), nor a request the run gave up on (once "interrupted", now
     * "aborted").
     */
    @org.junit.jupiter.api.Test
    void onlyAConnectionTheServerClosedIsRetriedNeverATimeoutAConnectFailureGarbageOrAnAbort() {
        Set<ErrorClass> never = EnumSet.of(
                ErrorClass.REFUSED,
                ErrorClass.UNREACHABLE,
                ErrorClass.CONNECT_TIMEOUT,
                ErrorClass.READ_TIMEOUT,
                ErrorClass.NOT_HTTP,
                ErrorClass.TOO_LARGE,
                ErrorClass.ABORTED);
        for (ErrorClass c : ErrorClass.values()) {
            Reply fresh = new Reply();
            assertEquals(!never.contains(c), StaleConnectionRetry.applies(fresh, true, false, c), c.label());
            assertEquals(
                    false, StaleConnectionRetry.applies(fresh, false, false, c), c.label() + " on a new connection");
            assertEquals(
                    false, StaleConnectionRetry.applies(fresh, true, true, c), c.label() + " after a response byte");
        }
        Reply resent = new Reply();
        for (int i = 0; i < StaleConnectionRetry.MAX_RETRIES; i++) {
            assertTrue(
                    StaleConnectionRetry.applies(resent, true, false, ErrorClass.CLOSED_BEFORE_ANY_BYTE),
                    "resend " + i);
            resent.retry();
        }
        assertEquals(
                false,
                StaleConnectionRetry.applies(resent, true, false, ErrorClass.CLOSED_BEFORE_ANY_BYTE),
                "at most MAX_RETRIES");
    }
}
