package org.rubis.client.backend;

import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.io.CloseMode;
import org.rubis.client.config.ClientConfig;

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

    /**
     * The backend for {@code base} as {@code e} configures it: at most {@code client_pool_max} connections,
     * HttpClient's stale check only when {@code client_http_stale_check_ms} asks for it.
     */
    PooledBackend(ClientConfig.Execution e, String base) {
        this.exchange = new HttpClient5Exchange(base, e.httpStaleCheckMs(), e.requestTimeoutMs());
        this.pool = PoolingHttpClientConnectionManagerBuilder.create()
                .setTlsSocketStrategy(new ClientTls(e.tlsResumption()).httpClientStrategy())
                .setConnectionFactory(HttpClient5Exchange.connections(Http1Config.DEFAULT))
                .setMaxConnTotal(e.poolMax())
                .setMaxConnPerRoute(e.poolMax())
                .setDefaultConnectionConfig(exchange.connectionConfig(e.connectTimeoutMs(), e.requestTimeoutMs()))
                .setDefaultSocketConfig(HttpClient5Exchange.socketConfig(e.requestTimeoutMs()))
                .build();
        this.client = HttpClient5Exchange.client(pool, e.requestTimeoutMs());
        this.images = e.downloadImages() ? new ImageFetcher(p -> exchange.fetch(client, p)) : null;
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
        exchange.close();
    }
}
