package org.rubis.client.report;

import static org.rubis.client.report.SummaryFormat.cell;
import static org.rubis.client.report.SummaryFormat.figures;
import static org.rubis.client.report.SummaryFormat.header;
import static org.rubis.client.report.SummaryFormat.line;
import static org.rubis.client.report.SummaryFormat.row;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.rubis.client.workload.Interaction;
import org.rubis.format.LatencyStats;
import org.rubis.format.Phase;

/**
 * The original client's table, per phase and per state (count, errors, mean, min, max) with percentiles, and the
 * same requests timed from their intended send instant (coordinated omission corrected). summary.txt opens with the
 * measurement's figures in two lines ({@link #headline}) and ends with the tables.
 */
final class ResponseTimesPart implements SummaryPart {

    /** The key of the table of all phases together. */
    private static final String OVERALL = "overall";

    private final RunStats stats;

    ResponseTimesPart(RunStats stats) {
        this.stats = stats;
    }

    @Override
    public void json(ObjectNode root) {
        ObjectNode rt = root.putObject("response_time_ms");
        for (Phase p : Phase.values()) {
            ObjectNode ph = cell(rt.putObject(p.label()), stats.phaseTotal(p));
            ObjectNode states = ph.putObject("states");
            for (Interaction i : Interaction.values()) {
                LatencyStats c = stats.cell(p, i);
                if (c.count() > 0) {
                    cell(states.putObject(i.label()), c);
                }
            }
        }
        ObjectNode all = cell(rt.putObject(OVERALL), stats.overall());
        ObjectNode allStates = all.putObject("states");
        for (Interaction i : Interaction.values()) {
            LatencyStats c = stats.stateTotal(i);
            if (c.count() > 0) {
                cell(allStates.putObject(i.label()), c);
            }
        }
        // The same requests from the intended send instant (coordinated omission corrected).
        ObjectNode fi = root.putObject("response_time_from_intended_ms");
        for (Phase p : Phase.values()) {
            cell(fi.putObject(p.label()), stats.fromIntended(p));
        }
        cell(fi.putObject(OVERALL), stats.overallFromIntended());
    }

    /**
     * The run phase's figures (all phases' when it had no request), from the actual and from the intended send: the
     * lines at the top of summary.txt. Its keys are this part's.
     */
    SummaryPart headline() {
        return new SummaryPart() {
            @Override
            public void json(ObjectNode root) {}

            @Override
            public void text(JsonNode root, StringBuilder b) {
                String phase = root.get("response_time_ms")
                                        .get(Phase.RUN.label())
                                        .get("count")
                                        .asLong()
                                > 0
                        ? Phase.RUN.label()
                        : OVERALL;
                String clock = root.has("response_time_clock")
                        ? ", clock: " + root.get("response_time_clock").asText()
                        : "";
                String label = phase.equals(OVERALL) ? "response time (all, ms)" : "response time (run, ms)";
                line(b, label, figures(root.get("response_time_ms").get(phase)) + clock);
                JsonNode fromIntended =
                        root.path("response_time_from_intended_ms").path(phase);
                if (fromIntended.path("count").asLong() > 0) {
                    line(b, "  from intended send", figures(fromIntended));
                }
            }
        };
    }

    @Override
    public void text(JsonNode root, StringBuilder b) {
        String clock = root.has("response_time_clock")
                ? " (clock: " + root.get("response_time_clock").asText() + ")"
                : "";
        for (Phase p : Phase.values()) {
            table(b, p.title(), clock, root.get("response_time_ms").get(p.label()));
        }
        table(b, "Overall", clock, root.get("response_time_ms").get(OVERALL));
        JsonNode fromIntended = root.get("response_time_from_intended_ms");
        if (fromIntended != null) {
            b.append("\nResponse time from the intended send instant in ms (the schedule; corrected for coordinated"
                    + " omission;\nthe tables above are service times, from the actual send)\n");
            header(b, "phase");
            for (Phase p : Phase.values()) {
                intendedRow(b, p.label(), fromIntended.get(p.label()));
            }
            intendedRow(b, OVERALL, fromIntended.get(OVERALL));
        }
    }

    private static void table(StringBuilder b, String title, String clock, JsonNode ph) {
        if (ph.get("count").asLong() == 0) {
            return;
        }
        b.append('\n')
                .append(title)
                .append(" - response time in ms")
                .append(clock)
                .append('\n');
        header(b, "state");
        ph.get("states").fields().forEachRemaining(e -> row(b, e.getKey(), e.getValue()));
        row(b, "TOTAL", ph);
    }

    private static void intendedRow(StringBuilder b, String name, JsonNode ph) {
        if (ph != null && ph.get("count").asLong() > 0) {
            row(b, name, ph);
        }
    }
}
