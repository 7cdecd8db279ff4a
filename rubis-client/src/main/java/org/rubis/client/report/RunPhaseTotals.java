package org.rubis.client.report;

/**
 * The run (measured) phase's response times so far, from the interval snapshots: count, errors, exact mean, min and
 * max, and percentiles read by the summary's rule ({@link org.rubis.format.Percentiles}) from a histogram of the
 * summary's layout, so that at the end of a run they are the summary's {@code response_time_ms.run} figures, reached
 * by another path (the log writer's records through interval histograms, not the summary's statistics).
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
}
