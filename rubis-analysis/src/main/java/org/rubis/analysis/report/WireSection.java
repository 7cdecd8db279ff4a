package org.rubis.analysis.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.XYChart;
import org.rubis.analysis.wire.DiffStats;
import org.rubis.analysis.wire.WireCheck;
import org.rubis.format.stats.WireAccuracy;

/** The report's "Wire check" section: how far the client's own times are from the packet capture's. */
final class WireSection {
    private static final int CDF_POINTS = 400;

    private WireSection() {}

    static void write(WireCheck w, HtmlReport r, ObjectNode json) {
        if (w == null) {
            return;
        }
        w.toJson(json.putObject("wire"));
        StringBuilder html = r.html();
        html.append("<h2 id=wire>Wire check</h2>\n<p>Every request on the packet capture (<code>")
                .append(HtmlReport.esc(w.capture.file.getFileName().toString()))
                .append(
                        "</code>) joined to the client's line (same connection, same order, same path). Client minus wire: the client's "
                                + "time minus the capture's, from the request's first packet to the response's first packet (TTFB) and last packet "
                                + "(response time): durations, exact whatever the clocks. Per request in <code>wire.csv</code>.</p>\n");
        html.append(
                w.complete()
                        ? "<div class=ok>The capture is complete: no packet dropped, no hole in the TCP streams.</div>\n"
                        : "<div class=warn><b>The capture is incomplete</b> (packets dropped or missing): requests whose packets are missing "
                                + "cannot be checked.</div>\n");
        for (String n : w.notes) {
            html.append("<div class=note>").append(HtmlReport.esc(n)).append("</div>\n");
        }
        String drops = w.captureStats == null
                ? "unknown"
                : w.captureStats.path("kernel_drops").asText() + " kernel, "
                        + w.captureStats.path("interface_drops").asText() + " interface";
        r.table(
                new String[] {
                    "wire requests",
                    "client requests",
                    "matched",
                    "client only",
                    "wire only",
                    "server matched",
                    "retransmissions",
                    "capture drops"
                },
                List.<String[]>of(new String[] {
                    String.valueOf(w.wireRequests()),
                    String.valueOf(w.clientRequests),
                    String.valueOf(w.matched),
                    String.valueOf(w.clientOnly),
                    String.valueOf(w.wireOnly),
                    w.serverRequests < 0 ? "-" : w.serverMatched + " of " + w.serverRequests,
                    String.valueOf(w.capture.retransmissions()),
                    drops
                }));
        r.table(
                new String[] {"connections", "wire", "client", "server"},
                List.<String[]>of(
                        new String[] {
                            "opened",
                            String.valueOf(w.wireConnections()),
                            String.valueOf(w.clientConnectionsOpened),
                            w.serverConnections < 0 ? "-" : String.valueOf(w.serverConnections)
                        },
                        new String[] {
                            "distinct address:port",
                            String.valueOf(w.capture.connections.stream()
                                    .map(c -> c.client)
                                    .distinct()
                                    .count()),
                            String.valueOf(w.clientDistinctConnections),
                            "-"
                        },
                        new String[] {"most open at once", String.valueOf(w.capture.maxOpenConnections), "-", "-"}));
        List<String[]> rows = new ArrayList<>();
        for (Map.Entry<String, WireCheck.Group> e : w.groups.entrySet()) {
            WireCheck.Group g = e.getValue();
            rows.add(new String[] {e.getKey(), String.valueOf(g.response.count()), us(g.ttfb), us(g.response)});
        }
        html.append(
                "<p>Client minus wire, microseconds (mean / p50 / p99 / max), by connection (new: the request opened it) and backend:</p>\n");
        r.table(new String[] {"requests", "count", "TTFB", "response time"}, rows);
        Map<String, WireCheck.Group> split = w.splitGroups();
        if (!split.isEmpty()) {
            html.append(
                            "<p>Where the error goes, microseconds (mean / p50 / p99): the <b>send side</b> is the request's first packet on the "
                                    + "capture minus the client's send mark (our code before the write, the system call, loopback), the <b>receive side</b> the "
                                    + "client's end mark minus the response's last packet (thread wake-up, the read, decoding before the stamp). They compare "
                                    + "the client's anchored clock with the capture's, so each is uncertain by half the anchor's bracket (client ")
                    .append(bracket(w.anchors.clientNs()))
                    .append(", probe ")
                    .append(bracket(w.anchors.probeNs()))
                    .append("); their sum is the exact client minus wire.</p>\n");
            List<String[]> splitRows = new ArrayList<>();
            split.forEach((name, g) -> splitRows.add(new String[] {
                name,
                String.valueOf(g.send.count()),
                us3(g.send),
                us3(g.receive),
                HtmlReport.fmt(g.response.percentileUs(50))
            }));
            r.table(new String[] {"requests", "count", "send side", "receive side", "total p50"}, splitRows);
        }
        WireAccuracy acc = w.accuracy();
        if (acc != null) {
            html.append(acc.within() ? "<div class=ok>" : "<div class=warn>")
                    .append("Accuracy: ")
                    .append(acc.word())
                    .append(": client minus wire mean ")
                    .append(HtmlReport.fmt(acc.meanUs()))
                    .append(" us over ")
                    .append(acc.requests())
                    .append(" requests; ")
                    .append(HtmlReport.esc(acc.limitText()))
                    .append(acc.causeText().isEmpty() ? "" : "; " + HtmlReport.esc(acc.causeText()))
                    .append(".</div>\n");
        }
        XYChart chart = Charts.xy(
                "Client minus wire, response time per request (CDF)", "client - wire (us)", "fraction of requests");
        for (String name : new String[] {"all", "new", "reused"}) {
            WireCheck.Group g = w.groups.get(name);
            if (g != null && g.response.count() > 0) {
                cdf(chart, name, g.response);
            }
        }
        r.img(chart, "wire-difference");
    }

    private static String bracket(long ns) {
        return ns < 0 ? "unknown" : ns + " ns";
    }

    private static String us3(DiffStats d) {
        return HtmlReport.fmt(d.meanUs()) + " / " + HtmlReport.fmt(d.percentileUs(50)) + " / "
                + HtmlReport.fmt(d.percentileUs(99));
    }

    private static String us(DiffStats d) {
        return HtmlReport.fmt(d.meanUs()) + " / " + HtmlReport.fmt(d.percentileUs(50)) + " / "
                + HtmlReport.fmt(d.percentileUs(99)) + " / " + HtmlReport.fmt(d.maxUs());
    }

    private static void cdf(XYChart chart, String name, DiffStats d) {
        long[] v = d.sorted();
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        int step = Math.max(1, v.length / CDF_POINTS);
        for (int i = 0; i < v.length; i += step) {
            xs.add(v[i] / 1e3);
            ys.add((i + 1) / (double) v.length);
        }
        xs.add(v[v.length - 1] / 1e3);
        ys.add(1.0);
        Charts.addLine(chart, name, xs, ys);
    }
}
