package org.rubis.format;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * summary.txt's block of a run with a load profile, one line per interval, read from summary.json's {@code profile} and
 * {@code intervals} (docs/RUN-DIRECTORY.md): written by the client's summary and by the merge alike, so that a merged
 * run's table reads like one process's.
 */
public final class IntervalTable {

    private IntervalTable() {}

    /** Appends the block to {@code b}; nothing when {@code root} has no load profile. */
    public static void text(JsonNode root, StringBuilder b) {
        JsonNode p = root.path("profile");
        JsonNode intervals = root.path("intervals");
        if (!p.isObject() || !intervals.isArray()) {
            return;
        }
        boolean users = "users".equals(p.path("unit").asText());
        long left = p.path("sessions_left").asLong();
        b.append(String.format(
                Locale.ROOT,
                "%nLoad profile: %s (%s, %s%s), %d intervals over %s s%s%n",
                p.path("file").asText(),
                p.path("shape").asText(),
                users ? "users" : "sessions per second",
                p.has("leave") ? ", leave " + p.path("leave").asText() : "",
                intervals.size(),
                p.path("length_s").asText(),
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
        String unit = users ? "users" : "rate";
        for (JsonNode o : intervals) {
            String planned = o.path(unit + "_planned_start").asDouble()
                            == o.path(unit + "_planned_end").asDouble()
                    ? num(o.get(unit + "_planned"))
                    : num(o.get(unit + "_planned_start")) + ".." + num(o.get(unit + "_planned_end"));
            String lag = users
                    ? o.path("users_lag_max").asLong() + " (" + num(o.get("lag_max_s")) + " s)"
                    : String.valueOf(o.path("sessions_begun").asLong());
            JsonNode rt = o.path("response_time_ms");
            String steady = switch (o.path("stationarity").path("verdict").asText()) {
                case "steady" -> "yes";
                case "not-steady" -> "NO";
                default -> o.path("flat").asBoolean() ? "not judged" : "(ramp)";
            };
            List<String> causes = new ArrayList<>();
            o.path("client_health").path("causes").forEach(c -> causes.add(c.asText()));
            b.append(String.format(
                    Locale.ROOT,
                    "  %3d %-17s %9s %9s %11s %9s %9.3f %9.3f %6d %-11s %s%n",
                    o.path("index").asInt(),
                    o.path("from_s").asText() + "-" + o.path("to_s").asText(),
                    planned,
                    num(o.get(unit + "_achieved")),
                    lag,
                    num(o.get("throughput_rps")),
                    rt.path("p50").asDouble(),
                    rt.path("p99").asDouble(),
                    o.path("errors").asLong(),
                    steady,
                    causes.isEmpty() ? "-" : String.join(",", causes)));
        }
    }

    private static String num(JsonNode n) {
        if (n == null || n.isNull()) {
            return "-";
        }
        double v = n.asDouble();
        return v == Math.rint(v) && Math.abs(v) < 1e12
                ? String.valueOf((long) v)
                : String.format(Locale.ROOT, "%.1f", v);
    }
}
