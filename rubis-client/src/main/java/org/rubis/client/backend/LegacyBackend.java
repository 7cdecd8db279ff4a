package org.rubis.client.backend;

import org.rubis.format.ErrorClass;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.net.HttpURLConnection;
import java.net.Socket;
import java.net.URI;
import java.net.URL;
import org.rubis.client.config.ClientConfig;

/**
 * The original client's policy: {@code URL.openStream()} (here {@code openConnection()} followed
 * by {@code getInputStream()}, which is what openStream does), read fully, close. The JDK's
 * keep-alive cache then decides which connection carries each request and shares connections
 * among users ({@code http.keepAlive}, {@code http.maxConnections} tune it).
 *
 * <p>To log which connection was used, the connection's socket is read by reflection from the JDK
 * internals (opened to us by the jar's {@code Add-Opens}); without access the id stays empty.
 *
 * <p>Unlike the JDK's default, no redirect is followed (a redirect is logged as its status, with its page), as on the
 * other backends.
 */
public final class LegacyBackend implements BlockingBackend {

    private static final Session NO_STATE = new Session() {};
    private static final Field HTTP;           // sun.net.www.protocol.http.HttpURLConnection.http
    private static final Field SERVER_SOCKET;  // sun.net.NetworkClient.serverSocket
    private static final Field CACHED;         // sun.net.www.http.HttpClient.cachedHttpClient

    static {
        Field http = null;
        Field socket = null;
        Field cached = null;
        try {
            http = Class.forName("sun.net.www.protocol.http.HttpURLConnection").getDeclaredField("http");
            socket = Class.forName("sun.net.NetworkClient").getDeclaredField("serverSocket");
            cached = Class.forName("sun.net.www.http.HttpClient").getDeclaredField("cachedHttpClient");
            http.setAccessible(true);
            socket.setAccessible(true);
            cached.setAccessible(true);
        } catch (ReflectiveOperationException | RuntimeException e) {
            http = null;
        }
        HTTP = http;
        SERVER_SOCKET = socket;
        CACHED = cached;
    }

    private final String base;
    private final int connectTimeoutMs;
    private final int readTimeoutMs;
    private final ImageFetcher images;
    private final ReplyBuffers buffers = new ReplyBuffers();
    /** The local address of this client's connections to the target, for sockets the JDK has closed already. */
    private volatile String localAddress;
    /** The JDK's connection objects seen before: one seen again but not marked cached was reopened (a retry). */
    private final java.util.Set<Object> seen = java.util.Collections.newSetFromMap(
            java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>()));
    private final java.util.Set<HttpURLConnection> inFlight = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile boolean aborting;
    private final LegacyAbort abort = new LegacyAbort();

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
        boolean connected = false;
        boolean anyByte = false;
        HttpURLConnection c = null;
        try {
            c = open(URI.create(base + path).toURL()); // no I/O yet: openConnection only builds
            inFlight.add(c);
            if (aborting) {
                throw new java.io.InterruptedIOException("aborted");
            }
            out.markSend();
            int status = c.getResponseCode();        // sends, reads the status line and headers
            out.markFirstByte(System.nanoTime());
            connected = true;
            anyByte = true;
            if (status < 0) {
                out.fail(ErrorClass.NOT_HTTP);
                c.disconnect();
                return;
            }
            // 4xx/5xx: the JDK throws from getInputStream(); the body is on the error stream.
            InputStream stream = status >= 400 ? c.getErrorStream() : c.getInputStream();
            if (stream == null) {
                out.markLastByteAtHead();
                out.body = "";
            } else {
                try (InputStream in = stream) {
                    out.body = buffers.readAll(in, out, true); // the last byte marked at the end of the stream
                    identify(c, out);                    // after the measurement, before close() returns the connection to the cache
                }
            }
            out.status = status;
            long announced = c.getContentLengthLong();
            if (announced >= 0 && out.bytes < announced) {
                // The JDK's stream ends quietly at a close before Content-Length: that is a truncated body.
                out.fail(ErrorClass.TRUNCATED_BODY);
                return;
            }
        } catch (IOException | RuntimeException e) {
            out.fail(aborting ? ErrorClass.ABORTED : ErrorClass.of(e, connected, anyByte));
            return;
        } finally {
            if (c != null) {
                inFlight.remove(c);
            }
        }
        if (images != null) {
            images.fetchAfter(out);
        }
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
        inFlight.add(c);
        try {
            if (aborting) { // the stop's disconnects ran before this one was in the set
                throw new ImageFetcher.Aborted();
            }
            InputStream in = c.getResponseCode() >= 400 ? c.getErrorStream() : c.getInputStream();
            if (in == null) {
                return 0;
            }
            try (in) {
                return in.transferTo(java.io.OutputStream.nullOutputStream());
            }
        } catch (IOException e) {
            if (aborting) {
                throw new ImageFetcher.Aborted();
            }
            throw e;
        } finally {
            inFlight.remove(c);
        }
    }

    /** What openStream() does, plus our timeouts and headers (and the TLS policy for https). */
    private HttpURLConnection open(URL url) throws IOException {
        HttpURLConnection c = (HttpURLConnection) url.openConnection();
        if (c instanceof javax.net.ssl.HttpsURLConnection https) {
            https.setSSLSocketFactory(tls.socketFactory());
            https.setHostnameVerifier((host, session) -> true);
        }
        c.setInstanceFollowRedirects(false); // a redirect is logged as its status: never followed, off the target or on it
        c.setConnectTimeout(connectTimeoutMs);
        c.setReadTimeout(readTimeoutMs);
        headers.forEach((name, value) -> {
            if (!RequestHeaders.JDK_SUPPLIED.contains(name)) {
                c.setRequestProperty(name, value); // the JDK adds Host and Connection itself, in the same order
            }
        });
        return c;
    }

    private void identify(HttpURLConnection c, Reply out) {
        if (HTTP == null) {
            return;
        }
        try {
            Object client = HTTP.get(c);
            if (client == null) {
                return;
            }
            Socket s = (Socket) SERVER_SOCKET.get(client);
            if (s != null) {
                out.connectionId = localAddress(s) + ":" + s.getLocalPort(); // the port survives close()
            }
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
        java.net.InetAddress local = s.getLocalAddress();
        if (!local.isAnyLocalAddress()) {
            String a = local.getHostAddress();
            localAddress = a;
            return a;
        }
        String known = localAddress;
        if (known == null && s.getInetAddress() != null) {
            try (java.net.DatagramSocket probe = new java.net.DatagramSocket()) {
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
        abort.abort(inFlight);
    }

    /** Tests: the abort, to pause it where a preempted stopping thread would. */
    LegacyAbort abort() {
        return abort;
    }

    @Override
    public void close() {
        // nothing of ours to close
    }
}
