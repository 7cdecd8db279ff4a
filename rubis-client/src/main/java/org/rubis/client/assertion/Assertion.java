package org.rubis.client.assertion;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.rubis.client.input.ConfigException;

/**
 * A bound on one of the run phase's figures, as {@code run --assert 'p99<200ms'} gives it (k6 calls them thresholds,
 * Gatling assertions): a {@link Metric}, an operator and a value with its unit. Parsed when the configuration is
 * loaded, so a mistyped one stops the run before anything is sent; checked on the summary by {@link AssertionCheck}.
 *
 * @param text      as given, for the messages
 * @param metric    the figure bounded
 * @param operator  how it compares
 * @param threshold the bound in the metric's unit (ms, %, /s)
 */
public record Assertion(String text, Metric metric, Operator operator, double threshold) {

    /** The comparisons, longest spelling first (so that {@code <=} is not read as {@code <}). */
    public enum Operator {
        LE("<="),
        GE(">="),
        LT("<"),
        GT(">");

        final String symbol;

        Operator(String symbol) {
            this.symbol = symbol;
        }

        boolean holds(double actual, double bound) {
            return switch (this) {
                case LE -> actual <= bound;
                case GE -> actual >= bound;
                case LT -> actual < bound;
                case GT -> actual > bound;
            };
        }
    }

    /** What {@code --assert} and {@code client_assertions} take, for the messages and the docs. */
    public static final String GRAMMAR = "METRIC OP VALUE: METRIC one of " + Metric.labels()
            + " (a percentile also as k6 writes it, p(95)); OP one of <, <=, >, >=; VALUE a number with its unit (ms, s,"
            + " us for times; % for errors; /s for throughput), e.g. p99<200ms, errors<1%, throughput>40/s";

    private static final Pattern FORM = Pattern.compile(
            "\\s*([A-Za-z0-9_.]+|[Pp]\\([0-9.]+\\))\\s*(<=|>=|<|>)\\s*([0-9]+(?:\\.[0-9]+)?)\\s*(ms|s|us|%|/s)\\s*");

    /**
     * Parses assertions separated by {@code ;}; {@code where} names the option or the file and key in the one-line
     * error (a {@link ConfigException}) that a bad one gets.
     */
    public static List<Assertion> parseAll(String text, String where) {
        List<Assertion> all = new ArrayList<>();
        for (String one : text.split(";")) {
            if (!one.isBlank()) {
                all.add(parse(one.strip(), where));
            }
        }
        return List.copyOf(all);
    }

    static Assertion parse(String text, String where) {
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            throw bad(where, text, "expected " + GRAMMAR);
        }
        Metric metric = Metric.of(m.group(1));
        if (metric == null) {
            throw bad(where, text, unknown(m.group(1), m.group(4)));
        }
        Operator op = null;
        for (Operator o : Operator.values()) {
            if (o.symbol.equals(m.group(2))) {
                op = o;
            }
        }
        double value = new BigDecimal(m.group(3)).doubleValue();
        String unit = m.group(4).toLowerCase(Locale.ROOT);
        double inUnit = switch (metric.unit) {
            case TIME ->
                switch (unit) {
                    case "ms" -> value;
                    case "s" -> value * 1000;
                    case "us" -> value / 1000;
                    default -> Double.NaN;
                };
            case PERCENT -> unit.equals("%") ? value : Double.NaN;
            case RATE -> unit.equals("/s") ? value : Double.NaN;
        };
        if (Double.isNaN(inUnit)) {
            throw bad(where, text, metric.label + " takes " + metric.unit.expected + ", not " + unit);
        }
        if (metric.unit == Metric.Unit.PERCENT && value > 100) {
            throw bad(where, text, "a share is at most 100%");
        }
        return new Assertion(text, metric, op, inUnit);
    }

    /** Why a metric name is not one: a percentile summary.json does not publish, or no figure of it at all. */
    private static String unknown(String name, String unit) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.matches("p[0-9._]+|p\\([0-9.]+\\)")) {
            return "unknown metric " + name + ": summary.json publishes the percentiles " + Metric.percentiles()
                    + " (also written p(95)); expected one of them";
        }
        return "unknown metric " + name + ": no run-phase figure of summary.json has that name"
                + (unit.equals("/s") && !n.equals("throughput") ? " (served requests per second: throughput)" : "")
                + "; expected one of " + Metric.labels() + " (a percentile also as p(95))";
    }

    private static ConfigException bad(String where, String text, String problem) {
        return new ConfigException(where + " '" + text + "': " + problem);
    }
}
