package org.rubis.lab.reproduce;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.knowm.xchart.XYChart;
import org.rubis.analysis.RunAnalysis;
import org.rubis.analysis.io.CsvStream;
import org.rubis.analysis.report.Charts;
import org.rubis.analysis.wire.WireCheck;
import org.rubis.client.config.BackendKind;
import org.rubis.client.process.ClientCommandLine;
import org.rubis.format.run.Phase;
import org.rubis.format.run.RunFiles;

/**
 * Paper Figs. 7, 8, 10, 11 (FINDINGS A.4): the original client's {@code URL.openStream()} shares a
 * few keep-alive connections among all users, so the server sees far fewer concurrent connections,
 * each carrying far more requests, than real users (one connection per session) would open. The same
 * workload runs with the {@code legacy} and the {@code dedicated} backend; the connections are
 * counted by the server (connections.csv) and on the wire (packet capture).
 */
final class ConnectionSharing implements Experiment {

    @Override
    public String name() {
        return "connection-sharing";
    }

    @Override
    public String title() {
        return "Connection sharing";
    }

    @Override
    public String source() {
        return "Hashemian, Krishnamurthy, Arlitt, Figs. 7, 8, 10, 11 (FINDINGS A.4)";
    }

    @Override
    public String published() {
        return "At 2,000 users: at most 75 (libgcj) or 250 (HotSpot) concurrent connections instead of 2,000; 2,912 connections in all; up to "
                + "1,000 requests on one connection instead of 50 per session. httperf: 2,000 connections of 50 requests.";
    }

    /** What one backend's run showed. */
    private record Side(
            String backend,
            ClientRun run,
            int maxOpen,
            int connections,
            int maxRequests,
            double meanRequests,
            long wireConnections,
            List<double[]> series,
            Map<Integer, Long> perConnection) {}

    @Override
    public Finding run(Lab lab) throws Exception {
        int n = lab.pick(100, 500);
        List<Side> sides = new ArrayList<>();
        List<Path> runs = new ArrayList<>();
        for (BackendKind backend : List.of(BackendKind.LEGACY, BackendKind.DEDICATED)) {
            ClientCommandLine client = ClientCommandLine.run()
                    .users(n)
                    .thinkScale(0.5)
                    .backend(backend)
                    .rampUp(lab.pick(Duration.ofSeconds(3), Duration.ofSeconds(10)))
                    .duration(lab.pick(Duration.ofSeconds(3), Duration.ofSeconds(6), Duration.ofSeconds(30)))
                    .rampDown(Duration.ZERO)
                    .seed(1)
                    .capture();
            ClientRun r = lab.run(name(), backend + "-" + n, ClientSpec.of(client));
            runs.add(r.dir());
            if (!r.ok()) {
                return Finding.failed(this, backend + ": no requests or no summary; " + r.where(), runs);
            }
            sides.add(side(backend.label(), r, lab.ownServer()));
        }
        Side legacy = sides.get(0);
        Side dedicated = sides.get(1);
        String from = lab.ownServer() ? "server's connections.csv" : "client's log";
        XYChart over = Charts.xy(
                Figure.STYLE,
                "Concurrent connections over time (" + n + " users)",
                "seconds since the first connection",
                "connections open");
        XYChart per =
                Charts.xy(Figure.STYLE, "Requests per connection", "requests carried by a connection", "connections");
        per.getStyler().setXAxisLogarithmic(true);
        per.getStyler().setYAxisLogarithmic(true);
        for (Side s : sides) {
            Charts.addLine(
                    over,
                    s.backend(),
                    s.series().stream().map(p -> p[0]).toList(),
                    s.series().stream().map(p -> p[1]).toList());
            Charts.addMarkedLine(
                    per,
                    s.backend(),
                    s.perConnection().keySet().stream()
                            .map(Integer::doubleValue)
                            .toList(),
                    s.perConnection().values().stream().map(Long::doubleValue).toList());
        }
        List<Figure> figs = List.of(
                Figure.save(
                        over,
                        lab.out(),
                        "fig-connections-over-time",
                        "Like Figs. 7 and 8: connections open at each instant (from the " + from
                                + "). legacy shares a few; dedicated holds one per active session."),
                Figure.save(
                        per,
                        lab.out(),
                        "fig-requests-per-connection",
                        "Like Figs. 10 and 11: how many connections carried how many requests "
                                + "(log-log). legacy's few connections carry hundreds of requests each."));
        boolean fewer = legacy.maxOpen() * 2 < dedicated.maxOpen();
        boolean longer = legacy.maxRequests() > dedicated.maxRequests();
        String measured = measured(n, legacy, dedicated);
        String why = (fewer
                        ? "legacy's concurrent connections are a fraction of dedicated's"
                        : "legacy's concurrent connections are not far below dedicated's")
                + (longer
                        ? ", and its busiest connection carries more requests than any session's own connection: the JDK's keep-alive cache "
                                + "shares connections among users, as in the paper"
                        : ", but its connections do not carry more requests than dedicated's");
        ObjectNode data = data(n, from, sides);
        return Finding.of(this, measured, Verdict.of(fewer && longer), why, figs, data, runs);
    }

    private static String measured(int n, Side legacy, Side dedicated) {
        return String.format(
                Locale.ROOT,
                "%d users: legacy at most %d concurrent connections, %d in all, up to %d requests on one "
                        + "(mean %.1f); dedicated at most %d concurrent, %d in all, up to %d requests on one (mean %.1f)%s",
                n,
                legacy.maxOpen(),
                legacy.connections(),
                legacy.maxRequests(),
                legacy.meanRequests(),
                dedicated.maxOpen(),
                dedicated.connections(),
                dedicated.maxRequests(),
                dedicated.meanRequests(),
                legacy.wireConnections() >= 0 && dedicated.wireConnections() >= 0
                        ? String.format(
                                Locale.ROOT,
                                "; on the wire: %d and %d connections",
                                legacy.wireConnections(),
                                dedicated.wireConnections())
                        : "");
    }

    private static ObjectNode data(int n, String from, List<Side> sides) {
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        data.put("users", n).put("source", from);
        for (Side s : sides) {
            data.putObject(s.backend())
                    .put("max_concurrent_connections", s.maxOpen())
                    .put("connections", s.connections())
                    .put("max_requests_per_connection", s.maxRequests())
                    .put("mean_requests_per_connection", s.meanRequests())
                    .put("wire_connections", s.wireConnections())
                    .put(
                            "server_max_concurrent_connections",
                            s.run().serverStats() == null
                                    ? -1
                                    : s.run()
                                            .serverStats()
                                            .path("max_concurrent_connections")
                                            .asLong());
        }
        return data;
    }

    /** The run phase's first and last send instants (epoch ns), from the client's log. */
    private static long[] runWindow(ClientRun r) {
        long[] w = {Long.MAX_VALUE, Long.MIN_VALUE};
        new CsvStream(RunFiles.requests(r.dir())).forEach(List.of("phase", "send_epoch_ns"), row -> {
            if (row.get("phase").equals(Phase.RUN.label())) {
                long t = row.getLong("send_epoch_ns");
                w[0] = Math.min(w[0], t);
                w[1] = Math.max(w[1], t);
            }
        });
        return w;
    }

    private static Side side(String backend, ClientRun r, boolean ownServer) {
        RunAnalysis a = r.analysis();
        WireCheck w = a.wire();
        long wire = w == null ? -1 : w.wireConnectionsWithRequests();
        if (ownServer) {
            ConnectionTimeline t = ConnectionTimeline.read(r.dir());
            long reqs = t.requestsPerConnection.entrySet().stream()
                    .mapToLong(e -> e.getKey() * e.getValue())
                    .sum();
            // The run phase only: every user's first request starts at once, so legacy opens a connection per user at
            // the very start
            // (the JDK's cache then keeps only a few); the paper's figures are of the steady state.
            long[] window = runWindow(r);
            return new Side(
                    backend,
                    r,
                    t.maxOpen(window[0], window[1]),
                    t.connections(),
                    t.maxRequests,
                    t.connections() == 0 ? 0 : (double) reqs / t.connections(),
                    wire,
                    t.series(250),
                    t.requestsPerConnection);
        }
        // A target we did not start: the client's own view of its connections.
        Map<Integer, Long> per = new TreeMap<>(a.connections().requestsPerConnection());
        long reqs = per.entrySet().stream()
                .mapToLong(e -> e.getKey() * e.getValue())
                .sum();
        long t0 = a.connections().concurrent().isEmpty()
                ? 0
                : a.connections().concurrent().firstKey();
        List<double[]> series = a.connections().concurrent().entrySet().stream()
                .map(e -> new double[] {e.getKey() - t0, e.getValue()})
                .toList();
        long[] window = runWindow(r);
        int max = a
                .connections()
                .concurrent()
                .subMap(window[0] / 1_000_000_000L, true, window[1] / 1_000_000_000L, true)
                .values()
                .stream()
                .mapToInt(Integer::intValue)
                .max()
                .orElse(0);
        int conns = a.connections().distinct();
        return new Side(
                backend,
                r,
                max,
                conns,
                per.keySet().stream().mapToInt(Integer::intValue).max().orElse(0),
                conns == 0 ? 0 : (double) reqs / conns,
                wire,
                series,
                per);
    }
}
