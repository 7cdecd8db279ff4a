package org.rubis.format.stats;

import org.HdrHistogram.Histogram;

/**
 * The one rule for percentiles of recorded times (ns), used by the client's summary, the analysis's report and
 * merge, so that the same log gives the same figures in all of them.
 *
 * <p>Why a rule at all: HdrHistogram's {@code getValueAtPercentile} answers with the highest value equivalent to
 * the bucket the percentile falls in, which can exceed the largest value actually recorded (a p99 of 145.883 ms
 * beside a max of 145.766 ms), and which depends on the histogram's bucket layout (two layouts gave medians
 * 0.001 ms apart). So every histogram of times comes from {@link #newHistogram()} (one layout: 3 significant
 * digits from 1 us), and every percentile is read through {@link #valueAt}, clamped to the exact recorded
 * min and max.
 */
public final class Percentiles {

    /** Values above this (one hour, in ns) are recorded as this. */
    public static final long MAX_NS = 3_600_000_000_000L;

    private Percentiles() {}

    /**
     * 3 significant digits from 1 us up, auto-resizing: a histogram covers only the range its values reach
     * (about 60 KB for responses up to a second) instead of reserving an hour of nanoseconds.
     */
    public static Histogram newHistogram() {
        Histogram h = new Histogram(1000, 2000, 3);
        h.setAutoResize(true);
        return h;
    }

    /** The value a time of {@code ns} is recorded as: at least 1, at most {@link #MAX_NS}. */
    public static long recorded(long ns) {
        return Math.max(1, Math.min(ns, MAX_NS));
    }

    /**
     * The {@code p}-th percentile of {@code h}, never below {@code minNs} nor above {@code maxNs} (the exact
     * smallest and largest values recorded; pass 0 and {@code Long.MAX_VALUE} when not known); 0 when empty.
     */
    public static long valueAt(Histogram h, double p, long minNs, long maxNs) {
        if (h.getTotalCount() == 0) {
            return 0;
        }
        long v = h.getValueAtPercentile(p);
        return Math.max(Math.min(v, maxNs), Math.min(minNs, maxNs));
    }

    /** As {@link #valueAt}, in ms. */
    public static double valueAtMs(Histogram h, double p, long minNs, long maxNs) {
        return valueAt(h, p, minNs, maxNs) / 1e6;
    }
}
