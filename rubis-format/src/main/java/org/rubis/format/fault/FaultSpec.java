package org.rubis.format.fault;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A parsed, validated fault specification (see docs/FAULTS.md), immutable.
 *
 * <pre>
 * spec   := rule ( ',' rule )*
 * rule   := kind [ '=' param ] [ ':' fraction ] [ '@' time [ '-' time ] ]
 * kind   := hang | delay | reset | truncate | idle-close | status | garbage | large | stop-accepting | die
 * time   := number [ 'ms' | 's' ]        (seconds since the server started when no unit)
 * </pre>
 *
 * A rule without a fraction hits every request (fraction 1); without a window it is active for the
 * whole run. Examples: {@code reset:0.1}, {@code delay=3000:0.5@10-20}, {@code stop-accepting@5-15},
 * {@code die@30}, {@code status=500:0.05,garbage:0.05}.
 */
public final class FaultSpec {

    /** Upper bound of a time in a spec and of a delay: 30 days, in milliseconds. */
    public static final long MAX_MS = 30L * 24 * 3600 * 1000;

    private final List<FaultRule> rules;
    private final String text;

    private FaultSpec(List<FaultRule> rules, String text) {
        this.rules = List.copyOf(rules);
        this.text = text;
    }

    public static FaultSpec none() {
        return new FaultSpec(List.of(), "");
    }

    /**
     * Parses {@code spec} (null or blank: no faults).
     *
     * @throws IllegalArgumentException one line naming the rule at fault and the expected form
     */
    public static FaultSpec parse(String spec) {
        if (spec == null || spec.isBlank()) {
            return none();
        }
        List<FaultRule> rules = new ArrayList<>();
        for (String raw : spec.split(",", -1)) {
            rules.add(rule(raw.strip(), spec));
        }
        return new FaultSpec(rules, spec.strip());
    }

    private static FaultRule rule(String r, String spec) {
        if (r.isEmpty()) {
            throw bad(r, "an empty rule", spec);
        }
        String window = null;
        int at = r.indexOf('@');
        if (at >= 0) {
            window = r.substring(at + 1);
            r = r.substring(0, at);
        }
        String fraction = null;
        int colon = r.indexOf(':');
        if (colon >= 0) {
            fraction = r.substring(colon + 1);
            r = r.substring(0, colon);
        }
        String param = null;
        int eq = r.indexOf('=');
        if (eq >= 0) {
            param = r.substring(eq + 1);
            r = r.substring(0, eq);
        }
        FaultKind kind = FaultKind.ofSpecName(r.strip().toLowerCase(Locale.ROOT));
        if (kind == null) {
            throw bad(r, "unknown fault kind", spec);
        }
        long p = kind.defaultParam();
        if (param != null) {
            if (kind.paramUnit() == null) {
                throw bad(kind.specName() + "=" + param, kind.specName() + " takes no parameter", spec);
            }
            p = wholeNumber(param, kind.specName() + "=" + param, spec);
            boolean ok = switch (kind) {
                case STATUS -> p >= 400 && p <= 599;
                case LARGE -> p >= 1 && p <= FaultKind.LARGE_MAX_MB;
                default -> p >= 0 && p <= MAX_MS;
            };
            if (!ok) {
                throw bad(kind.specName() + "=" + param, "parameter out of range (" + kind.paramUnit() + ")", spec);
            }
        }
        double f = 1.0;
        if (fraction != null) {
            if (!kind.perRequest()) {
                throw bad(
                        kind.specName() + ":" + fraction,
                        kind.specName() + " acts on the server, not on a share of requests; give a window @start-end",
                        spec);
            }
            try {
                f = Double.parseDouble(fraction.strip());
            } catch (NumberFormatException e) {
                f = Double.NaN;
            }
            if (!(f >= 0 && f <= 1)) {
                throw bad(kind.specName() + ":" + fraction, "the fraction must be a number from 0 to 1", spec);
            }
        }
        long from = 0;
        long to = Long.MAX_VALUE;
        if (window != null) {
            int dash = window.indexOf('-');
            from = time(dash < 0 ? window : window.substring(0, dash), window, spec);
            if (dash >= 0) {
                to = time(window.substring(dash + 1), window, spec);
                if (to <= from) {
                    throw bad("@" + window, "the window ends before it starts", spec);
                }
            }
        } else if (kind == FaultKind.STOP_ACCEPTING) {
            throw bad(kind.specName(), "stop-accepting needs a window, e.g. stop-accepting@5-15", spec);
        }
        return new FaultRule(kind, p, f, from, to);
    }

    private static long wholeNumber(String s, String what, String spec) {
        try {
            return Long.parseLong(s.strip());
        } catch (NumberFormatException e) {
            throw bad(what, "not a whole number", spec);
        }
    }

    private static long time(String t, String window, String spec) {
        String s = t.strip().toLowerCase(Locale.ROOT);
        double scale = 1000;
        if (s.endsWith("ms")) {
            scale = 1;
            s = s.substring(0, s.length() - 2);
        } else if (s.endsWith("s")) {
            s = s.substring(0, s.length() - 1);
        }
        double v;
        try {
            v = Double.parseDouble(s);
        } catch (NumberFormatException e) {
            v = Double.NaN;
        }
        if (!(v >= 0) || v * scale > MAX_MS || s.contains("x") || s.contains("X")) {
            throw bad(
                    "@" + window,
                    "a time is a number of seconds (or ms) from 0 to 30 days since the server started",
                    spec);
        }
        return Math.round(v * scale);
    }

    private static IllegalArgumentException bad(String rule, String problem, String spec) {
        return new IllegalArgumentException("fault spec \"" + oneLine(spec) + "\": \"" + oneLine(rule) + "\": "
                + problem + "; expected kind[=param][:fraction][@start[-end]] with kind one of " + kinds()
                + " (see docs/FAULTS.md)");
    }

    private static String oneLine(String s) {
        String t = s.length() > 100 ? s.substring(0, 100) + "..." : s;
        return t.replaceAll("\\p{Cntrl}", "?");
    }

    static String kinds() {
        StringBuilder b = new StringBuilder();
        for (FaultKind k : FaultKind.values()) {
            b.append(b.isEmpty() ? "" : ", ").append(k.specName());
        }
        return b.toString();
    }

    public List<FaultRule> rules() {
        return rules;
    }

    public boolean isEmpty() {
        return rules.isEmpty();
    }

    @Override
    public String toString() {
        return text;
    }
}
