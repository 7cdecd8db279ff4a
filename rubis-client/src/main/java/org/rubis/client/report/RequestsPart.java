package org.rubis.client.report;

import static org.rubis.client.report.SummaryFormat.line;
import static org.rubis.client.report.SummaryFormat.round;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;
import org.rubis.format.ErrorClass;
import org.rubis.format.LatencyStats;
import org.rubis.format.Phase;

/** The requests: how many were sent, served, failed (by error class) and logged, and the run phase's throughput. */
final class RequestsPart implements SummaryPart {

    private final RunResult result;
    private final RunStats stats;

    RequestsPart(RunResult result, RunStats stats) {
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
    public void text(JsonNode root, StringBuilder b) {
        Map<String, Long> byClass = new LinkedHashMap<>();
        root.get("errors_by_class")
                .fields()
                .forEachRemaining(e -> byClass.put(e.getKey(), e.getValue().asLong()));
        String classes = byClass.isEmpty() ? "" : ": " + ErrorClass.counts(byClass);
        line(
                b,
                "requests",
                root.get("requests").asLong() + " (" + root.get("errors").asLong() + " errors" + classes + ")");
        line(b, "throughput (run phase)", root.get("throughput_rps").asDouble() + " requests/s");
    }
}
