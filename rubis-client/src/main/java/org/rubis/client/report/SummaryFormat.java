package org.rubis.client.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.HdrHistogram.Histogram;
import org.rubis.format.stats.LatencyJson;
import org.rubis.format.stats.LatencyStats;
import org.rubis.format.stats.Percentiles;
import org.rubis.format.text.SummaryLines;

/**
 * How the summary writes its figures: rounding, latency cells and percentiles in summary.json, lines and rows in
 * summary.txt.
 */
final class SummaryFormat {

    private SummaryFormat() {}

    static double round(double v, int digits) {
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }

    /** A figure that may be unknown (NaN): null in the JSON. */
    static void putKnown(ObjectNode n, String key, double v, int digits) {
        if (Double.isNaN(v)) {
            n.putNull(key);
        } else {
            n.put(key, round(v, digits));
        }
    }

    /** count, errors, mean, min, max and percentiles of one group of requests, in ms ({@link LatencyJson}). */
    static ObjectNode cell(ObjectNode n, LatencyStats c) {
        return LatencyJson.cell(n, c);
    }

    /** Percentiles by the shared rule ({@link Percentiles}), never above {@code maxNs} (the exact max, when known). */
    static void percentiles(ObjectNode n, Histogram h, long maxNs) {
        n.put("count", h.getTotalCount());
        n.put("p50", round(Percentiles.valueAtMs(h, 50, 0, maxNs), 3));
        n.put("p90", round(Percentiles.valueAtMs(h, 90, 0, maxNs), 3));
        n.put("p95", round(Percentiles.valueAtMs(h, 95, 0, maxNs), 3));
        n.put("p99", round(Percentiles.valueAtMs(h, 99, 0, maxNs), 3));
        n.put("p99_9", round(Percentiles.valueAtMs(h, 99.9, 0, maxNs), 3));
    }

    /** A line of summary.txt: the name, padded, then the value, wrapped under itself ({@link SummaryLines}). */
    static void line(StringBuilder b, String k, String v) {
        b.append(SummaryLines.line(k, v));
    }
}
