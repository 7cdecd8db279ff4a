package org.rubis.client.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ConfigLoader;
import org.rubis.client.input.ConfigException;
import org.rubis.format.run.ErrorClass;
import org.rubis.server.FaultyServer;
import org.rubis.server.RubisServer;

/**
 * Every backend against every fault of the fault-injecting server, and against the malformed, endless, oversized and
 * redirected replies of {@link ReplyFaultServer}: the same fault gets the same class of the one taxonomy
 * ({@link ErrorClass}), whichever backend met it, and never an exception name. The servers' own accounting is the
 * independent truth: the embedded server's fault log says the fault happened; the reply-fault server's request counts
 * say how often a request was sent (once plus its logged retries), and its failed writes that the client, not the
 * server, ended an endless reply.
 */
@Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ErrorClassMatrixTest {

    /** The request timeout of the faults that need one to end; the others get {@link #AMPLE_MS}. */
    private static final int TIMEOUT_MS = 300;

    private static final int AMPLE_MS = 10_000;

    @TempDir
    Path tmp;

    private static ReplyFaultServer faults;

    /**
     * One fault-injecting server per fault, shared by the four backends' cases (its start was most of a case's time):
     * each case reads the server's count of its fault before and after its request.
     */
    private static final Map<String, RubisServer> BY_FAULT = new HashMap<>();

    @BeforeAll
    static void startFaults() throws Exception {
        faults = new ReplyFaultServer();
    }

    @AfterAll
    static void stopFaults() throws Exception {
        faults.close();
        for (RubisServer s : BY_FAULT.values()) {
            s.close();
        }
    }

    private static RubisServer serverWith(String fault) throws Exception {
        RubisServer s = BY_FAULT.get(fault);
        if (s == null) {
            s = FaultyServer.start(RubisServer.Model.EVENT, fault, null);
            BY_FAULT.put(fault, s);
        }
        return s;
    }

    /** How many times the server says it injected the fault {@code kind} (its stats' {@code faults}). */
    private static long injected(RubisServer server, String kind) throws Exception {
        return new ObjectMapper()
                .readTree(server.truth().statsJson())
                .path("faults")
                .path(kind)
                .asLong();
    }

    static Stream<Arguments> matrix() {
        List<Arguments> a = new ArrayList<>();
        for (String backend : BACKENDS) {
            a.add(Arguments.of(backend, "hang", "read-timeout", 0));
            a.add(Arguments.of(backend, "reset", "reset", 0));
            a.add(Arguments.of(backend, "truncate", "truncated-body", 0));
            a.add(Arguments.of(backend, "status=503", "http-503", 503));
            a.add(Arguments.of(backend, "status=404", "http-404", 404));
            a.add(Arguments.of(backend, "status=500", "http-500", 500));
            // pooled and dedicated too: their response parser is strict (HttpClient's default skips non-HTTP lines
            // until the close)
            a.add(Arguments.of(backend, "garbage", "not-http", 0));
            a.add(Arguments.of(backend, "large=20", "", 200));
            a.add(Arguments.of(backend, "delay=50", "", 200));
        }
        return a.stream();
    }

    @ParameterizedTest(name = "{0} x {1} -> {2}")
    @MethodSource("matrix")
    void eachFaultHasOneClassOnEveryBackend(String backend, String fault, String expected, int status)
            throws Exception {
        RubisServer server = serverWith(fault);
        String kind = fault.split("=")[0];
        long before = injected(server, kind);
        Reply r = once(backend, "http://127.0.0.1:" + server.port(), fault.equals("hang") ? 700 : 10_000);
        assertEquals(expected, classOf(r), backend + " x " + fault);
        assertEquals(status, r.status, "status column");
        assertTrue(ErrorClass.parse(expected) != null || expected.isEmpty());
        if (fault.startsWith("large")) {
            assertEquals(20L << 20, r.bytes, "the whole large body is read and counted");
        }
        if (!expected.isEmpty() && !expected.startsWith("http-")) {
            assertTrue(r.failed(), "a transport failure has no page");
        }
        for (int i = 0; i < 100 && injected(server, kind) == before; i++) {
            Thread.sleep(20); // the server counts the fault after its reply
        }
        assertTrue(
                injected(server, kind) > before,
                "the server's own log has this request's fault: "
                        + server.truth().statsJson());
    }

    @ParameterizedTest(name = "{0}: refused")
    @MethodSource("backends")
    void refused(String backend) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        assertEquals(
                ErrorClass.REFUSED, once(backend, "http://127.0.0.1:" + port).error());
    }

    @ParameterizedTest(name = "{0}: https against http")
    @MethodSource("tlsBackends")
    void tlsFailure(String backend) throws Exception {
        try (RubisServer server = FaultyServer.start(RubisServer.Model.EVENT, "delay=0:0.0", tmp)) {
            assertEquals(
                    ErrorClass.TLS_FAILURE,
                    once(backend, "https://127.0.0.1:" + server.port()).error());
        }
    }

    static Stream<Arguments> replyFaults() {
        List<Arguments> a = new ArrayList<>();
        for (String backend : BACKENDS) {
            a.add(Arguments.of(backend, "/reset", "reset"));
            a.add(Arguments.of(backend, "/close", "closed-before-any-byte"));
            a.add(Arguments.of(backend, "/big-header", "not-http"));
            a.add(Arguments.of(backend, "/length-negative", "not-http"));
            a.add(Arguments.of(backend, "/length-20-digits", "not-http"));
            a.add(Arguments.of(backend, "/drip", "read-timeout"));
            a.add(Arguments.of(backend, "/endless-chunked", "read-timeout"));
            a.add(Arguments.of(backend, "/too-large-announced", "too-large"));
            a.add(Arguments.of(backend, "/too-large-chunked", "too-large"));
        }
        return a.stream();
    }

    /**
     * A malformed, endless or oversized reply on a new connection: one class on every backend, no page, and the request
     * sent exactly once (no backend resends a request that failed on a connection it had just opened). An endless reply
     * ends within the request timeout (the whole reply, not each read), closed by the client.
     */
    @ParameterizedTest(name = "{0} x {1} -> {2}")
    @MethodSource("replyFaults")
    void eachMalformedReplyHasOneClassOnEveryBackend(String backend, String path, String expected) throws Exception {
        int before = faults.requests(path);
        int cutBefore = faults.cutOff(path);
        boolean endless = expected.equals("read-timeout");
        Reply r = once(backend, faults.base(), path, endless ? TIMEOUT_MS : AMPLE_MS);
        assertEquals(expected, r.errorLabel(), backend + " " + path);
        assertTrue(r.failed(), "a failed reply has no page");
        assertEquals(0, r.status, "status column");
        assertEquals(1 + r.retries(), faults.requests(path) - before, "the server saw each attempt logged, once");
        // legacy's connections come from the JVM's one keep-alive cache, where an earlier case's may wait: a failure on
        // such a reused one is resent once, counted (the line above); the others opened a connection for this request
        assertTrue(r.retries() <= (backend.equals("legacy") ? 1 : 0), "a failure on a new connection is not resent");
        if (endless || path.equals("/too-large-chunked")) {
            for (int i = 0; i < 100 && faults.cutOff(path) == cutBefore; i++) {
                Thread.sleep(20); // the server's next write finds the connection closed
            }
            assertEquals(1, faults.cutOff(path) - cutBefore, "the client closed the endless reply");
        }
    }

    /**
     * A request whose reused connection is reset or closed before any byte is resent once on a new connection, which
     * fails the same way: both attempts reached the server, and the log says so ({@code retries} 1). One whose reply
     * came, unreadable, is not resent.
     */
    @ParameterizedTest(name = "{0} {1} on a reused connection")
    @MethodSource("onAReusedConnection")
    void aFailureOnAReusedConnectionIsResentOnlyWhenNoByteCame(
            String backend, String path, String expected, int retries) throws Exception {
        int before = faults.requests(path);
        Reply r = afterOk(backend, faults.base(), path);
        assertEquals(expected, r.errorLabel(), backend + " " + path);
        assertEquals(retries, r.retries(), "resends");
        assertEquals(1 + r.retries(), faults.requests(path) - before, "the server saw each attempt logged, once");
    }

    static Stream<Arguments> onAReusedConnection() {
        return backends()
                .flatMap(b -> Stream.of(
                        Arguments.of(b, "/reset", "reset", 1),
                        Arguments.of(b, "/close", "closed-before-any-byte", 1),
                        Arguments.of(b, "/big-header", "not-http", 0)));
    }

    /** No backend follows a redirect, to the target or elsewhere: a redirect is logged as its status, with its page. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void aRedirectIsLoggedAsItsStatusAndNeverFollowed(String backend) throws Exception {
        int landed = faults.requests("/landing");
        int elsewhere = faults.otherHostRequests();
        for (String path : List.of("/redirect-same", "/redirect-other")) {
            Reply r = once(backend, faults.base(), path, AMPLE_MS);
            assertEquals("", r.errorLabel(), backend + " " + path);
            assertEquals(302, r.status, backend + " " + path);
            assertEquals("moved", r.body, "the redirect's own page");
        }
        assertEquals(landed, faults.requests("/landing"), "nothing followed to the target's /landing");
        assertEquals(elsewhere, faults.otherHostRequests(), "nothing left the target");
    }

    /** A TLS handshake the server never answers: connected, no reply within the request timeout. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("tlsBackends")
    void aStalledTlsHandshakeIsAReadTimeout(String backend) throws Exception {
        Reply r = once(backend, faults.stalledTls(), "/ok", TIMEOUT_MS);
        assertEquals(ErrorClass.READ_TIMEOUT, r.error(), backend);
    }

    /** The five backends; kernel refuses https before it starts (its TLS cases: {@link #tlsBackends}). */
    static final List<String> BACKENDS = List.of("legacy", "pooled", "dedicated", "netty", "kernel");

    static Stream<String> backends() {
        return BACKENDS.stream();
    }

    static Stream<String> tlsBackends() {
        return BACKENDS.stream().filter(b -> !b.equals("kernel"));
    }

    /** The kernel backend refuses an https target in one line, before any connection: no run on times it cannot stamp. */
    @Test
    void theKernelBackendRefusesHttpsInOneLine() {
        ConfigException e = assertThrows(ConfigException.class, () -> create("kernel", "https://127.0.0.1:1", 700));
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        assertTrue(e.getMessage().startsWith("--backend kernel: https is not supported"), e.getMessage());
    }

    /** What the engine logs: the transport class, else http-<status>. */
    private static String classOf(Reply r) {
        return !r.errorLabel().isEmpty() ? r.errorLabel() : r.status >= 400 ? ErrorClass.http(r.status) : "";
    }

    private static Reply once(String backend, String base) throws Exception {
        return once(backend, base, 700);
    }

    private static Reply once(String backend, String base, int timeoutMs) throws Exception {
        return once(backend, base, "/PHP/index.html", timeoutMs);
    }

    private static Reply once(String backend, String base, String path, int timeoutMs) throws Exception {
        try (Backend b = create(backend, base, timeoutMs)) {
            Reply r = new Reply();
            Backend.Session s = b.startSession();
            Backends.execute(b, s, path, r);
            b.endSession(s);
            return r;
        }
    }

    /** {@code path} requested on the connection an {@code /ok} reply left open. */
    private static Reply afterOk(String backend, String base, String path) throws Exception {
        try (Backend b = create(backend, base, AMPLE_MS)) {
            Backend.Session s = b.startSession();
            Reply ok = new Reply();
            Backends.execute(b, s, "/ok", ok);
            assertEquals(ReplyFaultServer.OK_BODY, ok.body, backend + " /ok: " + ok.errorLabel());
            Reply r = new Reply();
            Backends.execute(b, s, path, r);
            b.endSession(s);
            return r;
        }
    }

    private static Backend create(String backend, String base, int timeoutMs) {
        ClientConfig c = ConfigLoader.load(
                (Path) null,
                Map.of(
                        "client_backend",
                        backend,
                        "client_request_timeout_ms",
                        String.valueOf(timeoutMs),
                        "client_connect_timeout_ms",
                        "700"));
        return Backends.create(c.execution(), base);
    }
}
