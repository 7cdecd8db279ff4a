package org.rubis.analysis.stats;

import org.HdrHistogram.Histogram;

/** Response times (ns) of one group: count, errors, exact mean and max, percentiles from HdrHistogram. */
public final class Latency {
    static final long MAX = 3_600_000_000_000L;
    private final Histogram h = new Histogram(MAX, 3);
    private long count;
    private long errors;
    private double sum;
    private long max;

    public void add(long ns, boolean error) {
        count++;
        if (error) {
            errors++;
        }
        sum += ns;
        max = Math.max(max, ns);
        h.recordValue(Math.max(1, Math.min(ns, MAX)));
    }

    public void add(Latency o) {
        count += o.count;
        errors += o.errors;
        sum += o.sum;
        max = Math.max(max, o.max);
        h.add(o.h);
    }

    public long count() { return count; }
    public long errors() { return errors; }
    public double meanMs() { return count == 0 ? 0 : sum / count / 1e6; }
    public double maxMs() { return max / 1e6; }
    public double percentileMs(double p) { return count == 0 ? 0 : h.getValueAtPercentile(p) / 1e6; }
    public Histogram histogram() { return h; }
}
