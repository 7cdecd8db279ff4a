package org.rubis.lab.reproduce;

import java.util.Locale;

/**
 * How large a reproduction's runs are. Full scale is the published-figure runs; quick keeps the shapes that hold at
 * small N in a few minutes; smoke is the fewest and shortest runs that still take every experiment end to end (runs,
 * analysis, plots, verdict), for checking the tool itself in about a minute: its verdicts are not evidence.
 */
public enum Scale {
    SMOKE,
    QUICK,
    FULL;

    /** As written in reproduction.json's {@code scale} and in progress lines. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
