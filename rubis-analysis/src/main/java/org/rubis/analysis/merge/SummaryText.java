package org.rubis.analysis.merge;

import com.fasterxml.jackson.databind.JsonNode;
import org.rubis.format.schema.Merged;
import org.rubis.format.schema.StationarityJson;
import org.rubis.format.schema.SummaryJson;
import org.rubis.format.stats.Stationarity.Judgement;
import org.rubis.format.text.IntervalTable;
import org.rubis.format.text.SummaryLines;
import org.rubis.format.text.TimeTables;

/**
 * The merged run's summary.txt: summary.json's headline figures for a person, with the lines and tables of one run's
 * ({@link TimeTables}, {@link SummaryLines}), so that a merged run reads like one process's.
 */
final class SummaryText {

    private SummaryText() {}

    static String of(JsonNode root) {
        SummaryJson s = SummaryJson.of(root);
        Merged merged = s.merged();
        StringBuilder b = new StringBuilder(2048);
        b.append("RUBiS client run summary (merged from ")
                .append(merged.shardCount())
                .append(" shards)\n");
        b.append("=============================================\n");
        line(b, "status", s.status() + (s.partial() ? " (" + s.stopReason() + ")" : ""));
        line(b, "run directory", s.runDir());
        line(
                b,
                "start instant",
                merged.startAt() + "; shards started within " + merged.runStartSpreadMs() + " ms of each other");
        line(b, "workload", s.arrivalProcess() + "; seed " + s.seed() + "; backend " + s.backend());
        line(b, "requests", s.requests() + " (" + s.errors() + " errors)");
        line(b, "throughput (run phase)", s.throughputRps() + " requests/s");
        TimeTables.headline(s, b);
        StationarityJson st = s.stationarity();
        String prefix = st.verdict() == Judgement.STEADY ? "yes: " : st.verdict() == Judgement.NOT_STEADY ? "NO: " : "";
        line(b, "run phase steady", prefix + st.text());
        line(
                b,
                "sessions",
                s.sessionsStarted() + " started, " + s.sessionsCompleted() + " completed, " + s.sessionsAbortedAtEnd()
                        + " cut by the end of the run; mean session " + s.meanSessionS() + " s");
        long retried = s.retriedRequests();
        line(
                b,
                "connections (client)",
                s.connectionsOpened() + " opened, " + s.distinctConnections() + " distinct"
                        + (retried > 0
                                ? "; " + retried + " requests resent on a new connection (no response on a reused one)"
                                : ""));
        if (s.server() != null) {
            line(b, "server ground truth", SummaryLines.serverTruth(s.server()));
        }
        IntervalTable.text(s, b);
        b.append(SummaryLines.verdict(s.clientHealth().verdict()));
        if (s.warnings() != null && !s.warnings().isEmpty()) {
            b.append("\nWarnings\n");
            s.warnings().forEach(w -> b.append(SummaryLines.item(w)));
        }
        TimeTables.tables(s, b);
        return b.toString();
    }

    private static void line(StringBuilder b, String k, String v) {
        b.append(SummaryLines.line(k, v));
    }
}
