package org.rubis.lab.reproduce;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.XYChart;
import org.rubis.analysis.RunAnalysis;
import org.rubis.analysis.report.Charts;
import org.rubis.client.config.BackendKind;
import org.rubis.client.process.ClientCommandLine;

/**
 * Gunther, Mohan and Brady (FINDINGS C.2, C.3). Principle A: to emulate an open arrival stream with
 * N threads, scale the think time Z with N so that N/Z stays constant. Principle B: check it: the
 * inter-arrival times of an open stream have a coefficient of variation (CoV) near 1. Closed runs at
 * growing N with {@code --think-scale} proportional to N, beside hybrid (open session) arrivals at the
 * same request rate; the CoV of request inter-arrival times is read from each run.
 */
final class PrinciplesAB implements Experiment {

    /** Think-scale at N = 5: Z = 7 s x 0.02 = 0.14 s, so N/Z is about 36 requests/s at every N. */
    private static final double SCALE_AT_5 = 0.02;

    private static final int SESSION_LENGTH = 10;
    /** N from which the paper's JMeter runs' CoV settled near 1 ("from about 50 threads"). */
    static final int SETTLED_FROM = 50;

    @Override
    public String name() {
        return "principles-ab";
    }

    @Override
    public String title() {
        return "Principles A and B";
    }

    @Override
    public String source() {
        return "Gunther, Mohan, Brady, Principles A and B (FINDINGS C.2, C.3)";
    }

    @Override
    public String published() {
        return "JMeter with 200 threads and think time scaled to keep N/Z constant: inter-arrival CoV 0.98 to 1.17, settling near 1 from about "
                + "50 threads; a closed, synchronised workload gives less than 1.";
    }

    @Override
    public Finding run(Lab lab) throws Exception {
        List<Integer> ns = lab.pick(List.of(SETTLED_FROM), List.of(5, SETTLED_FROM), List.of(5, 25, 100, 200));
        Duration duration = lab.pick(Duration.ofSeconds(3), Duration.ofSeconds(6), Duration.ofSeconds(20));
        List<double[]> closed = new ArrayList<>(); // {N, CoV, achieved / (N/Z)}
        List<double[]> hybrid = new ArrayList<>();
        List<Path> runs = new ArrayList<>();
        ArrayNode rows = JsonNodeFactory.instance.arrayNode();
        for (int n : ns) {
            double scale = SCALE_AT_5 * n / 5.0;
            double z = 7 * scale;
            double rate = n / z;
            ClientCommandLine base = ClientCommandLine.run()
                    .thinkScale(Math.round(scale * 1e4) / 1e4)
                    .maxTransitions(SESSION_LENGTH)
                    .backend(BackendKind.DEDICATED)
                    .duration(duration)
                    .rampDown(Duration.ZERO)
                    .seed(1);
            ClientRun c =
                    lab.run(name(), "closed-" + n, ClientSpec.of(base.users(n).rampUp(Duration.ZERO)));
            // Open sessions of SESSION_LENGTH requests last about SESSION_LENGTH x Z: started empty, their
            // population (and request rate) grows for that long. An up ramp of that length with no slowdown
            // lets it fill before the measured phase, as a closed population of N is full from the start. Smoke scale
            // fills a third of the way (its verdict is not evidence; the ramp would be most of its time).
            long fillMs = Math.round(SESSION_LENGTH * z * 1000 * lab.pick(1 / 3.0, 1.0, 1.0));
            ClientCommandLine openLine = base.sessionRate(Math.round(rate / SESSION_LENGTH * 1000) / 1000.0)
                    .rampUp(Duration.ofMillis(fillMs))
                    .property("workload_up_ramp_slowdown_factor", "1");
            ClientRun h = lab.run(name(), "hybrid-" + n, ClientSpec.of(openLine));
            runs.add(c.dir());
            runs.add(h.dir());
            if (!c.ok() || !h.ok()) {
                return Finding.failed(this, "a run at N=" + n + " sent nothing; " + (c.ok() ? h : c).where(), runs);
            }
            RunAnalysis ca = c.analysis();
            RunAnalysis ha = h.analysis();
            double cAchieved = RunRates.of(c).offeredPerSecond();
            double hAchieved = RunRates.of(h).offeredPerSecond();
            closed.add(new double[] {n, ca.requestInterArrival().cov(), cAchieved / rate});
            hybrid.add(new double[] {n, ha.requestInterArrival().cov(), hAchieved / rate});
            rows.addObject()
                    .put("users", n)
                    .put("think_scale", scale)
                    .put("n_over_z", rate)
                    .put("closed_cov", ca.requestInterArrival().cov())
                    .put("closed_rate", cAchieved)
                    .put("hybrid_cov", ha.requestInterArrival().cov())
                    .put("hybrid_rate", hAchieved)
                    .put("closed_session_cov", ca.sessions().interArrival().cov())
                    .put("hybrid_session_cov", ha.sessions().interArrival().cov());
        }
        List<Figure> figs = figures(lab, ns, closed, hybrid);
        double[] cHi = closed.get(closed.size() - 1);
        // The paper's claim: the CoV settles near 1 from about 50 threads. Below that, few live open
        // sessions make a bursty stream (their number varies), and a closed one may be synchronised.
        boolean closedNear1 = nearOneFrom(closed, SETTLED_FROM);
        boolean hybridNear1 = nearOneFrom(hybrid, SETTLED_FROM);
        String measured = String.format(
                Locale.ROOT,
                "request inter-arrival CoV: closed %s; hybrid %s (N=%s); closed rate %.2f of N/Z at N=%d",
                covs(closed),
                covs(hybrid),
                String.join(
                        ", ",
                        closed.stream().map(p -> String.valueOf((int) p[0])).toList()),
                cHi[2],
                (int) cHi[0]);
        String why = why(closed, hybrid, closedNear1, hybridNear1);
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        data.put("think_scale_at_5_users", SCALE_AT_5);
        data.set("points", rows);
        return Finding.of(this, measured, Verdict.of(hybridNear1 && closedNear1), why, figs, data, runs);
    }

    /** Principle B's chart (the CoV against N) and Principle A's (the achieved rate as a fraction of N/Z). */
    private static List<Figure> figures(Lab lab, List<Integer> ns, List<double[]> closed, List<double[]> hybrid)
            throws IOException {
        XYChart cov = Charts.xy(
                Figure.STYLE,
                "Request inter-arrival CoV with N/Z constant",
                "threads / emulated users N",
                "coefficient of variation");
        cov.getStyler().setXAxisLogarithmic(true);
        cov.getStyler().setYAxisMin(0.0);
        Charts.addMarkedLine(
                cov,
                "closed, Z scaled with N",
                closed.stream().map(p -> p[0]).toList(),
                closed.stream().map(p -> p[1]).toList());
        Charts.addMarkedLine(
                cov,
                "hybrid (open sessions)",
                hybrid.stream().map(p -> p[0]).toList(),
                hybrid.stream().map(p -> p[1]).toList());
        Charts.addLine(
                cov,
                "Poisson (CoV = 1)",
                List.of((double) ns.get(0), (double) ns.get(ns.size() - 1)),
                List.of(1.0, 1.0));
        XYChart rate = Charts.xy(
                Figure.STYLE,
                "Principle A: request rate over N/Z",
                "threads / emulated users N",
                "request rate / (N/Z)");
        rate.getStyler().setXAxisLogarithmic(true);
        rate.getStyler().setYAxisMin(0.0);
        Charts.addMarkedLine(
                rate,
                "closed, Z scaled with N",
                closed.stream().map(p -> p[0]).toList(),
                closed.stream().map(p -> p[2]).toList());
        Charts.addMarkedLine(
                rate,
                "hybrid (open sessions)",
                hybrid.stream().map(p -> p[0]).toList(),
                hybrid.stream().map(p -> p[2]).toList());
        return List.of(
                Figure.save(
                        cov,
                        lab.out(),
                        "fig-principle-b",
                        "Principle B: the CoV of request inter-arrival times against N (log x). An open "
                                + "stream sits near 1 (dashed line); the paper's closed JMeter runs settled near 1 from about 50 threads."),
                Figure.save(
                        rate,
                        lab.out(),
                        "fig-principle-a",
                        "Principle A: the achieved request rate as a fraction of N/Z. With Z scaled with N "
                                + "the closed rate approaches N/Z (1.0) as the response time becomes small next to Z."));
    }

    /** Why the verdict: the settled CoVs, then what the smallest N shows. */
    private static String why(List<double[]> closed, List<double[]> hybrid, boolean closedNear1, boolean hybridNear1) {
        double[] cLo = closed.get(0);
        double[] hLo = hybrid.get(0);
        return String.format(
                        Locale.ROOT,
                        "with Z scaled to keep N/Z constant, from N=%d on the closed workload's CoV is %s and the open "
                                + "session arrivals' %s, as Principle B expects once the stream is made of many users",
                        SETTLED_FROM,
                        closedNear1 ? "near 1" : "not near 1",
                        hybridNear1 ? "near 1" : "not near 1")
                + (hLo[1] > 1.25
                        ? String.format(
                                Locale.ROOT,
                                "; at N=%d the open CoV is %.2f: a few live sessions, whose number varies, bunch "
                                        + "the requests",
                                (int) hLo[0],
                                hLo[1])
                        : "")
                + (cLo[1] < 0.8
                        ? String.format(
                                Locale.ROOT,
                                "; at N=%d the closed CoV is %.2f, below 1 as for a synchronised workload",
                                (int) cLo[0],
                                cLo[1])
                        : cLo[1] <= 1.25
                                ? String.format(
                                        Locale.ROOT,
                                        "; RUBiS's exponential think times keep even N=%d near 1 (%.2f): its closed "
                                                + "stream is not synchronised",
                                        (int) cLo[0],
                                        cLo[1])
                                : String.format(
                                        Locale.ROOT,
                                        "; at N=%d the closed CoV is %.2f, above 1: slow responses bunch the requests (see the runs' "
                                                + "response times)",
                                        (int) cLo[0],
                                        cLo[1]));
    }

    /** Every point {N, CoV, ...} with N >= from has a CoV within 0.8..1.25 (and there is at least one). */
    static boolean nearOneFrom(List<double[]> points, int from) {
        List<double[]> settled = points.stream().filter(p -> p[0] >= from).toList();
        return !settled.isEmpty() && settled.stream().allMatch(p -> p[1] >= 0.8 && p[1] <= 1.25);
    }

    private static String covs(List<double[]> points) {
        return String.join(
                ", ",
                points.stream()
                        .map(p -> String.format(Locale.ROOT, "%.2f", p[1]))
                        .toList());
    }
}
