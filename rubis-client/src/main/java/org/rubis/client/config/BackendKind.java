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
    NETTY;

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
        return this == NETTY;
    }
}
