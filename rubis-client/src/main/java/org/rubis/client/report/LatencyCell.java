package org.rubis.client.report;

import org.HdrHistogram.Histogram;

/** Count, errors, min/max/mean and an HdrHistogram of response times (ns) for one state in one phase. */
public final class LatencyCell {

    /** Values above this (one hour) are clamped. */
    static final long MAX_NS = 3_600_000_000_000L;

    /**
     * 3 significant digits from 1 us up, auto-resizing: a histogram covers only the range its
     * values reach (about 60 KB for responses up to a second) instead of reserving an hour of
     * nanoseconds (256 KB); the client's heap is part of what we measure.
     */
    static Histogram newHistogram() {
        Histogram h = new Histogram(1000, 2000, 3);
        h.setAutoResize(true);
        return h;
    }

    long count;
    long errors;
    long sumNs;
    long minNs = Long.MAX_VALUE;
    long maxNs;
    final Histogram histogram = newHistogram();

    void record(long ns, boolean error) {
        count++;
        if (error) {
            errors++;
        }
        long v = Math.max(1, Math.min(ns, MAX_NS));
        sumNs += ns;
        minNs = Math.min(minNs, ns);
        maxNs = Math.max(maxNs, ns);
        histogram.recordValue(v);
    }

    void add(LatencyCell o) {
        count += o.count;
        errors += o.errors;
        sumNs += o.sumNs;
        minNs = Math.min(minNs, o.minNs);
        maxNs = Math.max(maxNs, o.maxNs);
        histogram.add(o.histogram);
    }

    public long count() { return count; }
    public long errors() { return errors; }
    public double meanMs() { return count == 0 ? 0 : sumNs / 1e6 / count; }
    public double minMs() { return count == 0 ? 0 : minNs / 1e6; }
    public double maxMs() { return maxNs / 1e6; }
    public double percentileMs(double p) { return count == 0 ? 0 : histogram.getValueAtPercentile(p) / 1e6; }
}
