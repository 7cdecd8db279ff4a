package org.rubis.client.report;

import static org.rubis.client.report.SummaryFormat.line;
import static org.rubis.client.report.SummaryFormat.round;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.rubis.format.run.ErrorClass;
import org.rubis.format.run.Phase;
import org.rubis.format.schema.SummaryJson;
import org.rubis.format.stats.LatencyStats;

/** The requests: how many were sent, served, failed (by error class) and logged, and the run phase's throughput. */
final class RequestsPart implements SummaryPart {

    private final RunResult result;
    private final RunTotals stats;

    RequestsPart(RunResult result, RunTotals stats) {
        this.result = result;
        this.stats = stats;
    }

    @Override
    public void json(ObjectNode root) {
        LatencyStats overall = stats.overall();
        LatencyStats run = stats.phaseTotal(Phase.RUN);
        root.put("requests", overall.count());
        root.put("requests_served", overall.count() - overall.errors());
        root.put("errors", overall.errors());
        ObjectNode byClass = root.putObject("errors_by_class");
        stats.errorsByClass().forEach(byClass::put);
        root.put("requests_logged", result.logged());
        root.put("records_lost", result.lost());
        // Served requests (a reply that is not an error) per second of the run phase actually run.
        root.put("throughput_rps", round((run.count() - run.errors()) / Math.max(1e-9, result.runSeconds()), 3));
        root.put("attempted_rps", round(run.count() / Math.max(1e-9, result.runSeconds()), 3));
        root.put("run_seconds", round(result.runSeconds(), 3));
    }

    @Override
    public void text(SummaryJson s, StringBuilder b) {
        Map<String, Long> byClass = s.errorsByClass();
        String classes = byClass.isEmpty() ? "" : ": " + ErrorClass.counts(byClass);
        line(b, "requests", s.requests() + " (" + s.errors() + " errors" + classes + ")");
        line(b, "throughput (run phase)", s.throughputRps() + " requests/s");
    }
}
