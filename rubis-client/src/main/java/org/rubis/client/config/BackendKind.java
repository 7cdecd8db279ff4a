package org.rubis.client.config;

import java.util.Locale;

/** The connection backends ({@code client_backend}, {@code --backend}); the one list of their names. */
public enum BackendKind {
    /** URL.openStream and the JDK's shared keep-alive cache (the original client). */
    LEGACY,
    /** An Apache HttpClient 5 pool shared by all users. */
    POOLED,
    /** One HttpClient 5 connection per session. */
    DEDICATED,
    /** Netty event loops, one connection per session; no thread per user. */
    NETTY,
    /**
     * Event loops on the kernel's sockets of our own (Linux, http), one connection per session; publishes the
     * kernel's time stamps of each request's bytes.
     */
    KERNEL;

    /** The value as written in properties files and on the command line. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The label, so that picocli's help lists the values users type. */
    @Override
    public String toString() {
        return label();
    }

    /** True when sessions run on the backend's event loops instead of a thread per user. */
    public boolean eventLoops() {
        return this == NETTY || this == KERNEL;
    }

    /**
     * True when the users of one process share connections (the JDK's keep-alive cache, the pool), so that connection
     * counts depend on how many users one process holds; false when each session has its own connection.
     */
    public boolean sharesConnections() {
        return this == LEGACY || this == POOLED;
    }

    /**
     * Connections held at once by {@code sessions} sessions at most: one each when sessions have their own, the
     * pool's bound ({@code poolMax}) at most for the pool; 0 when the backend does not say (the JDK's cache).
     */
    public int connectionsHeld(int sessions, int poolMax) {
        return switch (this) {
            case DEDICATED, NETTY, KERNEL -> sessions;
            case POOLED -> Math.min(sessions, poolMax);
            case LEGACY -> 0;
        };
    }
}
