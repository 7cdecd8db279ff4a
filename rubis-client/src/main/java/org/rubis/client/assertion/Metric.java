package org.rubis.client.assertion;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.rubis.format.Phase;

/**
 * What an assertion may bound: the run phase's figures as summary.json publishes them (the response times of its
 * published clock, the error share, the served throughput, the send lateness), so that the assertion, the summary
 * and a merged run's summary read the same number.
 */
public enum Metric {
    P50("p50", Unit.TIME, "p50"),
    P90("p90", Unit.TIME, "p90"),
    P99("p99", Unit.TIME, "p99"),
    P99_9("p99.9", Unit.TIME, "p99_9"),
    MAX("max", Unit.TIME, "max"),
    MEAN("mean", Unit.TIME, "mean"),
    /** The share of the run phase's requests that were errors, in %. */
    ERRORS("errors", Unit.PERCENT, null),
    /** Served requests (no error) per second of the run phase: summary.json's {@code throughput_rps}. */
    THROUGHPUT("throughput", Unit.RATE, null),
    /** The 99th percentile of the run phase's send lateness (the client's own delay in sending on time). */
    LATENESS_P99("lateness_p99", Unit.TIME, null);

    /** How a value is written after its number, and what it is converted to for the comparison. */
    enum Unit {
        TIME("a time: ms, s or us"),
        PERCENT("a share in %"),
        RATE("a rate in /s");

        final String expected;

        Unit(String expected) {
            this.expected = expected;
        }
    }

    final String label;
    final Unit unit;
    private final String responseTimeKey;

    Metric(String label, Unit unit, String responseTimeKey) {
        this.label = label;
        this.unit = unit;
        this.responseTimeKey = responseTimeKey;
    }

    static Metric of(String label) {
        for (Metric m : values()) {
            if (m.label.equals(label.toLowerCase(Locale.ROOT))) {
                return m;
            }
        }
        return null;
    }

    static String labels() {
        return Arrays.stream(values()).map(m -> m.label).collect(Collectors.joining(", "));
    }

    /** The figure in its unit (ms, %, /s) read from summary.json, or NaN when the summary does not hold it. */
    double read(JsonNode summary) {
        JsonNode run = summary.path("response_time_ms").path(Phase.RUN.label());
        if (this == ERRORS) {
            long count = run.path("count").asLong();
            return count == 0 ? Double.NaN : 100.0 * run.path("errors").asLong() / count;
        }
        JsonNode value = switch (this) {
            case THROUGHPUT -> summary.path("throughput_rps");
            case LATENESS_P99 ->
                summary.path("client_health").path("run_send_lateness_ms").path("p99");
            default -> run.path(responseTimeKey);
        };
        return !value.isNumber() ? Double.NaN : value.asDouble();
    }
}
