package org.rubis.analysis.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.XYChart;

/**
 * The report's "Load profile" section, for a run with a load profile (summary.json {@code profile} and
 * {@code intervals}; docs/WORKLOAD.md, Load profiles): the profile's load beside the load achieved, and each
 * interval's throughput, response times, errors and stationarity, as the client summarised them.
 */
final class ProfileSection {

    private ProfileSection() {}

    /** Whether the summary has a load profile to show. */
    static boolean present(JsonNode summary) {
        return summary != null
                && summary.path("intervals").isArray()
                && !summary.path("intervals").isEmpty();
    }

    static void write(JsonNode summary, HtmlReport r) {
        if (!present(summary)) {
            return;
        }
        JsonNode profile = summary.path("profile");
        boolean users = "users".equals(profile.path("unit").asText());
        String unit = users ? "users" : "rate";
        String what = users ? "users in the system" : "sessions begun per second";
        StringBuilder html = r.html();
        html.append("<h2 id=profile>Load profile</h2>\n<p>The load followed the profile <code>")
                .append(HtmlReport.esc(profile.path("file").asText()))
                .append("</code> (")
                .append(HtmlReport.esc(profile.path("shape").asText()))
                .append(", ")
                .append(HtmlReport.esc(what))
                .append(
                        users
                                ? ", leave "
                                        + HtmlReport.esc(profile.path("leave").asText())
                                : "")
                .append("). Planned: the profile's load; achieved: ")
                .append(
                        users
                                ? "the users there, counting those still finishing a session after the profile let"
                                        + " them go"
                                : "the sessions that began")
                .append(". Only the intervals meant to be flat are judged steady.</p>\n");
        XYChart c = Charts.xy("Planned and achieved " + what, "seconds into the run phase", what);
        List<Double> px = new ArrayList<>();
        List<Double> py = new ArrayList<>();
        List<Double> ax = new ArrayList<>();
        List<Double> ay = new ArrayList<>();
        List<Double> tx = new ArrayList<>();
        List<Double> ty = new ArrayList<>();
        List<String[]> rows = new ArrayList<>();
        for (JsonNode in : summary.path("intervals")) {
            double from = in.path("from_s").asDouble();
            double to = in.path("to_s").asDouble();
            px.add(from);
            py.add(in.path(unit + "_planned_start").asDouble());
            px.add(to);
            py.add(in.path(unit + "_planned_end").asDouble());
            JsonNode achieved = in.path(unit + "_achieved");
            if (achieved.isNumber()) {
                ax.add((from + to) / 2);
                ay.add(achieved.asDouble());
            }
            if (in.path("throughput_rps").isNumber()) {
                tx.add((from + to) / 2);
                ty.add(in.path("throughput_rps").asDouble());
            }
            JsonNode rt = in.path("response_time_ms");
            rows.add(new String[] {
                in.path("index").asText(),
                in.path("from_s").asText() + "-" + in.path("to_s").asText(),
                in.path("mix").asText(),
                num(in.path(unit + "_planned")),
                num(achieved),
                num(in.path("throughput_rps")),
                num(rt.path("p50")),
                num(rt.path("p99")),
                in.path("errors").asText(),
                in.path("stationarity").path("verdict").asText()
                        + (in.path("flat").asBoolean() ? "" : " (ramp)")
            });
        }
        Charts.addLine(c, "planned " + unit, px, py);
        Charts.addPoints(c, "achieved " + unit, ax, ay);
        r.img(c, "profile-load");
        XYChart t = Charts.xy("Throughput per interval", "seconds into the run phase", "requests/s");
        Charts.addMarkedLine(t, "served requests/s", tx, ty);
        r.img(t, "profile-throughput");
        r.table(
                new String[] {
                    "#",
                    "from-to (s)",
                    "mix",
                    "planned " + unit,
                    "achieved",
                    "req/s",
                    "p50 ms",
                    "p99 ms",
                    "errors",
                    "stationarity"
                },
                rows);
    }

    private static String num(JsonNode n) {
        return n.isNumber() ? String.format(Locale.ROOT, "%.3f", n.asDouble()).replaceAll("\\.?0+$", "") : "-";
    }
}
