package org.rubis.client.report;

import static org.rubis.client.report.SummaryFormat.cell;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.rubis.client.workload.Interaction;
import org.rubis.format.run.Phase;
import org.rubis.format.schema.SummaryJson;
import org.rubis.format.stats.LatencyStats;
import org.rubis.format.text.TimeTables;

/**
 * The original client's table, per phase and per state (count, errors, mean, min, max) with percentiles, and the
 * same requests timed from their intended send instant (coordinated omission corrected). summary.txt opens with the
 * measurement's figures in two lines ({@link #headline}) and ends with the tables.
 */
final class ResponseTimesPart implements SummaryPart {

    private static final String OVERALL = TimeTables.OVERALL;

    private final RunTotals stats;

    ResponseTimesPart(RunTotals stats) {
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
     * lines at the top of summary.txt ({@link TimeTables#headline}). Its keys are this part's.
     */
    SummaryPart headline() {
        return new SummaryPart() {
            @Override
            public void json(ObjectNode root) {}

            @Override
            public void text(SummaryJson s, StringBuilder b) {
                TimeTables.headline(s, b);
            }
        };
    }

    @Override
    public void text(SummaryJson s, StringBuilder b) {
        TimeTables.tables(s, b);
    }
}
