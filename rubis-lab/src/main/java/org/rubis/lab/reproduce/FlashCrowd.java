package org.rubis.lab.reproduce;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.CategoryChart;
import org.rubis.analysis.report.Charts;
import org.rubis.client.config.BackendKind;
import org.rubis.client.config.ServerModel;
import org.rubis.client.process.ClientCommandLine;
import org.rubis.client.process.ServerChoice;

/**
 * Paper Table II (FINDINGS A.5): with a flash crowd of session arrivals, the two generators rank the
 * servers differently. One connection per session (httperf; our {@code dedicated}) overwhelms a
 * prefork server's worker pool during the burst, so its mean response time jumps; the original
 * client's few shared connections ({@code legacy}) never exceed the pool, so it hides the prefork
 * server's weakness. Each server model runs both backends with a non-bursty and a bursty schedule.
 */
final class FlashCrowd implements Experiment {

    @Override
    public String name() {
        return "flash-crowd";
    }

    @Override
    public String title() {
        return "Flash-crowd inversion";
    }

    @Override
    public String source() {
        return "Hashemian, Krishnamurthy, Arlitt, Table II (FINDINGS A.5)";
    }

    @Override
    public String published() {
        return "Apache (prefork) mean response time without and with the burst: httperf 11.5 and 58.6 ms (5.1x), RUBiS client 4.3 and 4.6 ms (1.07x). "
                + "Lighttpd (event): httperf 4.06 and 4.64 ms, RUBiS client 11.0 and 12.4 ms.";
    }

    @Override
    public String needsOwnServer() {
        return "needs the embedded server's event and prefork models";
    }

    @Override
    public Finding run(Lab lab) throws Exception {
        Path dir = lab.out().resolve(name());
        Files.createDirectories(dir);
        // Sessions of about 10 requests, 0.7 s mean think time: a few concurrent sessions at the base rate (well under
        // prefork's 15
        // workers), over a hundred during the burst.
        int duration = lab.pick(4, 10, 40);
        Path flat = dir.resolve("flat.txt");
        Path burst = dir.resolve("burst.txt");
        Files.writeString(flat, lab.pick("0 1.5\n", "0 1.5\n"));
        Files.writeString(burst, lab.pick("0 1.5\n1 25\n3 1.5\n", "0 1.5\n3 25\n6 1.5\n", "0 1.5\n15 20\n30 1.5\n"));
        List<ServerModel> servers =
                lab.pick(List.of(ServerModel.PREFORK), List.of(ServerModel.EVENT, ServerModel.PREFORK));
        Map<String, double[]> means = new LinkedHashMap<>(); // "server/backend" -> {flat, burst}
        List<Path> runs = new ArrayList<>();
        ArrayNode rows = JsonNodeFactory.instance.arrayNode();
        for (ServerModel server : servers) {
            for (BackendKind backend : List.of(BackendKind.LEGACY, BackendKind.DEDICATED)) {
                double[] m = new double[2];
                for (int i = 0; i < 2; i++) {
                    Path schedule = i == 0 ? flat : burst;
                    ClientCommandLine client = ClientCommandLine.run()
                            .rateSchedule(schedule)
                            .maxTransitions(10)
                            .thinkScale(0.1)
                            .backend(backend)
                            .duration(Duration.ofSeconds(duration))
                            .rampUp(Duration.ZERO)
                            .rampDown(Duration.ZERO)
                            .seed(1);
                    ClientSpec spec = ClientSpec.of(client).withServer(ServerChoice.DEFAULTS.model(server));
                    ClientRun r = lab.run(name(), server + "-" + backend + (i == 0 ? "-flat" : "-burst"), spec);
                    runs.add(r.dir());
                    if (!r.ok()) {
                        return Finding.failed(
                                this, server + "/" + backend + ": no requests or no summary; " + r.where(), runs);
                    }
                    m[i] = r.summary().run().mean();
                    rows.addObject()
                            .put("server", server.label())
                            .put("backend", backend.label())
                            .put("schedule", i == 0 ? "non-bursty" : "bursty")
                            .put("mean_ms", m[i])
                            .put("p99_ms", r.summary().run().p99())
                            .put("requests", r.summary().requests())
                            .put(
                                    "server_max_concurrent_connections",
                                    r.serverStats() == null
                                            ? -1
                                            : r.serverStats()
                                                    .path("max_concurrent_connections")
                                                    .asLong());
                }
                means.put(server + "/" + backend, m);
            }
        }
        Figure fig = figure(lab, means);
        String measured = measured(means);
        double legacyRatio = ratio(means.get("prefork/legacy"));
        double dedicatedRatio = ratio(means.get("prefork/dedicated"));
        boolean holds = dedicatedRatio > 1.5 * legacyRatio && dedicatedRatio > 1.5;
        String why = why(legacyRatio, dedicatedRatio, holds);
        if (lab.quick()) {
            why += "; quick scale runs the prefork server only (full scale adds the event server)";
        }
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        data.put("flat_schedule", Files.readString(flat).trim())
                .put("burst_schedule", Files.readString(burst).trim())
                .put("duration_s", duration);
        data.set("runs", rows);
        return Finding.of(this, measured, Verdict.of(holds), why, List.of(fig), data, runs);
    }

    /** Like Table II: the mean response time per server model and backend, without and with the burst. */
    private static Figure figure(Lab lab, Map<String, double[]> means) throws IOException {
        CategoryChart c = Charts.bars(
                Figure.STYLE,
                "Mean response time without and with a flash crowd",
                "server model / backend",
                "mean response time (ms)");
        List<String> keys = new ArrayList<>(means.keySet());
        c.addSeries("non-bursty", keys, keys.stream().map(k -> means.get(k)[0]).toList());
        c.addSeries("bursty", keys, keys.stream().map(k -> means.get(k)[1]).toList());
        return Figure.save(
                c,
                lab.out(),
                "fig-flash-crowd",
                "Like Table II: mean response time per server model and backend, "
                        + "non-bursty against bursty arrivals. dedicated plays httperf (a connection per session), legacy the original client.");
    }

    private static String measured(Map<String, double[]> means) {
        StringBuilder measured = new StringBuilder();
        for (var e : means.entrySet()) {
            measured.append(String.format(
                    Locale.ROOT,
                    "%s%s: %.2f and %.2f ms (%.2fx)",
                    measured.isEmpty() ? "" : "; ",
                    e.getKey(),
                    e.getValue()[0],
                    e.getValue()[1],
                    ratio(e.getValue())));
        }
        return measured.toString();
    }

    private static String why(double legacyRatio, double dedicatedRatio, boolean holds) {
        return holds
                ? String.format(
                        Locale.ROOT,
                        "on the prefork server the burst raised dedicated's mean %.1fx but legacy's only %.2fx: "
                                + "the shared connections hide the worker pool's limit, as the RUBiS client hid Apache's",
                        dedicatedRatio,
                        legacyRatio)
                : String.format(
                        Locale.ROOT,
                        "on the prefork server the burst raised dedicated's mean %.2fx and legacy's %.2fx: the inversion did not "
                                + "show (the burst did not exhaust the worker pool here)",
                        dedicatedRatio,
                        legacyRatio);
    }

    private static double ratio(double[] m) {
        return m[0] > 0 ? m[1] / m[0] : Double.NaN;
    }
}
