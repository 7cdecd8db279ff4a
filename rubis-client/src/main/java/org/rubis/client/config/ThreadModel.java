package org.rubis.client.config;

import java.util.Locale;

/** The thread each emulated user runs on with a blocking backend ({@code client_threads}, {@code --threads}). */
public enum ThreadModel {
    PLATFORM,
    VIRTUAL;

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
