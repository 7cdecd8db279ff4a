package org.rubis.analysis.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.internal.chartpart.Chart;
import org.rubis.analysis.ConnectionFigures;
import org.rubis.analysis.LittleLaw;
import org.rubis.analysis.ResponseTimes;
import org.rubis.analysis.RunAnalysis;
import org.rubis.analysis.RunEnding;
import org.rubis.analysis.ServerComparison;
import org.rubis.analysis.SessionFigures;
import org.rubis.analysis.stats.Moments;
import org.rubis.format.io.AtomicFile;
import org.rubis.format.run.ErrorClass;
import org.rubis.format.run.Phase;
import org.rubis.format.run.RunFiles;
import org.rubis.format.schema.ClientHealth;
import org.rubis.format.schema.SchemaMapper;
import org.rubis.format.stats.LatencyStats;
import org.rubis.format.text.CpuPerRequest;

/**
 * The self-contained HTML report of one run (plots embedded as PNG data URIs) and
 * {@code analysis.json} with every figure the report shows.
 */
public final class HtmlReport {

    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    static final String[][] BUCKETS = {
        {"1", "1", "1"},
        {"2", "2", "2"},
        {"3-5", "3", "5"},
        {"6-10", "6", "10"},
        {"11-20", "11", "20"},
        {"21-50", "21", "50"},
        {"51-100", "51", "100"},
        {"101-1000", "101", "1000"},
        {">1000", "1001", String.valueOf(Integer.MAX_VALUE)}
    };

    private final RunAnalysis a;
    private final ObjectNode json = JSON.createObjectNode();
    private final StringBuilder html = new StringBuilder(1 << 16);

    public HtmlReport(RunAnalysis a) {
        this.a = a;
    }

    /** Writes the HTML to {@code out} and analysis.json beside it. */
    public void write(Path out) throws IOException {
        build();
        Path parent = out.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        AtomicFile.writeString(out, html);
        AtomicFile.writeString(parent.resolve(RunFiles.ANALYSIS_JSON), JSON.writeValueAsString(json));
    }

    void build() {
        JsonNode s = a.summary();
        head("RUBiS run " + a.name());
        html.append("<h1>RUBiS run <code>").append(esc(a.name())).append("</code></h1>\n<p class=meta>");
        json.put("run", a.name());
        json.put("backend", a.backend());
        json.put("status", a.ending().label());
        json.put("partial", a.ending().partial());
        json.put("stop_reason", a.ending().stopReason());
        if (s != null) {
            html.append(esc(s.path("arrival_process").asText()))
                    .append(" &middot; backend <b>")
                    .append(esc(s.path("backend").asText()))
                    .append("</b> (")
                    .append(esc(s.path("threads").asText()))
                    .append(" threads) &middot; seed ")
                    .append(esc(s.path("seed").asText()))
                    .append(" &middot; status <b>")
                    .append(esc(a.ending().label()))
                    .append("</b> &middot; started ")
                    .append(esc(s.path("started_at").asText()));
            json.put("arrivals", s.path("arrivals").asText());
        } else {
            html.append("backend <b>")
                    .append(esc(a.backend()))
                    .append("</b> &middot; status <b>")
                    .append(esc(a.ending().label()))
                    .append("</b>");
        }
        html.append("</p>\n");
        RunEnding ending = a.ending();
        if (ending.partial()) {
            html.append("<div class=warn><b>")
                    .append(esc(ending.incomplete() ? "Incomplete run." : "Partial run (" + ending.label() + ")."))
                    .append("</b> ")
                    .append(esc(ending.stopReason()))
                    .append(esc(String.format(
                            Locale.ROOT,
                            ". Rates are over the %.3f s of run phase actually run (%s).",
                            a.window().seconds(),
                            a.window().source())))
                    .append("</div>\n");
        }
        ArrayNode notes = json.putArray("notes");
        for (String n : a.notes()) {
            notes.add(n);
            html.append("<div class=note>").append(esc(n)).append("</div>\n");
        }
        ObjectNode bad = json.putObject("bad_lines");
        a.badLines().forEach((file, v) -> bad.putObject(file).put("count", v[0]).put("first_line", v[1]));
        JsonNode h = a.health();
        if (h != null && h.path("saturated").asBoolean()) {
            html.append("<div class=warn><b>The client was the bottleneck.</b> ")
                    .append(esc(h.path("verdict").asText()))
                    .append("</div>\n");
        }
        toc();
        responseTime();
        throughput();
        ProfileSection.write(s, this);
        connections();
        arrivals();
        clientHealth();
        server();
        WireSection.write(a.wire(), this, json);
        html.append("</body></html>\n");
    }

    private void toc() {
        html.append(
                "<p class=toc><a href=#response-time>Response time</a> &middot; <a href=#throughput>Throughput and sessions</a> &middot; "
                        + (ProfileSection.present(a.summary()) ? "<a href=#profile>Load profile</a> &middot; " : "")
                        + "<a href=#connections>Connections</a> &middot; <a href=#arrivals>Arrivals</a> &middot; <a href=#client-health>Client health</a>"
                        + (a.server() != null ? " &middot; <a href=#server>Client vs server</a>" : "")
                        + (a.wire() != null ? " &middot; <a href=#wire>Wire check</a>" : "") + "</p>\n");
    }

    // ------------------------------------------------------------------ sections

    private void responseTime() {
        ResponseTimes t = a.times();
        html.append("<h2 id=response-time>Response time</h2>\n");
        if (t.wireClock()) {
            JsonNode capture = a.wire() == null ? null : a.wire().captureStats;
            String drops = capture == null
                    ? ""
                    : " (capture drops: kernel " + capture.path("kernel_drops").asLong() + ", interface "
                            + capture.path("interface_drops").asLong() + ")";
            html.append("<p><b>Clock: the wire</b> (packet capture): first request packet to last response packet,"
                            + " in ms; their error is the capture's, not the client's")
                    .append(drops)
                    .append(". The client's own times follow the table. Only the <b>run</b> phase is the"
                            + " measurement.</p>\n");
        } else {
            html.append(
                    "<p>Send to last byte of the reply, in ms (clock: the client). Only the <b>run</b> phase is the measurement; the ramps are shown for context.</p>\n");
        }
        json.put("response_time_clock", t.clock());
        ObjectNode rt = json.putObject("response_time_ms");
        phaseTable(rt, t.byPhase(), t.overall());
        if (t.wireClock()) {
            html.append("<h3>The client's own times (beside the wire's)</h3>\n");
            ObjectNode ct = json.putObject("response_time_ms_client");
            List<String[]> clientRows = new ArrayList<>();
            t.clientByPhase().forEach((p, l) -> {
                clientRows.add(latencyRow(p.label(), l));
                latencyJson(ct.putObject(p.label()), l);
            });
            table(LAT_HEAD, clientRows);
        }
        html.append(
                "<h3>From the intended send instant</h3>\n<p>The same requests timed from when the schedule (think time or arrival) "
                        + "said each should be sent, not from when it was: the response time a user would see, corrected for coordinated "
                        + "omission (a late client sends late and hides the wait). The table above is the service time. They differ by the send "
                        + "lateness.</p>\n");
        phaseTable(json.putObject("response_time_from_intended_ms"), t.byPhaseFromIntended(), t.overallFromIntended());
        statesTable(rt, t);
        XYChart cdf = Charts.xy("Response time CDF", "response time (ms)", "fraction of requests");
        for (Phase p : Phase.values()) {
            Charts.addCdf(cdf, p.label(), t.byPhase().get(p).histogram());
        }
        if (!Charts.empty(cdf)) {
            cdf.getStyler().setXAxisLogarithmic(true);
        }
        img(cdf, "cdf");
        overTime();
    }

    /** A row per phase that had requests, then the overall row, into the page and into {@code o}. */
    private void phaseTable(ObjectNode o, Map<Phase, LatencyStats> byPhase, LatencyStats overall) {
        List<String[]> rows = new ArrayList<>();
        for (Phase p : Phase.values()) {
            LatencyStats l = byPhase.get(p);
            if (l.count() > 0) {
                rows.add(latencyRow(p.label(), l));
                latencyJson(o.putObject(p.label()), l);
            }
        }
        rows.add(latencyRow("overall", overall));
        latencyJson(o.putObject("overall"), overall);
        table(LAT_HEAD, rows);
    }

    /** The states of the run phase (of the whole run when it had no request). */
    private void statesTable(ObjectNode rt, ResponseTimes t) {
        boolean run = t.run().count() > 0;
        String phase = run ? Phase.RUN.label() : "overall";
        html.append("<h3>Per state (").append(esc(phase)).append(" phase)</h3>\n");
        Map<String, LatencyStats> states = run ? t.byPhaseState().get(Phase.RUN) : t.byState();
        ObjectNode st = rt.putObject("states_" + phase);
        List<String[]> rows = new ArrayList<>();
        for (var e : states.entrySet()) {
            rows.add(latencyRow(e.getKey(), e.getValue()));
            latencyJson(st.putObject(e.getKey()), e.getValue());
        }
        table(LAT_HEAD, rows);
    }

    /** Mean and p99 per second, the client's GC pauses marked. */
    private void overTime() {
        XYChart ts = Charts.xy("Response time over time (client GC pauses marked)", "seconds since start", "ms");
        List<Double> x = new ArrayList<>();
        List<Double> mean = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        long t0 = a.timeline().isEmpty() ? 0 : a.timeline().firstKey();
        for (var e : a.timeline().entrySet()) {
            x.add((double) (e.getKey() - t0));
            mean.add(e.getValue().meanMs());
            p99.add(e.getValue().percentileMs(99));
        }
        Charts.addLine(ts, "mean", x, mean);
        Charts.addLine(ts, "p99", x, p99);
        List<Double> gx = new ArrayList<>();
        List<Double> gy = new ArrayList<>();
        for (long[] g : a.gcPauses()) {
            gx.add(g[0] / 1000.0 - t0);
            gy.add((double) g[1]);
        }
        Charts.addPoints(ts, "client GC pause (ms)", gx, gy);
        List<Charts.OffScale> off =
                Charts.robustYAxis(ts, List.of(new Charts.Line("mean", x, mean), new Charts.Line("p99", x, p99)));
        img(ts, "response-time-over-time");
        offScale(off);
        ArrayNode series = json.putArray("response_time_by_second");
        for (int i = 0; i < x.size(); i++) {
            series.addObject()
                    .put("t", x.get(i))
                    .put("mean_ms", r3(mean.get(i)))
                    .put("p99_ms", r3(p99.get(i)));
        }
        ArrayNode gcs = json.putArray("client_gc_pauses");
        for (long[] g : a.gcPauses()) {
            gcs.addObject().put("end_epoch_ms", g[0]).put("duration_ms", g[1]);
        }
    }

    /** Under a plot whose axis left values out ({@link Charts#robustYAxis}): which values, at which second. */
    void offScale(List<Charts.OffScale> off) {
        if (off.isEmpty()) {
            return;
        }
        StringBuilder values = new StringBuilder();
        for (Charts.OffScale p : off) {
            values.append(values.isEmpty() ? "" : "; ")
                    .append(p.series())
                    .append(' ')
                    .append(fmt(p.y()))
                    .append(" ms at ")
                    .append(String.format(Locale.ROOT, "%.0f", p.x()))
                    .append(" s");
        }
        html.append("<p class=meta>Off the axis (red triangles at its top, so that the other seconds stay readable): ")
                .append(esc(values.toString()))
                .append(".</p>\n");
    }

    private void throughput() {
        html.append("<h2 id=throughput>Throughput and sessions</h2>\n");
        XYChart c = Charts.xy("Throughput and active sessions (1 s bins)", "seconds since start", "");
        List<Double> x = new ArrayList<>();
        List<Double> rps = new ArrayList<>();
        long t0 = a.timeline().isEmpty() ? 0 : a.timeline().firstKey();
        for (var e : a.timeline().entrySet()) {
            x.add((double) (e.getKey() - t0));
            rps.add((double) e.getValue().count());
        }
        Charts.addLine(c, "requests/s", x, rps);
        List<Double> sx = new ArrayList<>();
        List<Double> sy = new ArrayList<>();
        for (var e : a.sessions().active().entrySet()) {
            sx.add((double) (e.getKey() - t0));
            sy.add((double) e.getValue());
        }
        Charts.addLine(c, "active sessions", sx, sy);
        img(c, "throughput");
        ObjectNode t = json.putObject("throughput");
        // The summary's names and meanings: throughput_rps counts successful requests, attempted_rps every one.
        t.put("throughput_rps", r3(a.throughput()));
        t.put("attempted_rps", r3(a.attemptedRps()));
        t.put("run_seconds", r3(a.window().seconds()));
        t.put("run_seconds_source", a.window().source());
        t.put("run_requests", a.times().run().count());
        t.put("run_errors", a.times().run().errors());
        t.put("requests", a.requests());
        ArrayNode bins = t.putArray("by_second");
        for (int i = 0; i < x.size(); i++) {
            bins.addObject().put("t", x.get(i)).put("requests", rps.get(i).longValue());
        }
        ObjectNode ss = json.putObject("sessions");
        ss.put("started", a.sessions().started());
        ss.put("only_in_requests_csv", a.sessions().onlyInRequests());
        a.sessions().endsByLabel().forEach(ss::put);
        SessionFigures sessions = a.sessions();
        String errors = a.times().errorsByClass().isEmpty()
                ? ""
                : " (" + ErrorClass.counts(a.times().errorsByClass()) + ")";
        String killed = sessions.onlyInRequests() == 0
                ? ""
                : " (" + sessions.onlyInRequests()
                        + " of them only in requests.csv: "
                        + (a.badLines().containsKey("sessions.csv")
                                ? "their sessions.csv line skipped as malformed, or still running when the run was"
                                        + " killed)"
                                : "still running when the run was killed)");
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"requests", String.valueOf(a.requests())});
        rows.add(new String[] {"run-phase throughput (successful requests)", fmt(a.throughput()) + " requests/s"});
        rows.add(new String[] {"run-phase requests attempted", fmt(a.attemptedRps()) + " requests/s"});
        rows.add(new String[] {
            "run phase length", fmt(a.window().seconds()) + " s (" + a.window().source() + ")"
        });
        rows.add(new String[] {"errors", a.times().overall().errors() + errors});
        rows.add(new String[] {"sessions started", sessions.started() + killed});
        sessions.endsByLabel()
                .forEach((end, n) ->
                        rows.add(new String[] {"sessions ended by " + end.replace('_', ' '), String.valueOf(n)}));
        table(new String[] {"", ""}, rows);
        ObjectNode errs = json.putObject("errors_by_class");
        a.times().errorsByClass().forEach(errs::put);
    }

    private void connections() {
        html.append(
                "<h2 id=connections>Connections</h2>\n<p>Which TCP connections carried the requests (the client's local address:port). "
                        + "With one connection per session, connections = sessions and each carries one session's requests; a shared keep-alive "
                        + "cache (the original client) shows few connections carrying many sessions' requests.</p>\n");
        ConnectionFigures f = a.connections();
        ObjectNode c = json.putObject("connections");
        c.put("distinct", f.distinct());
        c.put("opened", f.opened());
        c.put("requests_without_connection_id", f.withoutId());
        c.put("max_concurrent", f.maxConcurrent());
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"distinct connections", String.valueOf(f.distinct())});
        rows.add(new String[] {"connections opened (requests that opened one)", String.valueOf(f.opened())});
        if (a.peakOpenConnections() >= 0) {
            // The one definition of "open at once", the summary's server line's: the server's count, accept to close.
            c.put("max_open_server", a.peakOpenConnections());
            rows.add(new String[] {
                "most connections open at once (the server's count, accept to close)",
                String.valueOf(a.peakOpenConnections())
            });
        }
        rows.add(new String[] {
            "most connections carrying requests at once (client log: first request to last reply," + " 1 s samples)",
            String.valueOf(f.maxConcurrent())
        });
        rows.add(new String[] {"requests per connection: max", String.valueOf(maxKey(f.requestsPerConnection()))});
        rows.add(new String[] {"sessions per connection: max", String.valueOf(maxKey(f.sessionsPerConnection()))});
        if (f.withoutId() > 0) {
            rows.add(
                    new String[] {"requests with no connection id (failed to connect)", String.valueOf(f.withoutId())});
        }
        table(new String[] {"", ""}, rows);
        distribution(
                "Requests per connection",
                "requests on the connection",
                f.requestsPerConnection(),
                c.putObject("requests_per_connection"));
        distribution(
                "Connections per session",
                "connections a session used",
                f.connectionsPerSession(),
                c.putObject("connections_per_session"));
        distribution(
                "Sessions per connection",
                "sessions that used the connection",
                f.sessionsPerConnection(),
                c.putObject("sessions_per_connection"));
        XYChart cc = Charts.xy(
                "Connections carrying requests (client log: first request to last reply on each)",
                "seconds since start",
                "connections");
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        long t0 = a.timeline().isEmpty() ? 0 : a.timeline().firstKey();
        for (var e : f.concurrent().entrySet()) {
            x.add((double) (e.getKey() - t0));
            y.add((double) e.getValue());
        }
        Charts.addLine(cc, "connections carrying requests", x, y);
        // Connection counts are whole numbers: at least 4 units of range so XChart's ticks land on integers.
        cc.getStyler().setYAxisDecimalPattern("#,##0");
        cc.getStyler().setYAxisMin(0.0);
        cc.getStyler()
                .setYAxisMax(Math.max(
                        4, y.stream().mapToDouble(Double::doubleValue).max().orElse(0) + 1));
        img(cc, "concurrent-connections");
    }

    private void distribution(String title, String xTitle, Map<Integer, Long> m, ObjectNode out) {
        ObjectNode exact = out.putObject("exact");
        m.forEach((k, v) -> exact.put(String.valueOf(k), v));
        List<String> labels = new ArrayList<>();
        List<Long> counts = new ArrayList<>();
        for (String[] b : BUCKETS) {
            long lo = Long.parseLong(b[1]);
            long hi = Long.parseLong(b[2]);
            long n = m.entrySet().stream()
                    .filter(e -> e.getKey() >= lo && e.getKey() <= hi)
                    .mapToLong(Map.Entry::getValue)
                    .sum();
            labels.add(b[0]);
            counts.add(n);
        }
        if (counts.stream().mapToLong(Long::longValue).sum() == 0) {
            html.append("<p>").append(esc(title)).append(": no data.</p>\n");
            return;
        }
        CategoryChart chart = Charts.bars(title, xTitle, "count");
        chart.addSeries(title, labels, counts);
        chart.getStyler().setLegendVisible(false);
        img(chart, title.toLowerCase(Locale.ROOT).replace(' ', '-'));
    }

    private void arrivals() {
        html.append(
                "<h2 id=arrivals>Arrivals</h2>\n<p>Gunther's Principle B: the inter-arrival times of an open, Internet-like stream "
                        + "have a coefficient of variation (std/mean) close to 1; a closed, self-throttling workload gives CoV &lt; 1.</p>\n");
        ObjectNode o = json.putObject("arrivals");
        Moments sessions = a.sessions().interArrival();
        Moments requests = a.requestInterArrival();
        ObjectNode so = o.putObject("session_inter_arrival");
        so.put("count", sessions.count())
                .put("mean_ms", r3(sessions.mean() / 1e6))
                .put("cov", r3(sessions.cov()))
                .put("verdict", RunAnalysis.arrivalVerdict(sessions));
        ObjectNode ro = o.putObject("request_inter_arrival");
        ro.put("count", requests.count())
                .put("mean_ms", r3(requests.mean() / 1e6))
                .put("cov", r3(requests.cov()))
                .put("verdict", RunAnalysis.arrivalVerdict(requests));
        if (a.lateSendsOutsideWindow() > 0) {
            ro.put("outside_reorder_window", a.lateSendsOutsideWindow());
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {
            "sessions",
            String.valueOf(sessions.count() + (sessions.count() > 0 ? 1 : 0)),
            fmt(sessions.mean() / 1e6),
            fmt(sessions.cov()),
            RunAnalysis.arrivalVerdict(sessions)
        });
        rows.add(new String[] {
            "requests (sent by the client)",
            String.valueOf(requests.count() + (requests.count() > 0 ? 1 : 0)),
            fmt(requests.mean() / 1e6),
            fmt(requests.cov()),
            RunAnalysis.arrivalVerdict(requests)
        });
        table(new String[] {"inter-arrivals of", "count", "mean (ms)", "CoV", "verdict"}, rows);
        LittleLaw law = a.little();
        double cycle = law.xRps() * (law.rMs() + law.zMs()) / 1000.0;
        ObjectNode l = o.putObject("little");
        // The summary's definition and names (stationarity.little_ratio = N / (X (R + Z)), little_low..little_high).
        l.put("N", r3(law.n()))
                .put("X_rps", r3(law.xRps()))
                .put("R_ms", r3(law.rMs()))
                .put("Z_ms", r3(law.zMs()))
                .put("X_times_R_plus_Z", r3(cycle))
                .put("source", law.source());
        if (law.known()) {
            l.put("little_ratio", HtmlReport.r4(law.ratio()))
                    .put("little_ratio_se", HtmlReport.r4(law.se()))
                    .put("little_low", HtmlReport.r4(law.low()))
                    .put("little_high", HtmlReport.r4(law.high()))
                    .put("steady", law.steady());
        }
        if (law.notJudged() != null) {
            l.put("not_judged_reason", law.notJudged());
        }
        l.put("verdict", law.verdict());
        html.append("<h3>Little's law: N / (X (R + Z))</h3>\n");
        table(
                new String[] {
                    "N (users or mean active sessions)",
                    "X (req/s attempted, run phase)",
                    "R (ms)",
                    "Z (think, ms)",
                    "X (R + Z)",
                    "N / (X (R + Z))",
                    "steady band"
                },
                List.<String[]>of(new String[] {
                    fmt(law.n()),
                    fmt(law.xRps()),
                    fmt(law.rMs()),
                    fmt(law.zMs()),
                    fmt(cycle),
                    law.known() ? String.format(Locale.ROOT, "%.3f", law.ratio()) : "-",
                    String.format(Locale.ROOT, "%.3f..%.3f", law.low(), law.high())
                }));
        html.append("<div class=")
                .append(law.notJudged() == null && (!law.known() || law.steady()) ? "ok" : "warn")
                .append(">")
                .append(esc("The ratio is " + law.verdict() + "."))
                .append("</div>\n<p>Source: ")
                .append(esc(law.source()))
                .append(
                        ". The definition and band are the client summary's "
                                + "(its stationarity check): 0.95..1.05, widened to 2.58 standard errors for a short run phase or a small population.</p>\n");
    }

    private void clientHealth() {
        html.append("<h2 id=client-health>Client health</h2>\n");
        JsonNode h = a.health();
        ObjectNode o = json.putObject("client_health");
        o.put("send_lateness_p50_ms", r3(a.times().lateness().percentileMs(50)))
                .put("send_lateness_p99_ms", r3(a.times().lateness().percentileMs(99)))
                .put("send_lateness_max_ms", r3(a.times().lateness().maxMs()))
                .put("gc_pauses", a.gcPauses().size())
                .put(
                        "gc_pause_max_ms",
                        a.gcPauses().stream().mapToLong(g -> g[1]).max().orElse(0));
        List<String[]> rows = new ArrayList<>();
        if (h != null) {
            o.set("summary", h);
            rows.add(new String[] {
                "CPU (mean / peak cores, of " + h.path("cores").asText() + ")",
                h.path("cpu_mean_cores").asText() + " / "
                        + h.path("cpu_peak_cores").asText()
            });
            // The summary's definition and words (its CPU cost line): one figure in both places.
            CpuPerRequest cpu = CpuPerRequest.of(SchemaMapper.LENIENT.convertValue(h, ClientHealth.class));
            o.put("cpu_us_per_request", cpu.us()).put("cpu_per_request_fixed_cost_apart", cpu.fixedCostApart());
            rows.add(new String[] {"CPU per request", cpu.text()});
            // The totals are the collectors' own counters; client-gc.csv (the chart's points) may have missed pauses
            // under
            // heap pressure (runs since 2026-11-25 say how many it holds).
            long missed = h.path("gc_pauses").asLong()
                    - h.path("gc_pauses_logged").asLong(h.path("gc_pauses").asLong());
            rows.add(new String[] {
                "GC",
                h.path("gc_count").asText() + " collections, "
                        + h.path("gc_pause_total_ms").asText()
                        + " ms paused, longest " + (missed > 0 ? "at least " : "")
                        + h.path("gc_max_pause_ms").asText() + " ms"
                        + (missed > 0
                                ? "; " + missed + " of " + h.path("gc_pauses").asText()
                                        + " pauses are not in client-gc.csv (nor on the chart): "
                                        + "the JVM's notifications of them came late or not at all"
                                : "")
            });
            rows.add(new String[] {
                "peak threads / heap",
                h.path("peak_threads").asText() + " / "
                        + h.path("peak_heap_bytes").asLong() / (1 << 20) + " MiB"
            });
        }
        rows.add(new String[] {
            "send lateness p50 / p99 / max (ms)",
            fmt(a.times().lateness().percentileMs(50)) + " / "
                    + fmt(a.times().lateness().percentileMs(99)) + " / "
                    + fmt(a.times().lateness().maxMs())
        });
        table(new String[] {"measure", "value"}, rows);
        if (h != null) {
            // Any cause named (client, host or server) is a warning; "saturated" alone is the client's.
            boolean bad = h.path("saturated").asBoolean() || !h.path("causes").isEmpty();
            html.append("<div class=")
                    .append(bad ? "warn" : "ok")
                    .append(">")
                    .append(esc(h.path("verdict").asText()))
                    .append("</div>\n");
            o.put("verdict", h.path("verdict").asText());
            o.put("saturated", bad);
        }
    }

    private void server() {
        ServerComparison c = a.server();
        if (c == null) {
            return;
        }
        html.append(
                "<h2 id=server>Client vs server</h2>\n<p>The embedded server's own log, joined request by request (same connection, "
                        + "same order). The server's time runs from the first byte of the request to the end of the response write; the "
                        + "difference is what the client adds: network stack, scheduling, its own CPU and GC.</p>\n");
        if (c.probeRequests() > 0) {
            html.append("<p>The server's log also holds the reference probe's ")
                    .append(c.probeRequests())
                    .append(" requests (<code>rubis_probe=1</code>, on its own connection, timed in probe.csv):"
                            + " they are counted apart and left out of this join and its counts.</p>\n");
        }
        ObjectNode o = json.putObject("client_vs_server");
        o.put("matched", c.matched())
                .put("client_only", c.clientOnly())
                .put("server_only", c.serverOnly())
                .put("path_mismatches", c.pathMismatches())
                .put("client_mean_ms", r3(c.clientMeanMs()))
                .put("server_mean_ms", r3(c.serverMeanMs()))
                .put("absolute_error_ms", r3(c.absoluteErrorMs()))
                .put("relative_error", c.serverMeanMs() == 0 ? 0 : r3(c.clientMeanMs() / c.serverMeanMs()))
                .put("difference_p50_ms", r3(c.difference().percentileMs(50)))
                .put("difference_p90_ms", r3(c.difference().percentileMs(90)))
                .put("difference_p99_ms", r3(c.difference().percentileMs(99)))
                .put("difference_max_ms", r3(c.difference().maxMs()))
                .put("server_requests", c.serverRequests())
                .put("server_connections", c.serverConnections())
                .put("probe_requests", c.probeRequests());
        table(
                new String[] {
                    "matched requests",
                    "client only",
                    "server only",
                    "probe (apart)",
                    "client mean (ms)",
                    "server mean (ms)",
                    "absolute error of the mean (ms)",
                    "difference p50 / p90 / p99 (ms)"
                },
                List.<String[]>of(new String[] {
                    String.valueOf(c.matched()),
                    String.valueOf(c.clientOnly()),
                    String.valueOf(c.serverOnly()),
                    String.valueOf(c.probeRequests()),
                    fmt(c.clientMeanMs()),
                    fmt(c.serverMeanMs()),
                    fmt(c.absoluteErrorMs()),
                    fmt(c.difference().percentileMs(50)) + " / "
                            + fmt(c.difference().percentileMs(90)) + " / "
                            + fmt(c.difference().percentileMs(99))
                }));
        XYChart d = Charts.xy(
                "Client minus server time per request (CDF)",
                "difference (ms, log scale; under 1 us drawn at 1 us)",
                "fraction of requests");
        // Most differences are a fraction of a millisecond and a few are hundreds: only a log axis shows both.
        Charts.addCdf(d, "client - server", c.difference().histogram(), 0.001);
        if (!Charts.empty(d)) {
            d.getStyler().setXAxisLogarithmic(true);
        }
        img(d, "client-server-difference");
    }

    // ------------------------------------------------------------------ html helpers

    static final String[] LAT_HEAD = {"", "count", "errors", "mean", "median", "p90", "p95", "p99", "p99.9", "max"};

    static String[] latencyRow(String name, LatencyStats l) {
        return new String[] {
            name,
            String.valueOf(l.count()),
            String.valueOf(l.errors()),
            fmt(l.meanMs()),
            fmt(l.percentileMs(50)),
            fmt(l.percentileMs(90)),
            fmt(l.percentileMs(95)),
            fmt(l.percentileMs(99)),
            fmt(l.percentileMs(99.9)),
            fmt(l.maxMs())
        };
    }

    static void latencyJson(ObjectNode n, LatencyStats l) {
        n.put("count", l.count())
                .put("errors", l.errors())
                .put("mean", r3(l.meanMs()))
                .put("median", r3(l.percentileMs(50)))
                .put("p90", r3(l.percentileMs(90)))
                .put("p95", r3(l.percentileMs(95)))
                .put("p99", r3(l.percentileMs(99)))
                .put("p99_9", r3(l.percentileMs(99.9)))
                .put("max", r3(l.maxMs()));
    }

    void head(String title) {
        html.append("<!DOCTYPE html>\n<html><head><meta charset=utf-8><title>")
                .append(esc(title))
                .append("</title>\n<style>\n")
                .append(
                        "body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;max-width:980px;margin:2em auto;color:#222;line-height:1.4}\n")
                .append(
                        "h1{font-size:1.6em}h2{border-bottom:1px solid #ddd;padding-bottom:.2em;margin-top:2em}code{font-size:.95em}\n")
                .append(
                        "table{border-collapse:collapse;margin:.6em 0;font-size:.92em;display:block;max-width:100%;overflow-x:auto}td,th{border:1px solid #ddd;padding:.25em .6em;text-align:right}\n")
                .append(
                        "td:first-child,th:first-child{text-align:left}th{background:#f4f4f4}tr:nth-child(even) td{background:#fafafa}\n")
                .append(".warn{background:#fff0f0;border-left:5px solid #d33;padding:.6em 1em;margin:1em 0}\n")
                .append(".ok{background:#f0fff4;border-left:5px solid #2a2;padding:.6em 1em;margin:1em 0}\n")
                .append(".note{background:#fffbe6;border-left:5px solid #e6b800;padding:.5em 1em;margin:.5em 0}\n")
                .append(".meta,.toc{color:#555}img{max-width:100%;margin:.5em 0}\n</style></head><body>\n");
    }

    void table(String[] header, List<String[]> rows) {
        html.append("<table><tr>");
        for (String h : header) {
            html.append("<th>").append(esc(h)).append("</th>");
        }
        html.append("</tr>\n");
        for (String[] r : rows) {
            html.append("<tr>");
            for (String c : r) {
                html.append("<td>").append(esc(c)).append("</td>");
            }
            html.append("</tr>\n");
        }
        html.append("</table>\n");
    }

    void img(Chart<?, ?> chart, String id) {
        if (Charts.empty(chart)) {
            html.append("<p id=")
                    .append(id)
                    .append(">")
                    .append(esc(chart.getTitle()))
                    .append(": no data.</p>\n");
            return;
        }
        html.append("<img id=")
                .append(id)
                .append(" alt=\"")
                .append(esc(chart.getTitle()))
                .append("\" src=\"")
                .append(Charts.dataUri(chart))
                .append("\">\n");
    }

    static int maxKey(Map<Integer, Long> m) {
        return m.keySet().stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    static String fmt(double v) {
        return String.format(Locale.ROOT, Math.abs(v) >= 100 ? "%.1f" : "%.3f", v);
    }

    static double r4(double v) {
        return Math.round(v * 10000) / 10000.0;
    }

    static double r3(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    /** Text for HTML, in an element or a quoted attribute: every value a report takes from a run directory goes through it. */
    static String esc(String s) {
        return s == null
                ? ""
                : s.replace("&", "&amp;")
                        .replace("<", "&lt;")
                        .replace(">", "&gt;")
                        .replace("\"", "&quot;")
                        .replace("'", "&#39;");
    }

    StringBuilder html() {
        return html;
    }
}
