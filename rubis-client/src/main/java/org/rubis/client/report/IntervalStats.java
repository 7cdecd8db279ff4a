package org.rubis.client.report;

import org.HdrHistogram.Histogram;
import org.rubis.format.stats.LatencyStats;
import org.rubis.format.stats.Percentiles;
import org.rubis.format.stats.Stationarity;

/**
 * The requests, send lateness and sessions of one interval of a load profile, each request by its send instant
 * (requests.csv's {@code interval}), each session by its start: part of {@link RunTotals} (recorded by the log writer
 * into an interval's, added up into the run's). Its think times are the users' ({@link UserCounters}), joined in the
 * run's totals.
 */
public final class IntervalStats {

    final LatencyStats response = new LatencyStats();
    final Histogram lateness = Percentiles.newHistogram();
    long maxLatenessNs;
    long sessionsBegun;
    long sessionsDropped;
    /** The users' think times that started in the interval; null but in the run's totals. */
    private final ThinkSums thinks;

    IntervalStats(ThinkSums thinks) {
        this.thinks = thinks;
    }

    void request(long responseNs, boolean error, long latenessNs) {
        response.record(responseNs, error);
        lateness.recordValue(Percentiles.recorded(latenessNs));
        maxLatenessNs = Math.max(maxLatenessNs, latenessNs);
    }

    void addTo(IntervalStats total) {
        total.response.add(response);
        total.lateness.add(lateness);
        total.maxLatenessNs = Math.max(total.maxLatenessNs, maxLatenessNs);
        total.sessionsBegun += sessionsBegun;
        total.sessionsDropped += sessionsDropped;
    }

    void reset() {
        response.reset();
        lateness.reset();
        maxLatenessNs = 0;
        sessionsBegun = 0;
        sessionsDropped = 0;
    }

    /** Sessions that began in the interval (by their first request's instant). */
    public long sessionsBegun() {
        return sessionsBegun;
    }

    /**
     * The think times that started in the interval: their mean (all the thinking time, cut ones included, over the think
     * times that ended), mean square and mean cube (of those that ended), seconds.
     */
    Stationarity.ThinkMoments thinkMoments() {
        return thinks == null ? Stationarity.ThinkMoments.NONE : thinks.moments();
    }

    /** The send lateness's {@code p}-th percentile, ms, clamped to the interval's own largest. */
    double latenessMs(double p) {
        return lateness.getTotalCount() == 0 ? 0 : Percentiles.valueAtMs(lateness, p, 0, maxLatenessNs);
    }
}
