package org.rubis.client.config;

import java.util.Locale;

/** How sessions arrive: the original's closed population, or sessions started against the clock. */
public enum Arrivals {
    /** N emulated users running sessions back to back (the original client). */
    CLOSED,
    /** Sessions start at scheduled instants and run to completion, each with its own user. */
    HYBRID;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return label();
    }
}
