package org.rubis.client.backend;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.net.DatagramSocket;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URL;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.WeakHashMap;
import javax.net.ssl.HttpsURLConnection;
import org.rubis.client.config.ClientConfig;
import org.rubis.format.run.ErrorClass;

/**
 * The original client's policy: {@code URL.openStream()} (here {@code openConnection()} followed
 * by {@code getInputStream()}, which is what openStream does), read fully, close. The JDK's
 * keep-alive cache then decides which connection carries each request and shares connections
 * among users ({@code http.keepAlive}, {@code http.maxConnections} tune it).
 *
 * <p>To log which connection was used, the connection's socket is read by reflection from the JDK
 * internals (opened to us by the jar's {@code Add-Opens}); without access the id stays empty.
 *
 * <p>Where it differs from the JDK's defaults, it behaves as the other backends do: no redirect is followed (a
 * redirect is logged as its status, with its page); a request is never resent by the JDK (which resends silently,
 * once, any request whose reply failed before its status line, on a new connection, even when the request had opened
 * the connection itself): the connection is opened first, then marked "do not resend" through the same internals, and
 * {@link StaleConnectionRetry} resends, counted, only what the other backends resend; the whole reply must come within
 * the request timeout ({@link ReplyWatchdog}: the JDK's is per read); a {@code Content-Length} that is not a length
 * is {@code not-http}; a page longer than {@link Backend#MAX_PAGE_BYTES} is {@code too-large}. Over https the same
 * internals are reached through the wrapper's delegate ({@link JdkHttpConnection}); where they cannot be reached the
 * JDK's own resend stays possible, and is counted as a retry.
 */
public final class LegacyBackend implements BlockingBackend {

    private static final Session NO_STATE = new Session() {};
    private static final Field HTTP; // sun.net.www.protocol.http.HttpURLConnection.http
    private static final Field SERVER_SOCKET; // sun.net.NetworkClient.serverSocket
    private static final Field CACHED; // sun.net.www.http.HttpClient.cachedHttpClient
    private static final Field READ_RETRIED; // sun.net.www.http.HttpClient.failedOnce: no resend after a failed read
    private static final Field WRITE_RETRIED; // sun.net.www.protocol.http.HttpURLConnection.failedOnce: nor a write

    static {
        Field http = null;
        Field socket = null;
        Field cached = null;
        Field readRetried = null;
        Field writeRetried = null;
        try {
            http = Class.forName("sun.net.www.protocol.http.HttpURLConnection").getDeclaredField("http");
            socket = Class.forName("sun.net.NetworkClient").getDeclaredField("serverSocket");
            cached = Class.forName("sun.net.www.http.HttpClient").getDeclaredField("cachedHttpClient");
            http.setAccessible(true);
            socket.setAccessible(true);
            cached.setAccessible(true);
            readRetried = Class.forName("sun.net.www.http.HttpClient").getDeclaredField("failedOnce");
            writeRetried =
                    Class.forName("sun.net.www.protocol.http.HttpURLConnection").getDeclaredField("failedOnce");
            readRetried.setAccessible(true);
            writeRetried.setAccessible(true);
        } catch (ReflectiveOperationException | RuntimeException e) {
            http = null;
        }
        HTTP = http;
        SERVER_SOCKET = socket;
        CACHED = cached;
        READ_RETRIED = http == null ? null : readRetried;
        WRITE_RETRIED = http == null ? null : writeRetried;
    }

    private final String base;
    private final int connectTimeoutMs;
    private final int readTimeoutMs;
    private final ImageFetcher images;
    private final ReplyBuffers buffers = new ReplyBuffers();
    /** The local address of this client's connections to the target, for sockets the JDK has closed already. */
    private volatile String localAddress;
    /** The JDK's connection objects seen before: one seen again but not marked cached was reopened (a retry). */
    private final Set<Object> seen = Collections.newSetFromMap(Collections.synchronizedMap(new WeakHashMap<>()));

    private volatile boolean aborting;
    private final LegacyAbort abort = new LegacyAbort();
    /** The requests in flight, each cut (without a resend) when its whole reply has not come within the timeout. */
    private final ReplyWatchdog<HttpURLConnection> inFlight;

    private final ClientTls tls;
    private final RequestHeaders headers;

    /**
     * The backend for {@code base} as {@code e} configures it. The JDK's keep-alive settings are set before
     * this class loads ({@link Backends#create}).
     */
    LegacyBackend(ClientConfig.Execution e, String base) {
        this.base = base;
        this.tls = new ClientTls(e.tlsResumption());
        this.headers = new RequestHeaders(base);
        this.connectTimeoutMs = e.connectTimeoutMs();
        this.readTimeoutMs = e.requestTimeoutMs();
        this.images = e.downloadImages() ? new ImageFetcher(this::fetchImage) : null;
        this.inFlight = new ReplyWatchdog<>("legacy", readTimeoutMs, c -> abort.abort(List.of(c)));
    }

    @Override
    public String name() {
        return "legacy";
    }

    @Override
    public Session startSession() {
        return NO_STATE;
    }

    @Override
    public void execute(Session session, String path, Reply out) {
        out.reset();
        while (!attempt(path, out)) {
            out.retry();
        }
        if (images != null && !out.failed()) {
            images.fetchAfter(out);
        }
    }

    /**
     * One attempt; false when it failed in a way {@link StaleConnectionRetry} resends (no response byte on a reused
     * connection). The send mark is taken before the connection is opened (or taken from the JDK's cache), the JDK's
     * own resend switched off on it, then the request written ({@code getResponseCode}).
     */
    private boolean attempt(String path, Reply out) {
        boolean connected = false;
        boolean anyByte = false;
        boolean reused = false;
        HttpURLConnection c = null;
        Object jdk = null; // the JDK's connection object that carries the request, once connected
        try {
            c = open(URI.create(base + path).toURL()); // no I/O yet: openConnection only builds
            inFlight.add(c, out);
            if (aborting) {
                throw new InterruptedIOException("aborted");
            }
            out.markSend();
            c.connect(); // a connection from the JDK's cache, or a new one
            jdk = held(c);
            reused = noResend(c, jdk);
            int status = c.getResponseCode(); // sends, reads the status line and headers
            out.markFirstByte(System.nanoTime());
            connected = true;
            anyByte = true;
            ErrorClass unreadable = unreadable(c, status);
            if (unreadable != null) {
                c.disconnect(); // the rest unread: the connection is not reused
                out.fail(unreadable);
                if (jdk != null) {
                    name(jdk, out);
                    out.newConnection = !reused;
                }
                return true;
            }
            // 4xx/5xx: the JDK throws from getInputStream(); the body is on the error stream.
            InputStream stream = status >= 400 ? c.getErrorStream() : c.getInputStream();
            if (stream == null) {
                out.markLastByteAtHead();
                out.body = "";
                identify(c, out);
            } else {
                try (InputStream in = stream) {
                    out.body = buffers.readAll(in, out, true); // the last byte marked at the end of the stream
                    identify(c, out); // after the measurement, before close() returns the connection to the cache
                }
            }
            out.status = status;
            long announced = c.getContentLengthLong();
            if (announced >= 0 && out.bytes < announced) {
                // The JDK's stream ends quietly at a close before Content-Length: that is a truncated body.
                out.fail(ErrorClass.TRUNCATED_BODY);
            }
        } catch (IOException | RuntimeException e) {
            ErrorClass error = aborting
                    ? ErrorClass.ABORTED
                    : c != null && inFlight.expired(c)
                            ? ErrorClass.READ_TIMEOUT
                            : e instanceof PageTooLarge ? ErrorClass.TOO_LARGE : ErrorClass.of(e, connected, anyByte);
            if (!aborting && StaleConnectionRetry.applies(out, reused, anyByte, error)) {
                return false;
            }
            out.fail(error);
            if (jdk != null) {
                // It reached the server on that connection and failed there: named as the server's log names it.
                name(jdk, out);
                out.newConnection = !reused;
            }
        } finally {
            if (c != null) {
                inFlight.remove(c);
            }
        }
        return true;
    }

    /**
     * Marks the connection {@code c} just opened or took from the cache so that the JDK does not send its request
     * again after a failed write or read; returns whether it came from the JDK's cache (a reused connection).
     */
    private static boolean noResend(HttpURLConnection c, Object client) {
        if (READ_RETRIED == null || client == null) {
            return false;
        }
        try {
            WRITE_RETRIED.setBoolean(JdkHttpConnection.of(c), true);
            READ_RETRIED.setBoolean(client, true);
            return CACHED.getBoolean(client);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false; // internals not reachable: the JDK may resend, counted by identify()
        }
    }

    /**
     * Why a reply whose head was read cannot be read as the other backends read it, or null: no status line
     * ({@code not-http}), a {@code Content-Length} that is not a length (up to 18 digits; the JDK would read to the
     * close instead: {@code not-http}, as in {@link HttpReplyParser}), or a page announced longer than the maximum.
     */
    private static ErrorClass unreadable(HttpURLConnection c, int status) {
        if (status < 0) {
            return ErrorClass.NOT_HTTP;
        }
        String length = c.getHeaderField("Content-Length");
        if (length == null) {
            return null;
        }
        if (length.isEmpty() || length.length() > 18 || !length.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
            return ErrorClass.NOT_HTTP;
        }
        return Long.parseLong(length) > Backend.MAX_PAGE_BYTES ? ErrorClass.TOO_LARGE : null;
    }

    /**
     * One image: in the in-flight set like a page, so that a stop ends it at once (not after the request
     * timeout); a 4xx/5xx image is read from its error stream and counted, as HttpClient 5 and netty count it.
     */
    private long fetchImage(String path) throws IOException {
        if (aborting) {
            throw new ImageFetcher.Aborted();
        }
        HttpURLConnection c = open(URI.create(base + path).toURL());
        inFlight.addImage(c);
        try {
            if (aborting) { // the stop's disconnects ran before this one was in the set
                throw new ImageFetcher.Aborted();
            }
            InputStream in = c.getResponseCode() >= 400 ? c.getErrorStream() : c.getInputStream();
            if (in == null) {
                return 0;
            }
            try (in) {
                return in.transferTo(OutputStream.nullOutputStream());
            }
        } catch (IOException e) {
            if (aborting) {
                throw new ImageFetcher.Aborted();
            }
            if (inFlight.expired(c)) { // cut at its deadline: its read failed as the connection closed
                throw new SocketTimeoutException("the image did not come within the request timeout");
            }
            throw e;
        } finally {
            inFlight.remove(c);
        }
    }

    /** What openStream() does, plus our timeouts and headers (and the TLS policy for https). */
    private HttpURLConnection open(URL url) throws IOException {
        HttpURLConnection c = (HttpURLConnection) url.openConnection();
        if (c instanceof HttpsURLConnection https) {
            https.setSSLSocketFactory(tls.socketFactory());
            https.setHostnameVerifier((host, session) -> true);
        }
        c.setInstanceFollowRedirects(false); // a redirect is logged as its status: never followed, anywhere
        c.setConnectTimeout(connectTimeoutMs);
        c.setReadTimeout(readTimeoutMs);
        headers.forEach((name, value) -> {
            if (!RequestHeaders.JDK_SUPPLIED.contains(name)) {
                c.setRequestProperty(name, value); // the JDK adds Host and Connection itself, in the same order
            }
        });
        return c;
    }

    /** The JDK's connection object behind {@code c} once connected (its {@code http} field), or null. */
    private static Object held(HttpURLConnection c) {
        if (HTTP == null) {
            return null;
        }
        try {
            return HTTP.get(JdkHttpConnection.of(c));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** Names the connection of the JDK's connection object {@code client}: its socket's serial and address:port. */
    private void name(Object client, Reply out) {
        try {
            Socket s = (Socket) SERVER_SOCKET.get(client);
            if (s != null) {
                out.connection = ConnectionIds.of(s); // a socket is one TCP connection
                out.localAddress = localAddress(s) + ":" + s.getLocalPort(); // the port survives close()
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // leave it unnamed
        }
    }

    private void identify(HttpURLConnection c, Reply out) {
        if (HTTP == null) {
            return;
        }
        try {
            Object client = HTTP.get(JdkHttpConnection.of(c));
            if (client == null) {
                return;
            }
            name(client, out);
            out.newConnection = !CACHED.getBoolean(client);
            if (!seen.add(client) && out.newConnection) {
                // A connection object taken from the JDK's cache but no longer marked cached: the JDK
                // resent the request on a new socket after the cached one failed without a response
                // (its own StaleConnectionRetry). Its window includes the failed attempt (an immediate
                // EOF or reset), since the JDK does it inside getInputStream().
                out.retriedInsideWindow();
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // leave the id empty
        }
    }

    /**
     * The socket's local address. A socket the JDK closed when the response said {@code Connection:
     * close} (Apache's 100th keep-alive request) reports the wildcard address, which breaks the join
     * with the server's log; every connection to the target leaves from the same address (the
     * route's source), so the one seen on an open socket, or the route's source found once by
     * connecting a UDP socket (which sends nothing), names it.
     */
    private String localAddress(Socket s) {
        InetAddress local = s.getLocalAddress();
        if (!local.isAnyLocalAddress()) {
            String a = local.getHostAddress();
            localAddress = a;
            return a;
        }
        String known = localAddress;
        if (known == null && s.getInetAddress() != null) {
            try (DatagramSocket probe = new DatagramSocket()) {
                probe.connect(s.getInetAddress(), s.getPort());
                known = probe.getLocalAddress().getHostAddress();
                localAddress = known;
            } catch (IOException | RuntimeException e) {
                known = local.getHostAddress();
            }
        }
        return known == null ? local.getHostAddress() : known;
    }

    @Override
    public void endSession(Session session) {
        // the JDK's cache owns the connections
    }

    /** Closes the sockets of the requests in flight, which ends their blocking reads ({@link LegacyAbort}: without a resend). */
    @Override
    public void abortInFlight() {
        aborting = true;
        abort.abort(inFlight.inFlight());
    }

    /** Tests: the abort, to pause it where a preempted stopping thread would. */
    LegacyAbort abort() {
        return abort;
    }

    @Override
    public void close() {
        inFlight.close(); // the JDK's cache owns the connections
    }
}
