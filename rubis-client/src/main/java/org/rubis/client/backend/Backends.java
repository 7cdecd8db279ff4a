package org.rubis.client.backend;

import org.rubis.client.config.ClientConfig;

/** Creates the backend named by {@code client_backend} / {@code --backend}: the one place a backend plugs in. */
public final class Backends {

    private Backends() {}

    /**
     * The backend {@code e} names, for requests to {@code base}, configured by {@code e}; it speaks the protocol of
     * {@code e.model()}: an {@link EventLoopBackend} for event loops, a {@link BlockingBackend} for threads.
     */
    public static Backend create(ClientConfig.Execution e, String base) {
        return switch (e.backend()) {
            case LEGACY -> {
                // before anything initialises the JDK's HttpClient
                jdkSettings(e.httpKeepAlive(), e.httpMaxConnections());
                yield new LegacyBackend(e, base);
            }
            case POOLED -> new PooledBackend(e, base);
            case DEDICATED -> new DedicatedBackend(e, base);
            case NETTY -> new NettyBackend(e, base);
            case KERNEL -> new KernelBackend(e, base);
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
     * {@code client_http_max_connections}; null keeps the JDK's default) and its longest reply head. The JDK
     * reads these once,
     * when its HttpClient class initialises, so they are set here, only when legacy is chosen, and
     * before anything (LegacyBackend's own static block included) loads that class.
     */
    private static void jdkSettings(Boolean keepAlive, Integer maxConnections) {
        if (System.getProperty("jdk.http.maxHeaderSize") == null) {
            // a reply head longer than the other backends read is not-http on legacy too (the JDK's default is 384 KiB)
            System.setProperty("jdk.http.maxHeaderSize", String.valueOf(HttpReplyParser.MAX_HEAD));
        }
        if (keepAlive != null) {
            System.setProperty("http.keepAlive", String.valueOf(keepAlive));
        }
        if (maxConnections != null) {
            System.setProperty("http.maxConnections", String.valueOf(maxConnections));
        }
    }
}
