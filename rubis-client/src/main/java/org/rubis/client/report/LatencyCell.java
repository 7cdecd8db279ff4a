package org.rubis.client.report;

import org.HdrHistogram.Histogram;
import org.rubis.format.Percentiles;

/** Count, errors, min/max/mean and an HdrHistogram of response times (ns) for one state in one phase. */
public final class LatencyCell {

    /** Values above this (one hour) are clamped. */
    static final long MAX_NS = Percentiles.MAX_NS;

    /**
     * The shared layout ({@link Percentiles#newHistogram()}: 3 significant digits from 1 us up, auto-resizing, so
     * a histogram covers only the range its values reach; the client's heap is part of what we measure), the
     * same as rubis-analysis's so that the summary and the report give the same percentiles of the same log.
     */
    static Histogram newHistogram() {
        return Percentiles.newHistogram();
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
        long v = Percentiles.recorded(ns);
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
    /** Clamped to the recorded min and max ({@link Percentiles}: a bucket's top may exceed the max). */
    public double percentileMs(double p) { return count == 0 ? 0 : Percentiles.valueAtMs(histogram, p, minNs, maxNs); }
}
