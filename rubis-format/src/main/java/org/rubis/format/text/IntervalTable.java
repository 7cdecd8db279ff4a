package org.rubis.format.text;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.rubis.format.schema.Cause;
import org.rubis.format.schema.Interval;
import org.rubis.format.schema.Profile;
import org.rubis.format.schema.SummaryJson;

/**
 * summary.txt's block of a run with a load profile, one line per interval, read from summary.json's {@code profile} and
 * {@code intervals} (docs/RUN-DIRECTORY.md): written by the client's summary and by the merge alike, so that a merged
 * run's table reads like one process's.
 */
public final class IntervalTable {

    private IntervalTable() {}

    /** Appends the block to {@code b}; nothing when the run had no load profile. */
    public static void text(SummaryJson s, StringBuilder b) {
        Profile p = s.profile();
        List<Interval> intervals = s.intervals();
        if (p == null || intervals == null) {
            return;
        }
        boolean users = "users".equals(p.unit());
        long left = p.sessionsLeft();
        b.append(String.format(
                Locale.ROOT,
                "%nLoad profile: %s (%s, %s%s), %d intervals over %s s%s%n",
                p.file(),
                p.shape(),
                users ? "users" : "sessions per second",
                p.leave() != null ? ", leave " + p.leave() : "",
                intervals.size(),
                p.lengthS(),
                left > 0 ? "; " + left + " sessions cut as their users left" : ""));
        b.append(String.format(
                Locale.ROOT,
                "  %3s %-17s %9s %9s %11s %9s %9s %9s %6s %-11s %s%n",
                "#",
                "from-to (s)",
                users ? "users" : "rate/s",
                "achieved",
                users ? "lag max" : "begun",
                "req/s",
                "p50 ms",
                "p99 ms",
                "errors",
                "steady",
                "causes"));
        for (Interval o : intervals) {
            row(o, users, b);
        }
        evidence(s, intervals, b);
    }

    private static void row(Interval o, boolean users, StringBuilder b) {
        Double start = users ? o.usersPlannedStart() : o.ratePlannedStart();
        Double end = users ? o.usersPlannedEnd() : o.ratePlannedEnd();
        String planned = Objects.equals(start, end)
                ? num(users ? o.usersPlanned() : o.ratePlanned())
                : num(start) + ".." + num(end);
        String lag = users ? o.usersLagMax() + " (" + num(o.lagMaxS()) + " s)" : String.valueOf(o.sessionsBegun());
        String steady = o.stationarity() == null || o.stationarity().verdict() == null
                ? (o.flat() ? "not judged" : "(ramp)")
                : switch (o.stationarity().verdict()) {
                    case STEADY -> "yes";
                    case NOT_STEADY -> "NO";
                    case NOT_JUDGED -> o.flat() ? "not judged" : "(ramp)";
                };
        List<Cause> causes = o.clientHealth() == null || o.clientHealth().causes() == null
                ? List.of()
                : o.clientHealth().causes();
        b.append(String.format(
                Locale.ROOT,
                "  %3d %-17s %9s %9s %11s %9s %9.3f %9.3f %6d %-11s %s%n",
                o.index(),
                o.fromS() + "-" + o.toS(),
                planned,
                num(users ? o.usersAchieved() : o.rateAchieved()),
                lag,
                num(o.throughputRps()),
                o.responseTimeMs() == null ? 0.0 : o.responseTimeMs().p50(),
                o.responseTimeMs() == null ? 0.0 : o.responseTimeMs().p99(),
                o.errors(),
                steady,
                causes.isEmpty()
                        ? "-"
                        : String.join(",", causes.stream().map(Cause::name).toList())));
    }

    /**
     * Under the table, each interval's causes with the figures that named them (the verdict's rule on the interval's
     * own figures), and where the run's verdict does not name that cause, that the run phase's figures are means over
     * all intervals: an interval's CLIENT beside a run whose client "was fine" is a stretch of it, not a contradiction.
     */
    private static void evidence(SummaryJson s, List<Interval> intervals, StringBuilder b) {
        List<String> runCauses = s.clientHealth() == null || s.clientHealth().causes() == null
                ? List.of()
                : s.clientHealth().causes().stream().map(Cause::name).toList();
        for (Interval o : intervals) {
            List<String> findings =
                    o.clientHealth() == null ? null : o.clientHealth().findings();
            if (findings == null || findings.isEmpty()) {
                continue;
            }
            List<String> lines = findings.stream()
                    .map(f -> {
                        String cause = f.replaceAll(":.*", "");
                        return f
                                + (runCauses.contains(cause)
                                        ? ""
                                        : " (the run phase as a whole: not " + cause
                                                + ", its figures the means over every interval)");
                    })
                    .toList();
            b.append(String.format(Locale.ROOT, "  interval %d: %s%n", o.index(), String.join("; ", lines)));
        }
    }

    private static String num(Double v) {
        if (v == null) {
            return "-";
        }
        return v == Math.rint(v) && Math.abs(v) < 1e12
                ? String.valueOf(v.longValue())
                : String.format(Locale.ROOT, "%.1f", v);
    }
}
