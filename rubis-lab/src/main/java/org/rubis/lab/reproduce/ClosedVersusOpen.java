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
import org.rubis.analysis.report.Charts;
import org.rubis.client.config.BackendKind;
import org.rubis.client.process.ClientCommandLine;
import org.rubis.client.process.ServerChoice;

/**
 * Banga and Druschel (FINDINGS B.1, B.2): a closed population can never offer more load than the
 * server serves (each client waits for its reply), so overload cannot be tested that way; arrivals
 * generated against the clock (open, here hybrid sessions) keep coming past capacity. The server is
 * made slow on purpose (one event-loop thread, a fixed CPU demand per request) so its capacity is
 * known and low; the target request rate then goes from below to well above it, once with a closed
 * population sized for that rate (N = rate x mean think time) and once with session arrivals.
 */
final class ClosedVersusOpen implements Experiment {

    /** CPU demand per request on the single server thread: a capacity near 1 / 20 ms = 50 requests/s. */
    private static final int DEMAND_US = 20_000;

    private static final double NOMINAL_CAPACITY = 1e6 / DEMAND_US;
    /** TPC-W mean think time (7 s) times the think-scale used here. */
    private static final double THINK_SCALE = 0.1;

    private static final double MEAN_THINK_S = 7 * THINK_SCALE;
    private static final int SESSION_LENGTH = 5;

    @Override
    public String name() {
        return "closed-vs-open";
    }

    @Override
    public String title() {
        return "Closed versus open load";
    }

    @Override
    public String source() {
        return "Banga and Druschel, Measuring the capacity of a Web server (FINDINGS B.1, B.2)";
    }

    @Override
    public String published() {
        return "A closed set of clients never offers more than the server's capacity (clients wait for replies, the accept queue fills, TCP "
                + "back-off slows them further); only an open generator (S-Client) keeps offering load past capacity, where the achieved "
                + "rate flattens.";
    }

    @Override
    public String needsOwnServer() {
        return "needs a server of known, deliberately low capacity (the embedded server's CPU demand setting)";
    }

    @Override
    public Finding run(Lab lab) throws Exception {
        List<Double> loads = lab.pick(List.of(0.5, 2.0), List.of(0.25, 0.5, 1.0, 2.0, 3.0));
        Duration duration = lab.pick(Duration.ofSeconds(3), Duration.ofSeconds(8), Duration.ofSeconds(20));
        Duration closedRamp = lab.pick(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(2));
        List<double[]> closed = new ArrayList<>(); // {target, offered, achieved, users, seconds}
        List<double[]> open = new ArrayList<>();
        List<Path> runs = new ArrayList<>();
        ArrayNode rows = JsonNodeFactory.instance.arrayNode();
        double sessionLength = SESSION_LENGTH;
        for (double load : loads) {
            double target = load * NOMINAL_CAPACITY;
            int users = Math.max(1, (int) Math.round(target * MEAN_THINK_S));
            ClientCommandLine base = ClientCommandLine.run()
                    .thinkScale(THINK_SCALE)
                    .maxTransitions(SESSION_LENGTH)
                    .backend(BackendKind.DEDICATED)
                    .duration(duration)
                    .rampDown(Duration.ZERO)
                    .seed(1);
            ServerChoice slow = ServerChoice.DEFAULTS.eventThreads(1).demandMicros(DEMAND_US);
            ClientCommandLine closedLine =
                    base.users(users).rampUp(closedRamp).property("workload_up_ramp_slowdown_factor", "1");
            ClientRun c = lab.run(
                    name(),
                    String.format(Locale.ROOT, "closed-%.0f", target),
                    ClientSpec.of(closedLine).withServer(slow));
            double rate = target / sessionLength;
            ClientCommandLine openLine =
                    base.sessionRate(Math.round(rate * 1000) / 1000.0).rampUp(Duration.ZERO);
            ClientRun o = lab.run(
                    name(),
                    String.format(Locale.ROOT, "open-%.0f", target),
                    ClientSpec.of(openLine).withServer(slow));
            runs.add(c.dir());
            runs.add(o.dir());
            if (!c.ok() || !o.ok()) {
                return Finding.failed(
                        this,
                        "a run at " + Math.round(target) + " requests/s sent nothing; " + (c.ok() ? o : c).where(),
                        runs);
            }
            RunRates cr = RunRates.of(c);
            RunRates or = RunRates.of(o);
            if (open.isEmpty() && or.requestsPerSession() > 0) {
                sessionLength = or.requestsPerSession(); // measured below capacity: what a session asks for
            }
            // Open: what the arrivals ask for is sessions started x requests per session, whatever the server does.
            double openOffered = or.sessions() / or.seconds() * sessionLength;
            closed.add(new double[] {target, cr.offeredPerSecond(), cr.achievedPerSecond(), users, cr.seconds()});
            open.add(new double[] {target, openOffered, or.achievedPerSecond()});
            rows.addObject()
                    .put("target_rps", target)
                    .put("closed_users", users)
                    .put("closed_offered_rps", cr.offeredPerSecond())
                    .put("closed_achieved_rps", cr.achievedPerSecond())
                    .put("open_session_rate", rate)
                    .put("open_offered_rps", openOffered)
                    .put("open_sent_rps", or.offeredPerSecond())
                    .put("open_achieved_rps", or.achievedPerSecond())
                    .put("open_response_mean_ms", o.summary().run().mean())
                    .put("closed_response_mean_ms", c.summary().run().mean());
        }
        double capacity = highest(closed, open, 2);
        Figure fig = figure(lab, closed, open, capacity, loads);
        double[] closedTop = closed.get(closed.size() - 1);
        double[] openTop = open.get(open.size() - 1);
        double closedMaxOffered = closed.stream().mapToDouble(p -> p[1]).max().orElse(0);
        // A closed population sends only after a reply: in a window of T seconds it can have sent at most N requests
        // more than were
        // answered (each user's last one, still outstanding at the end). 10 % is left for the noise of the capacity
        // estimate.
        double cap = capacity;
        boolean closedCapped = closed.stream().allMatch(p -> p[1] <= 1.1 * cap + p[3] / p[4]);
        boolean openPast = openTop[1] >= 1.5 * capacity && openTop[2] <= 0.8 * openTop[1];
        String measured = String.format(
                Locale.ROOT,
                "capacity %.1f requests/s; at a target of %.0f/s the closed population offered %.1f/s "
                        + "(achieved %.1f), open arrivals offered %.1f/s (achieved %.1f)",
                capacity,
                closedTop[0],
                closedTop[1],
                closedTop[2],
                openTop[1],
                openTop[2]);
        String why = (closedCapped
                        ? "the closed population's offered rate never exceeded the capacity (it throttles itself)"
                        : "the closed population offered more than the capacity")
                + (openPast
                        ? "; open arrivals kept offering past capacity while the achieved rate fell below what was offered, as Banga and "
                                + "Druschel found"
                        : "; open arrivals did not reach past capacity with the achieved rate falling behind");
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        data.put("demand_us", DEMAND_US)
                .put("nominal_capacity_rps", NOMINAL_CAPACITY)
                .put("measured_capacity_rps", capacity)
                .put("requests_per_session", sessionLength)
                .put("closed_max_offered_rps", closedMaxOffered)
                .put("closed_capped", closedCapped)
                .put("open_top_offered_rps", openTop[1])
                .put("open_top_achieved_rps", openTop[2]);
        data.set("points", rows);
        return Finding.of(this, measured, Verdict.of(closedCapped && openPast), why, List.of(fig), data, runs);
    }

    /** Offered (x) against achieved (y) for both populations, with the diagonal and the measured capacity. */
    private static Figure figure(
            Lab lab, List<double[]> closed, List<double[]> open, double capacity, List<Double> loads)
            throws IOException {
        XYChart chart = Charts.xy(
                Figure.STYLE,
                "Offered versus achieved request rate",
                "offered request rate (requests/s)",
                "achieved request rate (requests/s)");
        Charts.addMarkedLine(
                chart,
                "closed population",
                closed.stream().map(p -> p[1]).toList(),
                closed.stream().map(p -> p[2]).toList());
        Charts.addMarkedLine(
                chart,
                "open (hybrid) arrivals",
                open.stream().map(p -> p[1]).toList(),
                open.stream().map(p -> p[2]).toList());
        double top = highest(closed, open, 1);
        Charts.addLine(chart, "achieved = offered", List.of(0.0, top), List.of(0.0, top));
        Charts.addLine(
                chart,
                String.format(Locale.ROOT, "measured capacity %.0f/s", capacity),
                List.of(0.0, top),
                List.of(capacity, capacity));
        return Figure.save(
                chart,
                lab.out(),
                "fig-closed-vs-open",
                "Each point is a run at a target rate from "
                        + loads.get(0) + "x to " + loads.get(loads.size() - 1) + "x the server's nominal capacity ("
                        + Math.round(NOMINAL_CAPACITY)
                        + " requests/s). Closed points pile up at or below capacity on the "
                        + "x axis: the population cannot offer more. Open points move right past it while their achieved "
                        + "rate stays flat.");
    }

    /** The largest value at {@code index} among both populations' points (0 when there are none). */
    private static double highest(List<double[]> closed, List<double[]> open, int index) {
        double top = 0;
        for (List<double[]> l : List.of(closed, open)) {
            for (double[] p : l) {
                top = Math.max(top, p[index]);
            }
        }
        return top;
    }
}
