package org.rubis.client.report;

import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import org.rubis.format.stats.Stationarity;

/**
 * The think times of a group (the run phase, or one of its intervals), each by its own start: added by the emulated
 * users themselves, on adders (no lock, no contention to speak of), read once at the end. The moments are what the
 * stationarity check's noise of Little's law needs.
 */
public final class ThinkSums {

    private final LongAdder thinkNs = new LongAdder();
    private final LongAdder thinks = new LongAdder();
    /** Sums of the think times squared and cubed, in s^2 and s^3. */
    private final DoubleAdder thinkS2 = new DoubleAdder();

    private final DoubleAdder thinkS3 = new DoubleAdder();

    /** A think time of {@code ns} that ended. */
    void think(long ns) {
        thinkNs.add(ns);
        thinks.increment();
        if (ns != 0) {
            double s = ns / 1e9;
            thinkS2.add(s * s);
            thinkS3.add(s * s * s);
        }
    }

    /**
     * A think time that a user's leave cut after {@code ns}: its thinking time counts, it does not count as a think time
     * that ended (the maximum-likelihood mean of exponential think times with right-censoring).
     */
    void cut(long ns) {
        thinkNs.add(ns);
    }

    /** How many think times ended (what a merge weighs each shard's moments by). */
    public long count() {
        return thinks.sum();
    }

    /** The mean of the think times (cut ones' time included, over those that ended), 0 when none, seconds. */
    public double meanSeconds() {
        long n = thinks.sum();
        return n == 0 ? 0 : thinkNs.sum() / 1e9 / n;
    }

    /**
     * Their mean (all the thinking time, cut ones included, over the think times that ended), mean square and mean cube
     * (of those that ended), seconds.
     */
    public Stationarity.ThinkMoments moments() {
        long n = thinks.sum();
        return n == 0
                ? Stationarity.ThinkMoments.NONE
                : new Stationarity.ThinkMoments(thinkNs.sum() / 1e9 / n, thinkS2.sum() / n, thinkS3.sum() / n);
    }
}
