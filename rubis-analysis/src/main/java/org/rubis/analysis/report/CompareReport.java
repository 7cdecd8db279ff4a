package org.rubis.analysis.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import org.rubis.analysis.RunAnalysis;
import org.rubis.format.io.AtomicFile;
import org.rubis.format.stats.LatencyStats;

/**
 * Side-by-side comparison of runs: the paper's Table II (median, mean and p95 per run, with the
 * ratio of each run to the first, e.g. bursty / non-bursty or backend B / backend A), the runs' other
 * figures in a table of their own (two tables narrow enough for the page rather than one too wide for it), overlaid
 * CDFs and response time over time. Writes the HTML and {@code comparison.json} beside it.
 */
public final class CompareReport {

    private final List<RunAnalysis> runs;
    private final ObjectNode json = HtmlReport.JSON.createObjectNode();

    public CompareReport(List<RunAnalysis> runs) {
        this.runs = runs;
    }

    public ObjectNode json() {
        return json;
    }

    private static LatencyStats measured(RunAnalysis a) {
        return a.times().run().count() > 0 ? a.times().run() : a.times().overall();
    }

    /** The offered load of a run: its users (closed) or session rate (hybrid), from summary.json. */
    static String load(RunAnalysis a) {
        JsonNode s = a.summary();
        if (s == null) {
            return "?";
        }
        if ("closed".equals(s.path("arrivals").asText("closed"))) {
            return s.path("users").asText("?") + " users";
        }
        String p = s.path("arrival_process").asText("");
        return p.isEmpty() ? s.path("arrivals").asText("?") : p;
    }

    public void write(Path out) throws IOException {
        HtmlReport helper = new HtmlReport(runs.get(0));
        helper.head("RUBiS runs compared");
        StringBuilder html = helper.html();
        html.append("<h1>RUBiS runs compared</h1>\n"
                        + "<p class=meta>Run phase of each run; ratios are relative to the first run, <code>")
                .append(HtmlReport.esc(runs.get(0).name()))
                .append("</code>.</p>\n");
        List<String[]> times = new ArrayList<>();
        List<String[]> figures = new ArrayList<>();
        ArrayNode arr = json.putArray("runs");
        LatencyStats base = measured(runs.get(0));
        for (RunAnalysis a : runs) {
            times.add(timesRow(a, base));
            figures.add(figuresRow(a));
            runJson(arr.addObject(), a, base);
        }
        for (RunAnalysis a : runs) {
            if (a.ending().partial()) {
                html.append("<div class=warn><b>")
                        .append(HtmlReport.esc(a.name()))
                        .append(": ")
                        .append(HtmlReport.esc(a.ending().label()))
                        .append(".</b> ")
                        .append(HtmlReport.esc(a.ending().stopReason()))
                        .append(String.format(
                                Locale.ROOT,
                                ". Its rates are over the %.3f s of run phase it ran; it is"
                                        + " not a like-for-like comparison with a complete run.",
                                a.window().seconds()))
                        .append("</div>\n");
            }
        }
        html.append("<h2 id=table2>Response time (ms, run phase) and ratios to the first run</h2>\n");
        helper.table(
                new String[] {"run", "median", "mean", "p95", "p99", "p99.9", "median ratio", "mean ratio", "p95 ratio"
                },
                times);
        html.append("<h2 id=runs>The runs</h2>\n");
        helper.table(
                new String[] {
                    "run",
                    "status",
                    "backend",
                    "load",
                    "requests",
                    "run phase (s)",
                    "req/s",
                    "req/s attempted",
                    "errors",
                    "connections",
                    "most open at once",
                    "session CoV"
                },
                figures);
        html.append("<p class=meta>req/s: successful requests per second of the run phase. Most open at once: the"
                + " embedded server's count, accept to close, as in the run's summary (- for another target).</p>\n");
        for (RunAnalysis a : runs) {
            if (a.server() != null && a.server().probeRequests() > 0) {
                html.append("<p class=meta>")
                        .append(HtmlReport.esc(a.name()))
                        .append(": the reference probe's ")
                        .append(a.server().probeRequests())
                        .append(" requests (server log, probe.csv) are apart: in none of these figures.</p>\n");
            }
        }

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
        bars.addSeries(
                "median",
                names,
                runs.stream().map(a -> measured(a).percentileMs(50)).toList());
        bars.addSeries(
                "mean", names, runs.stream().map(a -> measured(a).meanMs()).toList());
        bars.addSeries(
                "p95",
                names,
                runs.stream().map(a -> measured(a).percentileMs(95)).toList());
        helper.img(bars, "table2-bars");
        XYChart ts = Charts.xy("Mean response time over time", "seconds since start", "ms");
        List<Charts.Line> lines = new ArrayList<>();
        for (RunAnalysis a : runs) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            long t0 = a.timeline().isEmpty() ? 0 : a.timeline().firstKey();
            a.timeline().forEach((k, v) -> {
                x.add((double) (k - t0));
                y.add(v.meanMs());
            });
            Charts.addLine(ts, label(a), x, y);
            lines.add(new Charts.Line(label(a), x, y));
        }
        List<Charts.OffScale> off = Charts.robustYAxis(ts, lines);
        helper.img(ts, "over-time");
        helper.offScale(off);
        html.append("</body></html>\n");
        Path parent = out.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        AtomicFile.writeString(out, html);
        AtomicFile.writeString(parent.resolve("comparison.json"), HtmlReport.JSON.writeValueAsString(json));
    }

    private static String name(RunAnalysis a) {
        return a.name() + (a.ending().partial() ? " [" + a.ending().label().toUpperCase(Locale.ROOT) + "]" : "");
    }

    /** Table II's row of a run: its response times and their ratios to {@code base}. */
    private static String[] timesRow(RunAnalysis a, LatencyStats base) {
        LatencyStats l = measured(a);
        return new String[] {
            name(a),
            HtmlReport.fmt(l.percentileMs(50)),
            HtmlReport.fmt(l.meanMs()),
            HtmlReport.fmt(l.percentileMs(95)),
            HtmlReport.fmt(l.percentileMs(99)),
            HtmlReport.fmt(l.percentileMs(99.9)),
            ratio(l.percentileMs(50), base.percentileMs(50)),
            ratio(l.meanMs(), base.meanMs()),
            ratio(l.percentileMs(95), base.percentileMs(95))
        };
    }

    /** The runs table's row: what ran and what else it measured. */
    private static String[] figuresRow(RunAnalysis a) {
        LatencyStats l = measured(a);
        return new String[] {
            name(a),
            a.ending().label(),
            a.backend() + (a.times().wireClock() ? " (wire clock)" : ""),
            load(a),
            String.valueOf(l.count()),
            HtmlReport.fmt(a.window().seconds()),
            HtmlReport.fmt(a.throughput()),
            HtmlReport.fmt(a.attemptedRps()),
            String.valueOf(l.errors()),
            String.valueOf(a.connections().distinct()),
            a.peakOpenConnections() < 0 ? "-" : String.valueOf(a.peakOpenConnections()),
            HtmlReport.fmt(a.sessions().interArrival().cov())
        };
    }

    /**
     * comparison.json's entry of a run; throughput_rps and attempted_rps mean what they mean in summary.json:
     * successful and
     * all run-phase requests per second run.
     */
    private static void runJson(ObjectNode o, RunAnalysis a, LatencyStats base) {
        LatencyStats l = measured(a);
        o.put("run", a.name())
                .put("status", a.ending().label())
                .put("partial", a.ending().partial())
                .put("stop_reason", a.ending().stopReason())
                .put("backend", a.backend())
                .put("clock", a.times().clock())
                .put("load", load(a))
                .put("requests", l.count())
                .put("run_seconds", HtmlReport.r3(a.window().seconds()))
                .put("throughput_rps", HtmlReport.r3(a.throughput()))
                .put("attempted_rps", HtmlReport.r3(a.attemptedRps()))
                .put("median_ms", HtmlReport.r3(l.percentileMs(50)))
                .put("mean_ms", HtmlReport.r3(l.meanMs()))
                .put("p95_ms", HtmlReport.r3(l.percentileMs(95)))
                .put("p99_ms", HtmlReport.r3(l.percentileMs(99)))
                .put("p99_9_ms", HtmlReport.r3(l.percentileMs(99.9)))
                .put("errors", l.errors())
                .put("distinct_connections", a.connections().distinct())
                // The server's count (the summary's), as in the HTML; -1 without the embedded server. The client log's
                // connections carrying requests at once stay beside it under their own name.
                .put("max_concurrent_connections", a.peakOpenConnections())
                .put("max_connections_carrying_requests", a.connections().maxConcurrent())
                .put(
                        "session_interarrival_cov",
                        HtmlReport.r3(a.sessions().interArrival().cov()))
                .put("median_ratio", r(l.percentileMs(50), base.percentileMs(50)))
                .put("mean_ratio", r(l.meanMs(), base.meanMs()))
                .put("p95_ratio", r(l.percentileMs(95), base.percentileMs(95)));
        if (a.server() != null) {
            o.put("server_mean_ms", HtmlReport.r3(a.server().serverMeanMs()))
                    .put("absolute_error_ms", HtmlReport.r3(a.server().absoluteErrorMs()))
                    .put("probe_requests", a.server().probeRequests());
        }
    }

    /** The run's name in the plots, made unique (two directories may share a name): a chart refuses two series of one name. */
    private String label(RunAnalysis a) {
        int i = runs.indexOf(a);
        long same = runs.stream().filter(o -> o.name().equals(a.name())).count();
        return same > 1 ? a.name() + " (" + (i + 1) + ")" : a.name();
    }

    private static String ratio(double v, double base) {
        return base == 0 ? "-" : HtmlReport.fmt(v / base);
    }

    private static double r(double v, double base) {
        return base == 0 ? 0 : HtmlReport.r3(v / base);
    }
}
