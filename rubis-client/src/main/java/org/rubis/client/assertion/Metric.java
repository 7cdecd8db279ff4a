package org.rubis.client.assertion;

import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.rubis.format.schema.ClientHealth;
import org.rubis.format.schema.Latency;
import org.rubis.format.schema.SummaryJson;

/**
 * What an assertion may bound: the run phase's figures as summary.json publishes them (the response times of its
 * published clock, the error share, the served throughput, the send lateness), so that the assertion, the summary
 * and a merged run's summary read the same number.
 */
public enum Metric {
    P50("p50", Unit.TIME, "p50"),
    P90("p90", Unit.TIME, "p90"),
    P95("p95", Unit.TIME, "p95"),
    P99("p99", Unit.TIME, "p99"),
    P99_9("p99.9", Unit.TIME, "p99_9"),
    MIN("min", Unit.TIME, "min"),
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

    /** k6's spelling of a percentile, {@code p(95)} or {@code p(99.9)}. */
    private static final Pattern K6_PERCENTILE = Pattern.compile("p\\(([0-9]+(?:\\.[0-9]+)?)\\)");

    /**
     * The metric a name means, or null: a label ({@code p95}, {@code p99.9}), k6's {@code p(95)}, or a percentile's
     * summary.json key ({@code p99_9}).
     */
    static Metric of(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        Matcher k6 = K6_PERCENTILE.matcher(n);
        if (k6.matches()) {
            n = "p" + k6.group(1);
        }
        n = switch (n) {
            case "avg" -> "mean"; // k6's names of a trend's figures
            case "med" -> "p50";
            default -> n;
        };
        for (Metric m : values()) {
            if (m.label.equals(n) || m.unit == Unit.TIME && n.equals(m.responseTimeKey) && n.startsWith("p")) {
                return m;
            }
        }
        return null;
    }

    /** The percentiles among the metrics, as their labels say them. */
    static String percentiles() {
        return Arrays.stream(values())
                .filter(m -> m.responseTimeKey != null && m.label.matches("p[0-9.]+"))
                .map(m -> m.label)
                .collect(Collectors.joining(", "));
    }

    static String labels() {
        return Arrays.stream(values()).map(m -> m.label).collect(Collectors.joining(", "));
    }

    /** The figure in its unit (ms, %, /s) read from summary.json, or NaN when the summary does not hold it. */
    double read(SummaryJson summary) {
        Latency run = summary.responseTimeMs() == null
                ? null
                : summary.responseTimeMs().run();
        ClientHealth health = summary.clientHealth();
        return switch (this) {
            case ERRORS -> run == null || run.count() == 0 ? Double.NaN : 100.0 * run.errors() / run.count();
            case THROUGHPUT -> summary.throughputRps();
            case LATENESS_P99 ->
                health == null || health.runSendLatenessMs() == null
                        ? Double.NaN
                        : health.runSendLatenessMs().p99();
            default -> run == null ? Double.NaN : figure(run);
        };
    }

    private double figure(Latency run) {
        return switch (this) {
            case P50 -> run.p50();
            case P90 -> run.p90();
            case P95 -> run.p95();
            case P99 -> run.p99();
            case P99_9 -> run.p999();
            case MIN -> run.min();
            case MAX -> run.max();
            default -> run.mean();
        };
    }
}
