package org.rubis.format.schema;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A distribution without errors (send lateness, a kernel cost, client minus wire): whichever quantiles its writer gave.
 */
public record Quantiles(
        long count,
        double p50,
        double p90,
        double p95,
        double p99,
        @JsonProperty("p99_9") double p999,
        double max,
        double mean,
        double min) {}
