package org.rubis.client.config;

import java.util.Locale;

/** The embedded server's concurrency model ({@code server_model}, {@code --server-model}). */
public enum ServerModel {
    /** Event loops (the default). */
    EVENT,
    /** A pool of worker threads, one connection each (Apache prefork's model). */
    PREFORK;

    /** The value as written in properties files and on the command line. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The label, so that picocli's help lists the values users type. */
    @Override
    public String toString() {
        return label();
    }
}
