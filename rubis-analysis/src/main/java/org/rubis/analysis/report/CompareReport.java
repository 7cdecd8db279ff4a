package org.rubis.analysis.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import org.rubis.analysis.RunAnalysis;
import org.rubis.format.LatencyStats;

/**
 * Side-by-side comparison of runs: the paper's Table II (median, mean and p95 per run, with the
 * ratio of each run to the first, e.g. bursty / non-bursty or backend B / backend A), overlaid
 * CDFs and response time over time. Writes the HTML and {@code comparison.json} beside it.
 */
public final class CompareReport {

    private final List<RunAnalysis> runs;
    private final ObjectNode json = HtmlReport.JSON.createObjectNode();

    public CompareReport(List<RunAnalysis> runs) {
        this.runs = runs;
    }

    private static LatencyStats measured(RunAnalysis a) {
        return a.byPhase.get("run").count() > 0 ? a.byPhase.get("run") : a.overall;
    }

    /** The offered load of a run: its users (closed) or session rate (hybrid), from summary.json. */
    static String load(RunAnalysis a) {
        if (a.summary == null) {
            return "?";
        }
        if ("closed".equals(a.summary.path("arrivals").asText("closed"))) {
            return a.summary.path("users").asText("?") + " users";
        }
        String p = a.summary.path("arrival_process").asText("");
        return p.isEmpty() ? a.summary.path("arrivals").asText("?") : p;
    }

    public void write(Path out) throws IOException {
        HtmlReport helper = new HtmlReport(runs.get(0));
        helper.head("RUBiS runs compared");
        StringBuilder html = helper.html();
        html.append("<h1>RUBiS runs compared</h1>\n<p class=meta>Run phase of each run; ratios are relative to the first run, <code>")
            .append(HtmlReport.esc(runs.get(0).name)).append("</code>.</p>\n");
        List<String[]> rows = new ArrayList<>();
        ArrayNode arr = json.putArray("runs");
        LatencyStats base = measured(runs.get(0));
        for (RunAnalysis a : runs) {
            LatencyStats l = measured(a);
            int maxConc = a.concurrentConnections.values().stream().mapToInt(Integer::intValue).max().orElse(0);
            rows.add(new String[] {a.name + (a.partial ? " [" + a.status.toUpperCase(java.util.Locale.ROOT) + "]" : ""), a.status,
                    a.backend + (a.clock.equals("wire") ? " (wire clock)" : ""), load(a), String.valueOf(l.count()), HtmlReport.fmt(a.runSeconds),
                    HtmlReport.fmt(a.throughput()), HtmlReport.fmt(a.attemptedRps()), HtmlReport.fmt(l.percentileMs(50)),
                    HtmlReport.fmt(l.meanMs()), HtmlReport.fmt(l.percentileMs(95)), HtmlReport.fmt(l.percentileMs(99)), String.valueOf(l.errors()),
                    String.valueOf(a.distinctConnections), String.valueOf(maxConc), HtmlReport.fmt(a.sessionInterArrival.cov()),
                    ratio(l.percentileMs(50), base.percentileMs(50)), ratio(l.meanMs(), base.meanMs()), ratio(l.percentileMs(95), base.percentileMs(95))});
            ObjectNode o = arr.addObject();
            // throughput_rps and attempted_rps mean what they mean in summary.json: successful and all run-phase requests per second run.
            o.put("run", a.name).put("status", a.status).put("partial", a.partial).put("stop_reason", a.stopReason).put("backend", a.backend)
             .put("clock", a.clock).put("load", load(a)).put("requests", l.count()).put("run_seconds", HtmlReport.r3(a.runSeconds))
             .put("throughput_rps", HtmlReport.r3(a.throughput())).put("attempted_rps", HtmlReport.r3(a.attemptedRps()))
             .put("median_ms", HtmlReport.r3(l.percentileMs(50))).put("mean_ms", HtmlReport.r3(l.meanMs()))
             .put("p95_ms", HtmlReport.r3(l.percentileMs(95))).put("p99_ms", HtmlReport.r3(l.percentileMs(99))).put("errors", l.errors())
             .put("distinct_connections", a.distinctConnections).put("max_concurrent_connections", maxConc)
             .put("session_interarrival_cov", HtmlReport.r3(a.sessionInterArrival.cov()))
             .put("median_ratio", r(l.percentileMs(50), base.percentileMs(50))).put("mean_ratio", r(l.meanMs(), base.meanMs()))
             .put("p95_ratio", r(l.percentileMs(95), base.percentileMs(95)));
            if (a.server != null) {
                o.put("server_mean_ms", HtmlReport.r3(a.server.serverMeanMs)).put("absolute_error_ms", HtmlReport.r3(a.server.absoluteErrorMs()));
            }
        }
        for (RunAnalysis a : runs) {
            if (a.partial) {
                html.append("<div class=warn><b>").append(HtmlReport.esc(a.name)).append(": ").append(HtmlReport.esc(a.status)).append(".</b> ")
                    .append(HtmlReport.esc(a.stopReason)).append(String.format(java.util.Locale.ROOT,
                            ". Its rates are over the %.3f s of run phase it ran; it is not a like-for-like comparison with a complete run.", a.runSeconds))
                    .append("</div>\n");
            }
        }
        helper.table(new String[] {"run", "status", "backend", "users / rate", "requests", "run phase (s)", "req/s (successful)", "req/s attempted", "median", "mean", "p95", "p99", "errors", "connections", "max conc.",
                "session CoV", "median ratio", "mean ratio", "p95 ratio"}, rows);

        XYChart cdf = Charts.xy("Response time CDF (run phase)", "response time (ms)", "fraction of requests");
        for (RunAnalysis a : runs) {
            Charts.addCdf(cdf, label(a), measured(a).histogram());
        }
        if (!Charts.empty(cdf)) {
            cdf.getStyler().setXAxisLogarithmic(true);
        }
        helper.img(cdf, "cdf");
        CategoryChart bars = Charts.bars("Median, mean and p95 (ms)", "run", "ms");
        List<String> names = runs.stream().map(this::label).toList();
        bars.addSeries("median", names, runs.stream().map(a -> measured(a).percentileMs(50)).toList());
        bars.addSeries("mean", names, runs.stream().map(a -> measured(a).meanMs()).toList());
        bars.addSeries("p95", names, runs.stream().map(a -> measured(a).percentileMs(95)).toList());
        helper.img(bars, "table2");
        XYChart ts = Charts.xy("Mean response time over time", "seconds since start", "ms");
        for (RunAnalysis a : runs) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            long t0 = a.timeline.isEmpty() ? 0 : a.timeline.firstKey();
            a.timeline.forEach((k, v) -> {
                x.add((double) (k - t0));
                y.add(v.meanMs());
            });
            Charts.addLine(ts, label(a), x, y);
        }
        helper.img(ts, "over-time");
        html.append("</body></html>\n");
        Path parent = out.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        org.rubis.format.AtomicFile.writeString(out, html);
        org.rubis.format.AtomicFile.writeString(parent.resolve("comparison.json"), HtmlReport.JSON.writeValueAsString(json));
    }

    /** The run's name in the plots, made unique (two directories may share a name): a chart refuses two series of one name. */
    private String label(RunAnalysis a) {
        int i = runs.indexOf(a);
        long same = runs.stream().filter(o -> o.name.equals(a.name)).count();
        return same > 1 ? a.name + " (" + (i + 1) + ")" : a.name;
    }

    private static String ratio(double v, double base) {
        return base == 0 ? "-" : HtmlReport.fmt(v / base);
    }

    private static double r(double v, double base) {
        return base == 0 ? 0 : HtmlReport.r3(v / base);
    }
}
