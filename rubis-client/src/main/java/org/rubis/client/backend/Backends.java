package org.rubis.client.backend;

import org.rubis.client.config.ClientConfig;

/** Creates the backend named by {@code client_backend} / {@code --backend}: the one place a backend plugs in. */
public final class Backends {

    private Backends() {}

    public static Backend create(ClientConfig.Execution e, String base) {
        ClientTls tls = new ClientTls(e.tlsResumption());
        return switch (e.backend()) {
            case LEGACY -> {
                LegacyBackend.jdkSettings(e.httpKeepAlive(), e.httpMaxConnections());
                yield new LegacyBackend(base, e.connectTimeoutMs(), e.requestTimeoutMs(), e.downloadImages(), tls);
            }
            case POOLED -> new PooledBackend(base, e.connectTimeoutMs(), e.requestTimeoutMs(), e.poolMax(), e.downloadImages(), tls);
            case DEDICATED -> new DedicatedBackend(base, e.connectTimeoutMs(), e.requestTimeoutMs(), e.downloadImages(), tls);
            case NETTY -> new NettyBackend(base, e.connectTimeoutMs(), e.requestTimeoutMs(), e.downloadImages(),
                    ClientTls.isHttps(base) ? tls : null);
        };
    }
}
