package org.rubis.format.text;

import java.util.Locale;
import org.rubis.format.run.Phase;
import org.rubis.format.schema.Latency;
import org.rubis.format.schema.SummaryJson;
import org.rubis.format.schema.Times;

/**
 * summary.txt's response times, from summary.json's {@code response_time_ms} and {@code response_time_from_intended_ms}:
 * the headline lines (the run phase from the actual and from the intended send) and the tables per phase and state.
 * Shared by the client's summary and the merged one, so that a merged run's summary.txt reads like one process's.
 */
public final class TimeTables {

    /** The key of the table of all phases together. */
    public static final String OVERALL = "overall";

    private TimeTables() {}

    /** The run phase's figures (all phases' when it had no request), then the same from the intended send. */
    public static void headline(SummaryJson s, StringBuilder b) {
        boolean run =
                s.responseTimeMs().run() != null && s.responseTimeMs().run().count() > 0;
        String clock = s.responseTimeClock() != null ? ", clock: " + s.responseTimeClock() : "";
        String label = run ? "response time (run, ms)" : "response time (all, ms)";
        b.append(SummaryLines.line(label, figures(phase(s.responseTimeMs(), run)) + clock));
        Latency fromIntended = phase(s.responseTimeFromIntendedMs(), run);
        if (fromIntended != null && fromIntended.count() > 0) {
            b.append(SummaryLines.line("  from intended send", figures(fromIntended)));
        }
    }

    private static Latency phase(Times t, boolean run) {
        return t == null ? null : run ? t.run() : t.overall();
    }

    /** One group's figures in a line. */
    public static String figures(Latency c) {
        return String.format(
                Locale.ROOT,
                "mean %.3f, p50 %.3f, p90 %.3f, p95 %.3f, p99 %.3f, p99.9 %.3f, max %.3f",
                c.mean(),
                c.p50(),
                c.p90(),
                c.p95(),
                c.p99(),
                c.p999(),
                c.max());
    }

    /** The tables: each phase's and the overall one by state, then the phases from the intended send instant. */
    public static void tables(SummaryJson s, StringBuilder b) {
        String clock = s.responseTimeClock() != null ? " (clock: " + s.responseTimeClock() + ")" : "";
        Times rt = s.responseTimeMs();
        for (Phase p : Phase.values()) {
            table(b, p.title(), clock, rt.of(p));
        }
        table(b, "Overall", clock, rt.overall());
        Times fromIntended = s.responseTimeFromIntendedMs();
        if (fromIntended != null) {
            b.append("\nResponse time from the intended send instant in ms (the schedule; corrected for coordinated"
                    + " omission;\nthe tables above are service times, from the actual send)\n");
            header(b, "phase");
            for (Phase p : Phase.values()) {
                intendedRow(b, p.label(), fromIntended.of(p));
            }
            intendedRow(b, OVERALL, fromIntended.overall());
        }
    }

    private static void table(StringBuilder b, String title, String clock, Latency ph) {
        if (ph == null || ph.count() == 0) {
            return;
        }
        b.append('\n')
                .append(title)
                .append(" - response time in ms")
                .append(clock)
                .append('\n');
        header(b, "state");
        if (ph.states() != null) {
            ph.states().forEach((state, c) -> row(b, state, c));
        }
        row(b, "TOTAL", ph);
    }

    private static void intendedRow(StringBuilder b, String name, Latency ph) {
        if (ph != null && ph.count() > 0) {
            row(b, name, ph);
        }
    }

    /** A table's header. */
    public static void header(StringBuilder b, String first) {
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

    /** A table's row, from a cell as {@code org.rubis.format.stats.LatencyJson#cell} wrote it. */
    public static void row(StringBuilder b, String name, Latency c) {
        b.append(String.format(
                Locale.ROOT,
                "  %-24s %7d %6d %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f%n",
                name,
                c.count(),
                c.errors(),
                c.mean(),
                c.min(),
                c.max(),
                c.p50(),
                c.p90(),
                c.p95(),
                c.p99(),
                c.p999()));
    }
}
