package org.rubis.client.config;

import java.util.Locale;

/** What a hybrid arrival does when {@code workload_max_concurrent_sessions} are running ({@code workload_cap_policy}). */
public enum CapPolicy {
    /** Wait for a free slot (the delay is counted). */
    DELAY,
    /** Do not start the session (logged as dropped). */
    DROP;

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
