package org.rubis.client.report;

import org.HdrHistogram.Histogram;
import org.rubis.format.stats.Percentiles;

/**
 * The run (measured) phase's response times so far, the sum of the intervals' ({@link RunStats}): count, errors, exact
 * mean, min and max, and percentiles read by the summary's rule ({@link Percentiles}) from a histogram of the summary's
 * layout, so that at the end of a run they are the summary's {@code response_time_ms.run} figures (a sharded view adds
 * up its shards' the same way).
 */
public record RunPhaseTotals(
        long count,
        long errors,
        double meanMs,
        double minMs,
        double maxMs,
        double p50Ms,
        double p90Ms,
        double p99Ms,
        double p999Ms) {

    public static final RunPhaseTotals NONE = new RunPhaseTotals(0, 0, 0, 0, 0, 0, 0, 0, 0);

    /** From a histogram of the summary's layout and the exact min, max and sum of its times (ns). */
    public static RunPhaseTotals of(Histogram h, long errors, long minNs, long maxNs, long sumNs) {
        long n = h.getTotalCount();
        if (n == 0) {
            return NONE;
        }
        return new RunPhaseTotals(
                n,
                errors,
                sumNs / 1e6 / n,
                minNs / 1e6,
                maxNs / 1e6,
                Percentiles.valueAtMs(h, 50, minNs, maxNs),
                Percentiles.valueAtMs(h, 90, minNs, maxNs),
                Percentiles.valueAtMs(h, 99, minNs, maxNs),
                Percentiles.valueAtMs(h, 99.9, minNs, maxNs));
    }
}
