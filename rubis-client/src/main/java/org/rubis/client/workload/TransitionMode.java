package org.rubis.client.workload;

import java.util.Locale;

/** How the sampler treats columns whose probabilities do not sum to 1. */
public enum TransitionMode {
    /**
     * The original's cumulative walk: mass below 1 means "stay in the same state", mass above 1
     * is never reached (later rows, such as End of Session, lose probability).
     */
    COMPATIBLE,
    /** Each column divided by its sum before sampling. */
    NORMALIZE;

    /** The value as written in properties files and on the command line. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
