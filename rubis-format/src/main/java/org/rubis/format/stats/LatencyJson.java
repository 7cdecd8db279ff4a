package org.rubis.format.stats;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A group's response times under summary.json's keys ({@code count, errors, mean, min, max, p50, p90, p95, p99, p99_9},
 * in ms to 3 decimals: docs/RUN-DIRECTORY.md), written by the client's summary and by the merge alike, so that a
 * merged run's summary reads like a shard's.
 */
public final class LatencyJson {

    private LatencyJson() {}

    /** Puts {@code c}'s figures into {@code n}; returns n. */
    public static ObjectNode cell(ObjectNode n, LatencyStats c) {
        n.put("count", c.count());
        n.put("errors", c.errors());
        n.put("mean", ms(c.meanMs()));
        n.put("min", ms(c.minMs()));
        n.put("max", ms(c.maxMs()));
        n.put("p50", ms(c.percentileMs(50)));
        n.put("p90", ms(c.percentileMs(90)));
        n.put("p95", ms(c.percentileMs(95)));
        n.put("p99", ms(c.percentileMs(99)));
        n.put("p99_9", ms(c.percentileMs(99.9)));
        return n;
    }

    /** A time in ms as summary.json writes it: rounded to the microsecond. */
    public static double ms(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
