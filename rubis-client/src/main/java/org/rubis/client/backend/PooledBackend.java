package org.rubis.client.backend;

import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.io.CloseMode;

/**
 * One Apache HttpClient 5 connection pool shared by all emulated users: at most
 * {@code poolMax} connections, a request waits for a free one. Like the JDK's cache it shares
 * connections across users, but with an explicit bound; the wait counts in the response time.
 */
public final class PooledBackend implements BlockingBackend {

    private static final Session NO_STATE = new Session() {};
    private final HttpClient5Exchange exchange;
    private final PoolingHttpClientConnectionManager pool;
    private final CloseableHttpClient client;
    private final ImageFetcher images;

    public PooledBackend(String base, int connectTimeoutMs, int requestTimeoutMs, int poolMax, boolean downloadImages) {
        this(base, connectTimeoutMs, requestTimeoutMs, poolMax, downloadImages, new ClientTls(true));
    }

    public PooledBackend(String base, int connectTimeoutMs, int requestTimeoutMs, int poolMax, boolean downloadImages, ClientTls tls) {
        this(base, connectTimeoutMs, requestTimeoutMs, poolMax, downloadImages, tls, 0);
    }

    /** @param staleCheckMs HttpClient's stale check before reusing a connection idle this long; 0 = none */
    public PooledBackend(String base, int connectTimeoutMs, int requestTimeoutMs, int poolMax, boolean downloadImages, ClientTls tls,
            int staleCheckMs) {
        this.exchange = new HttpClient5Exchange(base, staleCheckMs);
        this.pool = PoolingHttpClientConnectionManagerBuilder.create()
                .setTlsSocketStrategy(tls.httpClientStrategy())
                .setConnectionFactory(HttpClient5Exchange.connections(org.apache.hc.core5.http.config.Http1Config.DEFAULT))
                .setMaxConnTotal(poolMax)
                .setMaxConnPerRoute(poolMax)
                .setDefaultConnectionConfig(exchange.connectionConfig(connectTimeoutMs, requestTimeoutMs))
                .setDefaultSocketConfig(HttpClient5Exchange.socketConfig(requestTimeoutMs))
                .build();
        this.client = HttpClient5Exchange.client(pool, requestTimeoutMs);
        this.images = downloadImages ? new ImageFetcher(p -> exchange.fetch(client, p)) : null;
    }

    @Override
    public String name() {
        return "pooled";
    }

    @Override
    public Session startSession() {
        return NO_STATE;
    }

    @Override
    public void execute(Session session, String path, Reply out) {
        exchange.execute(client, path, out);
        if (images != null) {
            images.fetchAfter(out);
        }
    }

    @Override
    public void endSession(Session session) {
        // connections belong to the pool
    }

    @Override
    public void abortInFlight() {
        exchange.abortInFlight();
    }

    @Override
    public void close() {
        client.close(CloseMode.GRACEFUL);
        pool.close(CloseMode.GRACEFUL);
    }
}
