package org.rubis.analysis.merge;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;
import org.rubis.format.IntervalTable;
import org.rubis.format.Phase;
import org.rubis.format.SummaryLines;

/** The merged run's summary.txt: the headline figures of summary.json for a person. */
final class SummaryText {

    private SummaryText() {}

    static String of(JsonNode s) {
        StringBuilder b = new StringBuilder(2048);
        b.append("RUBiS client run summary (merged from ")
                .append(s.path("merged").path("shard_count").asInt())
                .append(" shards)\n");
        b.append("=============================================\n");
        line(
                b,
                "status",
                s.path("status").asText()
                        + (s.path("partial").asBoolean()
                                ? " (" + s.path("stop_reason").asText() + ")"
                                : ""));
        line(b, "run directory", s.path("run_dir").asText());
        line(
                b,
                "start instant",
                s.path("merged").path("start_at").asText() + "; shards started within "
                        + s.path("merged").path("run_start_spread_ms").asDouble() + " ms of each other");
        line(
                b,
                "workload",
                s.path("arrival_process").asText() + "; seed " + s.path("seed").asText() + "; backend "
                        + s.path("backend").asText());
        line(
                b,
                "requests",
                s.path("requests").asLong() + " (" + s.path("errors").asLong() + " errors)");
        line(b, "throughput (run phase)", s.path("throughput_rps").asDouble() + " requests/s");
        line(
                b,
                "sessions",
                s.path("sessions_started").asLong() + " started, "
                        + s.path("sessions_completed").asLong() + " completed, "
                        + s.path("sessions_aborted_at_end").asLong() + " cut by the end of the run");
        JsonNode run =
                s.path("response_time_ms").path(Phase.RUN.label()).path("count").asLong() > 0
                        ? s.path("response_time_ms").path(Phase.RUN.label())
                        : s.path("response_time_ms").path("overall");
        line(
                b,
                "response time (ms)",
                String.format(
                        Locale.ROOT,
                        "mean %.3f, p50 %.3f, p90 %.3f, p95 %.3f, p99 %.3f, p99.9 %.3f, max %.3f",
                        run.path("mean").asDouble(),
                        run.path("p50").asDouble(),
                        run.path("p90").asDouble(),
                        run.path("p95").asDouble(),
                        run.path("p99").asDouble(),
                        run.path("p99_9").asDouble(),
                        run.path("max").asDouble()));
        IntervalTable.text(s, b);
        b.append(SummaryLines.verdict(s.path("client_health").path("verdict").asText()));
        if (!s.path("warnings").isEmpty()) {
            b.append("\nWarnings\n");
            s.path("warnings").forEach(w -> b.append(SummaryLines.item(w.asText())));
        }
        return b.toString();
    }

    private static void line(StringBuilder b, String k, String v) {
        b.append(SummaryLines.line(k, v));
    }
}
