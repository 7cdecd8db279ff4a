package org.rubis.client.config;

import java.util.Locale;

/** The distribution of hybrid inter-arrival times at a given rate ({@code workload_interarrival_distribution}). */
public enum Interarrival {
    /** Poisson arrivals. */
    EXPONENTIAL,
    /** One session every 1/rate seconds. */
    DETERMINISTIC;

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
