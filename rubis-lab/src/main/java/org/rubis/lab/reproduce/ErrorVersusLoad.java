package org.rubis.lab.reproduce;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.XYChart;
import org.rubis.analysis.RunAnalysis;
import org.rubis.analysis.report.Charts;
import org.rubis.analysis.wire.WireCheck;
import org.rubis.client.config.BackendKind;
import org.rubis.client.config.ThreadModel;
import org.rubis.client.process.ClientCommandLine;

/**
 * Paper Fig. 3 (FINDINGS A.1): the client's error of the mean response time grows with the load it
 * generates when the client is slow (the paper's libgcj JVM; here an interpreter-only JVM stands in
 * for it), and stays small with a JIT and with an event loop (httperf). The error is the client's
 * mean minus the wire's mean for the same requests (packet capture); without the capture privilege
 * it is the client's mean minus the server's own service time (an upper bound of the wire error).
 */
final class ErrorVersusLoad implements Experiment {

    /** A client configuration whose error is plotted against N. */
    private record Variant(String label, String profile, BackendKind backend) {}

    private static final List<Variant> VARIANTS = List.of(
            new Variant("JIT, thread per user", "default", BackendKind.DEDICATED),
            new Variant("no JIT (-Xint), thread per user", "no-jit", BackendKind.DEDICATED),
            new Variant("JIT, event loop (netty)", "default", BackendKind.NETTY));

    @Override
    public String name() {
        return "error-vs-load";
    }

    @Override
    public String title() {
        return "Error versus load";
    }

    @Override
    public String source() {
        return "Hashemian, Krishnamurthy, Arlitt, Fig. 3 (FINDINGS A.1)";
    }

    @Override
    public String published() {
        return "RUBiS client on GNU libgcj: error of the mean +0.5 ms (1.07x) at 500 users, +150 ms (2.6x) at 4,000 users, the client at 60 % CPU "
                + "and the server 22 % busy; httperf: 10 to 40 us at every N.";
    }

    @Override
    public Finding run(Lab lab) throws Exception {
        List<Integer> ns = lab.pick(List.of(20, 100), List.of(20, 150), List.of(50, 200, 500, 1000, 2000, 4000));
        double think = lab.pick(0.1, 0.25);
        Map<Variant, List<double[]>> points = new LinkedHashMap<>(); // {N, error ms, client cpu cores}
        List<Path> runs = new ArrayList<>();
        ArrayNode rows = JsonNodeFactory.instance.arrayNode();
        String reference = null;
        for (Variant v : VARIANTS) {
            // The event loop is the flat reference line: two points at full scale, the highest N at quick scale.
            // At smoke scale only the interpreter-only client's line has two points.
            List<Integer> sizes = v.backend() != BackendKind.NETTY
                            && !(lab.smoke() && v.profile().equals("default"))
                    ? ns
                    : List.of(ns.get(lab.quick() ? ns.size() - 1 : 1), ns.get(ns.size() - 1)).stream()
                            .distinct()
                            .toList();
            for (int n : sizes) {
                ClientCommandLine client = ClientCommandLine.run()
                        .users(n)
                        .thinkScale(think)
                        .backend(v.backend())
                        .rampUp(lab.pick(Duration.ofSeconds(1), Duration.ofSeconds(5)))
                        .duration(lab.pick(Duration.ofSeconds(3), Duration.ofSeconds(4), Duration.ofSeconds(15)))
                        .rampDown(Duration.ZERO)
                        .seed(1)
                        .capture();
                if (v.backend() != BackendKind.NETTY) {
                    client = client.threads(ThreadModel.PLATFORM);
                }
                ClientSpec spec = ClientSpec.of(client).withProfile(v.profile());
                ClientRun r = lab.run(name(), v.profile() + "-" + v.backend() + "-" + n, spec);
                runs.add(r.dir());
                if (!r.ok()) {
                    return Finding.failed(
                            this, v.label() + " at N=" + n + ": no requests or no summary; " + r.where(), runs);
                }
                RunAnalysis a = r.analysis();
                WireCheck w = a.wire();
                double err;
                String ref;
                if (w != null
                        && w.groups.containsKey("all")
                        && w.groups.get("all").response.count() > 0) {
                    err = w.groups.get("all").response.meanUs() / 1000;
                    ref = "wire";
                } else if (a.server() != null && a.server().matched() > 0) {
                    err = a.server().absoluteErrorMs();
                    ref = "server log";
                } else {
                    return Finding.failed(
                            this,
                            v.label() + " at N=" + n
                                    + ": neither a capture nor a server log to measure the error against (" + r.note()
                                    + ")",
                            runs);
                }
                reference = reference == null || reference.equals(ref) ? ref : "wire or server log";
                double cores = r.summary().health().runCpuCores();
                points.computeIfAbsent(v, k -> new ArrayList<>()).add(new double[] {n, err, cores});
                rows.addObject()
                        .put("variant", v.label())
                        .put("users", n)
                        .put("error_ms", err)
                        .put("reference", ref)
                        .put("client_mean_ms", r.summary().run().mean())
                        .put("client_cpu_cores", cores)
                        .put("send_lateness_p99_ms", r.summary().health().runSendLatenessP99Ms())
                        .put("run", lab.out().relativize(r.dir()).toString());
            }
        }
        Figure fig = figure(lab, points, reference);
        double[] jitHi = last(points.get(VARIANTS.get(0)));
        double[] slowLo = points.get(VARIANTS.get(1)).get(0);
        double[] slowHi = last(points.get(VARIANTS.get(1)));
        double[] loopHi = last(points.get(VARIANTS.get(2)));
        boolean grows = slowHi[1] > slowLo[1];
        boolean slowWorst = slowHi[1] > jitHi[1] && slowHi[1] > loopHi[1];
        String measured = String.format(
                Locale.ROOT,
                "error of the mean (vs %s): no JIT %.3f ms at N=%d, %.3f ms at N=%d (client %.2f cores); "
                        + "JIT %.3f ms, event loop %.3f ms at N=%d",
                reference,
                slowLo[1],
                (int) slowLo[0],
                slowHi[1],
                (int) slowHi[0],
                slowHi[2],
                jitHi[1],
                loopHi[1],
                (int) jitHi[0]);
        boolean fastFlat = Math.max(jitHi[1], loopHi[1]) < Math.max(0.5, slowHi[1] / 2);
        String why = why(points, grows, slowWorst, fastFlat);
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        data.put("think_scale", think);
        data.set("points", rows);
        return Finding.of(this, measured, Verdict.of(grows && slowWorst && fastFlat), why, List.of(fig), data, runs);
    }

    /** Like the paper's Fig. 3: the error of the mean against N, one line per client. */
    private static Figure figure(Lab lab, Map<Variant, List<double[]>> points, String reference) throws IOException {
        XYChart c = Charts.xy(
                Figure.STYLE,
                "Error of the mean response time vs emulated users",
                "emulated users N",
                "client mean - " + reference + " mean (ms)");
        for (var e : points.entrySet()) {
            Charts.addMarkedLine(
                    c,
                    e.getKey().label(),
                    e.getValue().stream().map(p -> p[0]).toList(),
                    e.getValue().stream().map(p -> p[1]).toList());
        }
        return Figure.save(
                c,
                lab.out(),
                "fig-error-vs-load",
                "Like the paper's Fig. 3: the client's error of the mean against N, one line per client. The published error grows with N for "
                        + "the slow JVM and stays flat for httperf.");
    }

    /** Why the verdict: whether the interpreter-only client's error grew and was the largest, the others' small. */
    private static String why(Map<Variant, List<double[]>> points, boolean grows, boolean slowWorst, boolean fastFlat) {
        double[] jitHi = last(points.get(VARIANTS.get(0)));
        double[] jitLo = points.get(VARIANTS.get(0)).get(0);
        double[] slowHi = last(points.get(VARIANTS.get(1)));
        double[] loopHi = last(points.get(VARIANTS.get(2)));
        return (grows
                        ? "the interpreter-only client's error grows with N" + (slowWorst ? " and" : ", but")
                        : String.format(
                                Locale.ROOT,
                                "the interpreter-only client's error did not grow with N (at N=%d it used %.2f cores; libgcj's "
                                        + "grew as the client neared saturation, 60 %% CPU)%s",
                                (int) slowHi[0],
                                slowHi[2],
                                slowWorst ? "; it" : ", and it"))
                + (slowWorst
                        ? " is the largest at the highest N, as the slow libgcj client's was"
                        : " is not the largest at the highest N")
                + (fastFlat
                        ? "; the JIT and event-loop clients' errors stay small, as httperf's did"
                        : String.format(
                                Locale.ROOT,
                                "; the JIT and event-loop clients' errors are not small either (%.1f and %.1f ms at N=%d, from "
                                        + "%.1f ms at N=%d for the JIT): the machine, not the client's design, limited them (see each run's client-health "
                                        + "verdict)",
                                jitHi[1],
                                loopHi[1],
                                (int) jitHi[0],
                                jitLo[1],
                                (int) jitLo[0]));
    }

    private static double[] last(List<double[]> l) {
        return l.get(l.size() - 1);
    }
}
