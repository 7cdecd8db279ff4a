package org.rubis.lab.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The rounds of {@code bench rate} and what they say together. One round per client is not enough on a
 * shared VM: the same client's CPU per request moves by 0.5 us or more from one minute to the next, as
 * much as the gap between netty and wrk. The clients run in turn, so each round's netty and wrk share a
 * minute: the ratio within a round cancels most of the host's drift, and its median over the rounds is
 * the figure to quote. Each client's median and range are given beside it.
 */
final class RateRounds {

    static final String NETTY = "rubis-client netty (log on)";
    static final String WRK = "wrk -t1";
    static final String HTTPERF = "httperf --hog";
    static final String HEADER = String.format(
            Locale.ROOT,
            "%-27s %12s %14s %13s %12s %14s  %s",
            "client",
            "requests/s",
            "CPU us/request",
            "kernel us/req",
            "fixed cores",
            "gross us/req",
            "verdict");

    /**
     * One client's figures in one round; {@code note} set (and the figures NaN) when it did not run or gave no figures.
     *
     * @param usPerRequest CPU per request, fixed cost out (the comparison's figure)
     * @param grossUs      all its run-phase CPU over its requests
     * @param byThread     the rubis client's CPU per request by thread role, or null (wrk, httperf)
     * @param verdict      the rubis client's run's verdict word ({@code OK}, {@code SUSPECT}...), {@code -} for a tool
     */
    record Row(
            String client,
            double rps,
            double usPerRequest,
            double kernelUs,
            double fixedCores,
            double grossUs,
            String byThread,
            String note,
            String verdict) {

        /** A tool without samplers (wrk, httperf): its whole CPU, user and system seconds, over its requests. */
        static Row tool(String client, double rps, double userS, double systemS, long requests) {
            if (requests <= 0) {
                return missing(client, "no request completed");
            }
            double us = (userS + systemS) * 1e6 / requests;
            return new Row(client, rps, us, systemS * 1e6 / requests, Double.NaN, us, null, null, "-");
        }

        static Row missing(String client, String note) {
            return new Row(client, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, null, note, "-");
        }

        boolean measured() {
            return note == null && !Double.isNaN(usPerRequest);
        }

        String text() {
            if (note != null) {
                return String.format(Locale.ROOT, "%-27s %s", client, note);
            }
            return String.format(
                    Locale.ROOT,
                    "%-27s %12.0f %14s %13s %12s %14s  %s",
                    client,
                    rps,
                    f(usPerRequest, "%.1f"),
                    f(kernelUs, "%.1f"),
                    Double.isNaN(fixedCores) ? "-" : f(fixedCores, "%.4f"),
                    f(grossUs, "%.1f"),
                    verdict);
        }

        private static String f(double v, String format) {
            return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, format, v);
        }
    }

    private final List<List<Row>> rounds = new ArrayList<>();

    void add(List<Row> round) {
        rounds.add(List.copyOf(round));
    }

    /** A client's CPU per request in each round it was measured in, in round order. */
    double[] usPerRequest(String client) {
        return rounds.stream()
                .flatMap(List::stream)
                .filter(r -> r.client().equals(client) && r.measured())
                .mapToDouble(Row::usPerRequest)
                .toArray();
    }

    /** netty's CPU per request over wrk's, in each round where both were measured. */
    double[] nettyOverWrk() {
        return nettyAndWrk().stream()
                .filter(p -> p[1].usPerRequest() > 0)
                .mapToDouble(p -> p[0].usPerRequest() / p[1].usPerRequest())
                .toArray();
    }

    /**
     * netty's CPU per request minus wrk's in each round where both were measured, split into its user part (index 0)
     * and its kernel part (index 1): the kernel's is the loopback TCP work both must do, so a gap in it and a gap in
     * the user part call for different remedies.
     */
    double[][] nettyMinusWrk() {
        return nettyAndWrk().stream()
                .filter(p -> !Double.isNaN(p[0].kernelUs()) && !Double.isNaN(p[1].kernelUs()))
                .map(p -> new double[] {
                    (p[0].usPerRequest() - p[0].kernelUs()) - (p[1].usPerRequest() - p[1].kernelUs()),
                    p[0].kernelUs() - p[1].kernelUs()
                })
                .toArray(double[][]::new);
    }

    /** netty's row and wrk's, from each round where both were measured: the comparisons are within rounds only. */
    private List<Row[]> nettyAndWrk() {
        List<Row[]> pairs = new ArrayList<>();
        for (List<Row> round : rounds) {
            Row netty = find(round, NETTY);
            Row wrk = find(round, WRK);
            if (netty != null && wrk != null && netty.measured() && wrk.measured()) {
                pairs.add(new Row[] {netty, wrk});
            }
        }
        return pairs;
    }

    private static Row find(List<Row> round, String client) {
        return round.stream().filter(r -> r.client().equals(client)).findFirst().orElse(null);
    }

    /** The median of {@code v} (the mean of the middle two for an even count); NaN when empty. */
    static double median(double[] v) {
        if (v.length == 0) {
            return Double.NaN;
        }
        double[] s = v.clone();
        Arrays.sort(s);
        int m = s.length / 2;
        return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
    }

    /** The lines printed after the last round. */
    List<String> summary() {
        List<String> lines = new ArrayList<>();
        lines.add(
                String.format(Locale.ROOT, "over %d rounds, CPU us/request: median (lowest..highest)", rounds.size()));
        Map<String, double[]> by = new LinkedHashMap<>();
        for (String c : List.of(NETTY, WRK, HTTPERF)) {
            by.put(c, usPerRequest(c));
        }
        by.forEach((client, v) -> lines.add(
                v.length == 0
                        ? String.format(Locale.ROOT, "  %-27s not measured", client)
                        : String.format(
                                Locale.ROOT,
                                "  %-27s %5.1f (%.1f..%.1f), %d round%s",
                                client,
                                median(v),
                                Arrays.stream(v).min().getAsDouble(),
                                Arrays.stream(v).max().getAsDouble(),
                                v.length,
                                v.length == 1 ? "" : "s")));
        double[] ratio = nettyOverWrk();
        if (ratio.length > 0) {
            StringBuilder each = new StringBuilder();
            for (double r : ratio) {
                each.append(each.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.2f", r));
            }
            double m = median(ratio);
            lines.add(String.format(
                    Locale.ROOT,
                    "  netty / wrk, within each round: %s; median %.2f (%s)",
                    each,
                    m,
                    m <= 1 ? "at or below wrk" : "above wrk"));
        }
        double[][] gap = nettyMinusWrk();
        if (gap.length > 0) {
            double user = median(Arrays.stream(gap).mapToDouble(g -> g[0]).toArray());
            double kernel = median(Arrays.stream(gap).mapToDouble(g -> g[1]).toArray());
            lines.add(String.format(
                    Locale.ROOT,
                    "  netty - wrk, within each round (median): user %+.1f us, kernel %+.1f us a request",
                    user,
                    kernel));
        }
        return lines;
    }
}
