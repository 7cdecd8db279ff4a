package org.rubis.client.report;

import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.rubis.format.LatencyStats;
import org.rubis.format.Percentiles;

/**
 * The requests, send lateness, sessions and think times of one interval of a load profile, each request by its send
 * instant (requests.csv's {@code interval}), each session by its start, each think time by its own start. Fed by the
 * log writer thread (requests, sessions) and by the users (think times, on adders), read once at the end.
 */
public final class IntervalStats {

    final LatencyStats response = new LatencyStats();
    final Histogram lateness = Percentiles.newHistogram();
    long maxLatenessNs;
    long sessionsBegun;
    long sessionsDropped;
    private final LongAdder thinkNs = new LongAdder();
    private final LongAdder thinks = new LongAdder();
    private final DoubleAdder thinkS2 = new DoubleAdder();
    private final DoubleAdder thinkS3 = new DoubleAdder();

    void request(long responseNs, boolean error, long latenessNs) {
        response.record(responseNs, error);
        lateness.recordValue(Percentiles.recorded(latenessNs));
        maxLatenessNs = Math.max(maxLatenessNs, latenessNs);
    }

    /** Sessions that began in the interval (by their first request's instant). */
    public long sessionsBegun() {
        return sessionsBegun;
    }

    void think(long ns) {
        thinkNs.add(ns);
        thinks.increment();
        if (ns != 0) {
            double s = ns / 1e9;
            thinkS2.add(s * s);
            thinkS3.add(s * s * s);
        }
    }

    /** The think times that started in the interval: their mean, mean square and mean cube, seconds. */
    Stationarity.ThinkMoments thinkMoments() {
        long n = thinks.sum();
        return n == 0
                ? Stationarity.ThinkMoments.NONE
                : new Stationarity.ThinkMoments(thinkNs.sum() / 1e9 / n, thinkS2.sum() / n, thinkS3.sum() / n);
    }

    /** The send lateness's {@code p}-th percentile, ms, clamped to the interval's own largest. */
    double latenessMs(double p) {
        return lateness.getTotalCount() == 0 ? 0 : Percentiles.valueAtMs(lateness, p, 0, maxLatenessNs);
    }
}
