package org.rubis.client.backend;

import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.io.BasicHttpClientConnectionManager;
import org.apache.hc.core5.io.CloseMode;

/**
 * One persistent connection per user session (httperf's model and the paper's fix): opened at
 * the session's first request, closed when the session ends. When the server closes it during a
 * think time, the next request reconnects and is logged as a new connection.
 */
public final class DedicatedBackend implements Backend {

    private final HttpClient5Exchange exchange;
    private final int connectTimeoutMs;
    private final int requestTimeoutMs;
    private final boolean downloadImages;

    /** The session's own connection manager (it holds at most one connection) and client. */
    private record Dedicated(BasicHttpClientConnectionManager manager, CloseableHttpClient client, ImageFetcher images) implements Session {}

    private final ClientTls tls;

    public DedicatedBackend(String base, int connectTimeoutMs, int requestTimeoutMs, boolean downloadImages) {
        this(base, connectTimeoutMs, requestTimeoutMs, downloadImages, new ClientTls(true));
    }

    public DedicatedBackend(String base, int connectTimeoutMs, int requestTimeoutMs, boolean downloadImages, ClientTls tls) {
        this.tls = tls;
        this.exchange = new HttpClient5Exchange(base);
        this.connectTimeoutMs = connectTimeoutMs;
        this.requestTimeoutMs = requestTimeoutMs;
        this.downloadImages = downloadImages;
    }

    @Override
    public String name() {
        return "dedicated";
    }

    @Override
    public Session startSession() {
        BasicHttpClientConnectionManager m = BasicHttpClientConnectionManager.create(
                org.apache.hc.core5.http.config.RegistryBuilder.<org.apache.hc.client5.http.ssl.TlsSocketStrategy>create()
                        .register("https", tls.httpClientStrategy()).build());
        m.setConnectionConfig(HttpClient5Exchange.connectionConfig(connectTimeoutMs, requestTimeoutMs));
        m.setSocketConfig(HttpClient5Exchange.socketConfig(requestTimeoutMs));
        CloseableHttpClient c = HttpClient5Exchange.client(m, requestTimeoutMs);
        return new Dedicated(m, c, downloadImages ? new ImageFetcher(p -> exchange.fetch(c, p)) : null);
    }

    @Override
    public void execute(Session session, String path, Reply out) {
        Dedicated d = (Dedicated) session;
        exchange.execute(d.client(), path, out);
        if (d.images() != null) {
            d.images().fetchAfter(out);
        }
    }

    @Override
    public void endSession(Session session) {
        Dedicated d = (Dedicated) session;
        d.client().close(CloseMode.IMMEDIATE);
        d.manager().close(CloseMode.IMMEDIATE);
    }

    @Override
    public void abortInFlight() {
        exchange.abortInFlight();
    }

    @Override
    public void close() {
        // sessions close their own connections
    }
}
