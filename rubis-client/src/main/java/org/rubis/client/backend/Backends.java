package org.rubis.client.backend;

import org.rubis.client.config.BackendKind;
import org.rubis.client.config.ClientConfig;

/** Creates the backend named by {@code client_backend} / {@code --backend}: the one place a backend plugs in. */
public final class Backends {

    private Backends() {}

    public static Backend create(ClientConfig.Execution e, String base) {
        if (e.backend() == BackendKind.LEGACY) {
            jdkSettings(e.httpKeepAlive(), e.httpMaxConnections()); // before anything initialises the JDK's HttpClient
        }
        ClientTls tls = new ClientTls(e.tlsResumption());
        return switch (e.backend()) {
            case LEGACY -> new LegacyBackend(base, e.connectTimeoutMs(), e.requestTimeoutMs(), e.downloadImages(), tls);
            case POOLED -> new PooledBackend(base, e.connectTimeoutMs(), e.requestTimeoutMs(), e.poolMax(), e.downloadImages(), tls, e.httpStaleCheckMs());
            case DEDICATED -> new DedicatedBackend(base, e.connectTimeoutMs(), e.requestTimeoutMs(), e.downloadImages(), tls, e.sourceAddresses(),
                    e.httpStaleCheckMs());
            case NETTY -> new NettyBackend(base, e.connectTimeoutMs(), e.requestTimeoutMs(), e.downloadImages(),
                    ClientTls.isHttps(base) ? tls : null, e.busyPoll(), e.sourceAddresses());
        };
    }

    /**
     * One request, the caller waiting for its reply, whatever the backend's protocol: how benchmarks and tests drive
     * every backend alike. A run never does: its execution model drives each protocol its own way.
     */
    public static void execute(Backend backend, Backend.Session session, String path, Reply out) {
        if (backend instanceof BlockingBackend b) {
            b.execute(session, path, out);
        } else {
            ((EventLoopBackend) backend).sendAndWait(session, path, out);
        }
    }

    /**
     * The legacy backend's JDK keep-alive cache policy ({@code client_http_keepalive},
     * {@code client_http_max_connections}); null keeps the JDK's default. The JDK reads these once,
     * when its HttpClient class initialises, so they are set here, only when legacy is chosen, and
     * before anything (LegacyBackend's own static block included) loads that class.
     */
    private static void jdkSettings(Boolean keepAlive, Integer maxConnections) {
        if (keepAlive != null) {
            System.setProperty("http.keepAlive", String.valueOf(keepAlive));
        }
        if (maxConnections != null) {
            System.setProperty("http.maxConnections", String.valueOf(maxConnections));
        }
    }
}
