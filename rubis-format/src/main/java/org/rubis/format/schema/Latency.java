package org.rubis.format.schema;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/**
 * One phase's (or state's, or interval's) response times in ms, as {@code org.rubis.format.stats.LatencyJson} writes them.
 */
public record Latency(
        long count,
        long errors,
        double mean,
        double min,
        double max,
        double p50,
        double p90,
        double p95,
        double p99,
        @JsonProperty("p99_9") double p999,
        Map<String, Latency> states) {}
