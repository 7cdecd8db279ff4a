package org.rubis.client.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.rubis.format.LatencyJson;
import org.rubis.format.LatencyStats;
import org.rubis.format.Percentiles;
import org.rubis.format.SummaryLines;

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

    /** mean, percentiles and max of a cell, in one phrase: {@code mean 1.771, p50 0.851, ..., max 97.832}. */
    static String figures(JsonNode c) {
        return String.format(
                Locale.ROOT,
                "mean %.3f, p50 %.3f, p90 %.3f, p95 %.3f, p99 %.3f, p99.9 %.3f, max %.3f",
                c.get("mean").asDouble(),
                c.get("p50").asDouble(),
                c.get("p90").asDouble(),
                c.path("p95").asDouble(),
                c.get("p99").asDouble(),
                c.get("p99_9").asDouble(),
                c.get("max").asDouble());
    }

    /** A response-time table's header. */
    static void header(StringBuilder b, String first) {
        b.append(String.format(
                Locale.ROOT,
                "  %-24s %7s %6s %8s %8s %8s %8s %8s %8s %8s %8s%n",
                first,
                "count",
                "errors",
                "mean",
                "min",
                "max",
                "p50",
                "p90",
                "p95",
                "p99",
                "p99.9"));
    }

    /** A response-time table's row, from a cell as {@link #cell} wrote it. */
    static void row(StringBuilder b, String name, JsonNode c) {
        b.append(String.format(
                Locale.ROOT,
                "  %-24s %7d %6d %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f%n",
                name,
                c.get("count").asLong(),
                c.get("errors").asLong(),
                c.get("mean").asDouble(),
                c.get("min").asDouble(),
                c.get("max").asDouble(),
                c.get("p50").asDouble(),
                c.get("p90").asDouble(),
                c.path("p95").asDouble(),
                c.get("p99").asDouble(),
                c.get("p99_9").asDouble()));
    }
}
