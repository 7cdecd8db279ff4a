package org.rubis.client.arrival;

import java.util.Locale;

/** Evenly spaced arrivals: one session every 1/rate seconds, the first at time 0. */
public final class DeterministicArrivals implements SessionArrivals {

    private final double gapNs;
    private long k;

    public DeterministicArrivals(double ratePerSecond) {
        this.gapNs = 1e9 / ratePerSecond;
    }

    @Override
    public long next() {
        return (long) (k++ * gapNs);
    }

    @Override
    public String describe() {
        return String.format(
                Locale.ROOT, "deterministic inter-arrivals of %.3f ms (%.3f sessions/s)", gapNs / 1e6, 1e9 / gapNs);
    }
}
