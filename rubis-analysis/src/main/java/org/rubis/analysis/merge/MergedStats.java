package org.rubis.analysis.merge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.rubis.analysis.io.CsvStream;
import org.rubis.format.Phase;
import org.rubis.format.SessionEnd;

/**
 * The summary's figures recomputed from the merged logs, row by row: counts, per-phase and
 * per-state response times with percentiles from every request (never averaged over shards),
 * send lateness, session ends. Memory grows with states, connections and seconds, not requests.
 */
final class MergedStats {

    /** count, errors, mean, min, max and percentiles of one group, as the client's summary has them. */
    static final class Cell {
        private final Histogram h = org.rubis.format.Percentiles.newHistogram();
        long count;
        long errors;
        double sum;
        long min = Long.MAX_VALUE;
        long max;

        void add(long ns, boolean error) {
            long v = Math.max(0, ns);
            count++;
            if (error) {
                errors++;
            }
            sum += v;
            min = Math.min(min, v);
            max = Math.max(max, v);
            h.recordValue(org.rubis.format.Percentiles.recorded(v));
        }

        /** By the client's rule ({@link org.rubis.format.Percentiles}): the merged summary reads like a shard's. */
        double percentileMs(double p) {
            return count == 0 ? 0 : org.rubis.format.Percentiles.valueAtMs(h, p, min, max);
        }

        ObjectNode write(ObjectNode n) {
            n.put("count", count);
            n.put("errors", errors);
            n.put("mean", round(count == 0 ? 0 : sum / count / 1e6, 3));
            n.put("min", round(count == 0 ? 0 : min / 1e6, 3));
            n.put("max", round(max / 1e6, 3));
            n.put("p50", round(percentileMs(50), 3));
            n.put("p90", round(percentileMs(90), 3));
            n.put("p99", round(percentileMs(99), 3));
            n.put("p99_9", round(percentileMs(99.9), 3));
            return n;
        }

        void percentiles(ObjectNode n) {
            n.put("count", count);
            n.put("p50", round(percentileMs(50), 3));
            n.put("p90", round(percentileMs(90), 3));
            n.put("p99", round(percentileMs(99), 3));
            n.put("p99_9", round(percentileMs(99.9), 3));
        }
    }

    final Map<Phase, Map<String, Cell>> byPhaseState = new EnumMap<>(Phase.class);
    final Map<Phase, Cell> byPhase = new EnumMap<>(Phase.class);
    final Map<String, Cell> byState = new TreeMap<>();
    final Cell overall = new Cell();
    final Cell lateness = new Cell();
    final Cell runLateness = new Cell();
    final Cell sessionStartLateness = new Cell();
    final Map<String, Long> errorsByClass = new TreeMap<>();
    private final Map<SessionEnd, Long> sessionEnds = new EnumMap<>(SessionEnd.class);
    final Set<String> connections = new HashSet<>();
    long newConnections;
    long withoutConnection;
    long sessionTimeSumNs;
    long sessionsTimed;
    long sessionRows;

    MergedStats() {
        for (Phase p : Phase.values()) {
            byPhaseState.put(p, new TreeMap<>());
            byPhase.put(p, new Cell());
        }
    }

    void request(CsvStream.Row r) {
        Phase phase = Phase.parse(r.get("phase")); // null: not a phase (counted overall and by state only)
        String state = r.get("state");
        String error = r.get("error");
        boolean failed = !error.isEmpty();
        long resp = r.getLong("response_ns");
        if (phase != null) {
            byPhaseState.get(phase).computeIfAbsent(state, k -> new Cell()).add(resp, failed);
            byPhase.get(phase).add(resp, failed);
        }
        byState.computeIfAbsent(state, k -> new Cell()).add(resp, failed);
        overall.add(resp, failed);
        if (failed) {
            errorsByClass.merge(error, 1L, Long::sum);
        }
        long late = Math.max(0, r.getLong("send_epoch_ns") - r.getLong("intended_send_epoch_ns"));
        lateness.add(late, false);
        if (phase == Phase.RUN) {
            runLateness.add(late, false);
        }
        String conn = r.get("connection_id");
        if (conn.isEmpty()) {
            withoutConnection++;
        } else {
            connections.add(conn);
        }
        if (Boolean.parseBoolean(r.get("new_connection"))) {
            newConnections++;
        }
    }

    void session(CsvStream.Row r) {
        sessionRows++;
        SessionEnd reason = SessionEnd.parse(r.get("end_reason"));
        if (reason != null) {
            sessionEnds.merge(reason, 1L, Long::sum);
        }
        long start = r.getLong("start_epoch_ns");
        long end = r.getLong("end_epoch_ns");
        if (start > 0) {
            sessionStartLateness.add(start - r.getLong("intended_start_epoch_ns"), false);
            if (end > start) {
                sessionTimeSumNs += end - start;
                sessionsTimed++;
            }
        }
    }

    long requests() {
        return overall.count;
    }

    long sessionsStarted() {
        return sessionRows - sessions(SessionEnd.DROPPED);
    }

    long sessionsCompleted() {
        return sessionEnds.entrySet().stream()
                .filter(e -> e.getKey().completed())
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    /** Sessions that ended so. */
    long sessions(SessionEnd end) {
        return sessionEnds.getOrDefault(end, 0L);
    }

    static double round(double v, int digits) {
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }
}
