package org.rubis.analysis.stats;

import org.HdrHistogram.Histogram;
import org.rubis.format.Percentiles;

/**
 * Response times (ns) of one group: count, errors, exact mean, min and max, percentiles from HdrHistogram by the
 * rule the client's summary uses ({@link Percentiles}: same bucket layout, clamped to the recorded min and max),
 * so a report of a run gives the same figures as its summary.
 */
public final class Latency {
    private final Histogram h = Percentiles.newHistogram();
    private long count;
    private long errors;
    private double sum;
    private long min = Long.MAX_VALUE;
    private long max;

    public void add(long ns, boolean error) {
        count++;
        if (error) {
            errors++;
        }
        sum += ns;
        min = Math.min(min, ns);
        max = Math.max(max, ns);
        h.recordValue(Percentiles.recorded(ns));
    }

    public void add(Latency o) {
        count += o.count;
        errors += o.errors;
        sum += o.sum;
        min = Math.min(min, o.min);
        max = Math.max(max, o.max);
        h.add(o.h);
    }

    public long count() { return count; }
    public long errors() { return errors; }
    public double meanMs() { return count == 0 ? 0 : sum / count / 1e6; }
    public double minMs() { return count == 0 ? 0 : min / 1e6; }
    public double maxMs() { return max / 1e6; }
    public double percentileMs(double p) { return count == 0 ? 0 : Percentiles.valueAtMs(h, p, min, max); }
    public Histogram histogram() { return h; }
}
