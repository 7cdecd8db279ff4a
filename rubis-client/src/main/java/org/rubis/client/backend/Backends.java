package org.rubis.client.backend;

import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ConfigException;

/** Creates the blocking backend named by {@code client_backend} / {@code --backend}. */
public final class Backends {

    private Backends() {}

    public static Backend create(ClientConfig.Execution e, String base) {
        ClientTls tls = new ClientTls(e.tlsResumption());
        return switch (e.backend()) {
            case "legacy" -> new LegacyBackend(base, e.connectTimeoutMs(), e.requestTimeoutMs(), e.downloadImages(), tls);
            case "pooled" -> new PooledBackend(base, e.connectTimeoutMs(), e.requestTimeoutMs(), e.poolMax(), e.downloadImages(), tls);
            case "dedicated" -> new DedicatedBackend(base, e.connectTimeoutMs(), e.requestTimeoutMs(), e.downloadImages(), tls);
            default -> throw new ConfigException("backend " + e.backend() + " has no blocking implementation");
        };
    }
}
