package org.rubis.client.backend;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.io.BasicHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.DefaultHttpClientConnectionOperator;
import org.apache.hc.client5.http.impl.io.ManagedHttpClientConnectionFactory;
import org.apache.hc.client5.http.impl.routing.DefaultRoutePlanner;
import org.apache.hc.client5.http.io.HttpClientConnectionOperator;
import org.apache.hc.client5.http.io.ManagedHttpClientConnection;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.config.RegistryBuilder;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.TimeValue;
import org.rubis.client.config.ClientConfig;

/**
 * One persistent connection per user session (httperf's model and the paper's fix): opened at
 * the session's first request, closed when the session ends. When the server closes it during a
 * think time, the next request reconnects and is logged as a new connection: found failed when the
 * request is sent ({@link StaleConnectionRetry}) until the first such resend shows how long the server
 * keeps idle connections, then checked in the prepare lead and replaced before the send mark.
 *
 * <p>All sessions share one HttpClient; each session's own small connection manager, handed to the
 * client as the request's user token ({@link SessionConnections}), holds its one connection. An
 * idle user costs its manager and its connection (with 1 KB I/O buffers), not a whole client.
 */
public final class DedicatedBackend implements BlockingBackend, PreparingBackend {

    /**
     * I/O buffer size of each connection. HttpClient keeps three of this size per connection (input,
     * line and output buffers), so it is most of an idle user's heap: 1 KB holds a request and a
     * response's head, and body reads larger than 512 bytes bypass the input buffer anyway.
     */
    static final int BUFFER_BYTES = 1024;

    private static final String SOURCE_ADDRESS = "rubis.source-address";

    private final HttpClient5Exchange exchange;
    private final HttpClientConnectionOperator operator;
    private final ManagedHttpClientConnectionFactory connections;
    private final ConnectionConfig connectionConfig;
    private final SocketConfig socketConfig;
    private final CloseableHttpClient client;
    private final SourceAddresses sources;
    private final SourcePortSockets sockets = new SourcePortSockets();
    private final boolean downloadImages;
    /**
     * Nine tenths of the shortest idle time after which the server was found to have closed a session's connection (a
     * request resent by {@link StaleConnectionRetry}): from then on, a connection idle this long is checked in the
     * prepare lead. Unknown (no check) until the first such resend.
     */
    private final AtomicLong staleAfterNanos = new AtomicLong(Long.MAX_VALUE);
    /** Connections found closed by the server in the prepare lead, replaced before their request's send mark. */
    private final LongAdder staleFound = new LongAdder();

    /**
     * The prepare lead: 2 ms, not netty's 1, because the check of an idle connection ({@link #prepare}) may wait up to 1 ms
     * on a live one before the request's instant.
     */
    static final long LEAD_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    /** A session's own connection manager (its state token) and source address. */
    private static final class Dedicated implements Session {
        BasicHttpClientConnectionManager manager;
        final InetAddress source;
        ImageFetcher images;
        /**
         * The session's last connection, as its manager made it; dropped once closed, so that a closed one's buffers are
         * not kept through a think time. Null or closed: the next request opens a new connection.
         */
        ManagedHttpClientConnection conn;
        /** A socket made by {@link #prepare} for the next request's connect, or null. */
        Socket prepared;
        /** {@link System#nanoTime()} at the end of the session's last request: how long its connection has been idle. */
        long idleSinceNano;

        Dedicated(InetAddress source) {
            this.source = source;
        }

        /** The next request will open a new connection and none is prepared for it. */
        boolean unprepared() {
            return prepared == null && (conn == null || !conn.isOpen());
        }

        HttpClientContext context() {
            HttpClientContext c = HttpClientContext.create();
            c.setUserToken(manager);
            if (source != null) {
                c.setAttribute(SOURCE_ADDRESS, source);
            }
            return c;
        }
    }

    /**
     * The backend for {@code base} as {@code e} configures it: connections spread over {@code client_source_addresses}
     * loopback source addresses (1: the OS chooses), HttpClient's stale check only when
     * {@code client_http_stale_check_ms} asks for it.
     */
    DedicatedBackend(ClientConfig.Execution e, String base) {
        this.exchange = new HttpClient5Exchange(base, e.httpStaleCheckMs(), e.requestTimeoutMs());
        this.downloadImages = e.downloadImages();
        this.sources = new SourceAddresses(e.sourceAddresses(), URI.create(base).getHost());
        ClientTls tls = new ClientTls(e.tlsResumption());
        int connectTimeoutMs = e.connectTimeoutMs();
        int requestTimeoutMs = e.requestTimeoutMs();
        // sockets that pick their own source port when bound to a source address (SourcePortSockets: the kernel's
        // search is slow)
        this.operator = new DefaultHttpClientConnectionOperator(
                sockets,
                null,
                null,
                RegistryBuilder.<TlsSocketStrategy>create()
                        .register("https", tls.httpClientStrategy())
                        .build());
        this.connections = HttpClient5Exchange.connections(Http1Config.custom()
                .setBufferSize(BUFFER_BYTES)
                .setChunkSizeHint(BUFFER_BYTES)
                .build());
        this.connectionConfig = exchange.connectionConfig(connectTimeoutMs, requestTimeoutMs);
        this.socketConfig = HttpClient5Exchange.socketConfig(requestTimeoutMs);
        this.client = sources.count() > 1
                ? withSourceAddresses(requestTimeoutMs)
                : HttpClient5Exchange.client(new SessionConnections(), requestTimeoutMs);
    }

    /** The same client, with a route planner that binds each session's connection to its source address. */
    private static CloseableHttpClient withSourceAddresses(int requestTimeoutMs) {
        return HttpClient5Exchange.builder(new SessionConnections(), requestTimeoutMs)
                .setRoutePlanner(new DefaultRoutePlanner(null) {
                    @Override
                    protected InetAddress determineLocalAddress(HttpHost firstHop, HttpContext context) {
                        return context.getAttribute(SOURCE_ADDRESS) instanceof InetAddress a ? a : null;
                    }
                })
                .build();
    }

    @Override
    public String name() {
        return "dedicated";
    }

    @Override
    public Session startSession() {
        Dedicated d = new Dedicated(sources.next());
        // the session's manager makes its connections through this factory, so the session knows whether it has one
        // open
        BasicHttpClientConnectionManager m =
                new BasicHttpClientConnectionManager(operator, socket -> d.conn = connections.createConnection(socket));
        m.setConnectionConfig(connectionConfig);
        m.setSocketConfig(socketConfig);
        d.manager = m;
        if (downloadImages) {
            d.images = new ImageFetcher(p -> exchange.fetch(client, p, d.context()));
        }
        return d;
    }

    @Override
    public long prepareLeadNanos() {
        return LEAD_NANOS;
    }

    /**
     * A session whose next request opens a new connection (its first, or after its connection was closed) has something
     * to prepare. So has one whose connection will have been idle, at the request's instant, as long as connections the
     * server closed ({@link #staleAfterNanos}): it is checked in the lead.
     */
    @Override
    public boolean prepares(Session session, long requestNano) {
        Dedicated d = (Dedicated) session;
        return d.unprepared() || staleCheckDue(d, requestNano);
    }

    private boolean staleCheckDue(Dedicated d, long atNano) {
        ManagedHttpClientConnection c = d.conn;
        return d.prepared == null && c != null && c.isOpen() && atNano - d.idleSinceNano >= staleAfterNanos.get();
    }

    /** Connections found closed by the server before their request (tests). */
    public long staleConnectionsFound() {
        return staleFound.sum();
    }

    /**
     * First, a connection idle as long as those the server closed is checked (HttpClient's {@code isStale}: a read of up
     * to 1 ms, at once when the server's FIN is there): closed, it is dropped, so that the request does not fail on it
     * and resend inside its window, its connect unprepared. Then, when the next request opens a new connection, its
     * socket is made and its options set (the socket() and setsockopt calls, about 60 us when they run cold at a few
     * connects a second), so that the request's window holds its connect and the request. No socket (descriptors
     * exhausted): nothing prepared, the request tries itself and fails with its reason.
     */
    @Override
    public void prepare(Session session) {
        Dedicated d = (Dedicated) session;
        if (staleCheckDue(d, System.nanoTime())) {
            boolean stale;
            try {
                stale = d.conn.isStale();
            } catch (IOException | RuntimeException e) {
                stale = true;
            }
            if (stale) {
                staleFound.increment();
                d.manager.closeIdle(TimeValue.ZERO_MILLISECONDS); // through its manager, which forgets it
                d.conn = null;
            }
        }
        if (!d.unprepared()) {
            return;
        }
        d.conn = null;
        try {
            d.prepared = sockets.prepared(socketConfig);
        } catch (IOException | RuntimeException e) {
            d.prepared = null;
        }
    }

    @Override
    public void execute(Session session, String path, Reply out) {
        Dedicated d = (Dedicated) session;
        boolean reused = d.conn != null && d.conn.isOpen();
        Socket prepared = d.prepared;
        if (prepared != null) {
            d.prepared = null;
            SourcePortSockets.handOver(prepared);
        }
        try {
            exchange.execute(client, path, out, d::context);
        } finally {
            if (prepared != null) {
                closeQuietly(SourcePortSockets.takeBack()); // not taken (the request never connected): not left open
            }
        }
        if (out.retries() > 0 && reused) {
            // the server had closed the connection after it was idle about this long (the resend's mark follows the
            // failed
            // attempt within microseconds): from now on, check connections idle 9/10 of it ahead
            long idle = out.sendNano() - d.idleSinceNano;
            staleAfterNanos.accumulateAndGet(idle - idle / 10, Math::min);
        }
        if (d.conn != null && !d.conn.isOpen()) {
            d.conn = null; // closed after this reply (or failed): its buffers go now, not after the think time
        }
        if (d.images != null) {
            d.images.fetchAfter(out);
        }
        d.idleSinceNano = System.nanoTime();
    }

    private static void closeQuietly(Socket s) {
        if (s != null) {
            try {
                s.close();
            } catch (IOException e) {
                // an unconnected socket: nothing to lose
            }
        }
    }

    @Override
    public void endSession(Session session) {
        Dedicated d = (Dedicated) session;
        closeQuietly(d.prepared);
        d.prepared = null;
        d.manager.close(CloseMode.IMMEDIATE);
    }

    @Override
    public void abortInFlight() {
        exchange.abortInFlight();
    }

    @Override
    public void close() {
        client.close(CloseMode.IMMEDIATE);
        exchange.close();
    }
}
