package org.rubis.format.stats;

import org.HdrHistogram.Histogram;

/**
 * Times (ns) of one group of requests: count, errors, exact sum, min and max, and a histogram read by the
 * {@link Percentiles} rule. The one such class of the client's summary, the analysis's report and the merge, so
 * that the same log gives the same count, mean, min, max and percentiles in all three.
 *
 * <p>Not thread-safe: each program feeds its statistics from one thread.
 */
public final class LatencyStats {

    private final Histogram histogram;
    private long count;
    private long errors;
    private long sumNs;
    private long minNs = Long.MAX_VALUE;
    private long maxNs;

    /** With the shared layout ({@link Percentiles#newHistogram()}): what a summary or report table shows. */
    public LatencyStats() {
        this(Percentiles.newHistogram());
    }

    private LatencyStats(Histogram histogram) {
        this.histogram = histogram;
    }

    /**
     * With 2 significant digits over 1 ns to {@link Percentiles#MAX_NS}: for a time line that holds one per second
     * of the run, where a plot's precision is enough.
     */
    public static LatencyStats coarse() {
        return new LatencyStats(new Histogram(Percentiles.MAX_NS, 2));
    }

    /** One time of {@code ns} (recorded in the histogram as {@link Percentiles#recorded}); an error counts too. */
    public void record(long ns, boolean error) {
        count++;
        if (error) {
            errors++;
        }
        sumNs += ns;
        minNs = Math.min(minNs, ns);
        maxNs = Math.max(maxNs, ns);
        histogram.recordValue(Percentiles.recorded(ns));
    }

    /** Adds every time of {@code other} (a histogram of the same layout) to this one. */
    public void add(LatencyStats other) {
        count += other.count;
        errors += other.errors;
        sumNs += other.sumNs;
        minNs = Math.min(minNs, other.minNs);
        maxNs = Math.max(maxNs, other.maxNs);
        histogram.add(other.histogram);
    }

    /** Empties it (its histogram keeps its size): an interval's statistics reused for the next interval. */
    public void reset() {
        count = 0;
        errors = 0;
        sumNs = 0;
        minNs = Long.MAX_VALUE;
        maxNs = 0;
        histogram.reset();
    }

    public long count() {
        return count;
    }

    public long errors() {
        return errors;
    }

    /** The exact sum, min (Long.MAX_VALUE when empty) and max, ns: what a merge of several needs. */
    public long sumNs() {
        return sumNs;
    }

    public long minNs() {
        return minNs;
    }

    public long maxNs() {
        return maxNs;
    }

    /** The exact mean in ms; 0 when empty. */
    public double meanMs() {
        return count == 0 ? 0 : sumNs / 1e6 / count;
    }

    public double minMs() {
        return count == 0 ? 0 : minNs / 1e6;
    }

    public double maxMs() {
        return maxNs / 1e6;
    }

    /** The {@code p}-th percentile in ms, clamped to the recorded min and max ({@link Percentiles}); 0 when empty. */
    public double percentileMs(double p) {
        return count == 0 ? 0 : Percentiles.valueAtMs(histogram, p, minNs, maxNs);
    }

    /** The histogram itself (for an HdrHistogram log or a CDF plot); not a copy. */
    public Histogram histogram() {
        return histogram;
    }
}
