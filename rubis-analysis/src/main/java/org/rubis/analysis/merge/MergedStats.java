package org.rubis.analysis.merge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.rubis.analysis.io.CsvStream;
import org.rubis.format.LatencyStats;
import org.rubis.format.Phase;
import org.rubis.format.SessionEnd;

/**
 * The summary's figures recomputed from the merged logs, row by row: counts, per-phase and
 * per-state response times with percentiles from every request (never averaged over shards),
 * send lateness, session ends, a load profile's intervals ({@link MergedIntervals}). Memory grows
 * with states, connections and seconds, not requests.
 */
final class MergedStats {

    final Map<Phase, Map<String, LatencyStats>> byPhaseState = new EnumMap<>(Phase.class);
    final Map<Phase, LatencyStats> byPhase = new EnumMap<>(Phase.class);
    final Map<String, LatencyStats> byState = new TreeMap<>();
    final LatencyStats overall = new LatencyStats();
    final LatencyStats lateness = new LatencyStats();
    final LatencyStats runLateness = new LatencyStats();
    final LatencyStats sessionStartLateness = new LatencyStats();
    final Map<String, Long> errorsByClass = new TreeMap<>();
    final MergedIntervals intervals = new MergedIntervals();
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
            byPhase.put(p, new LatencyStats());
        }
    }

    void request(CsvStream.Row r) {
        Phase phase = Phase.parse(r.get("phase")); // null: not a phase (counted overall and by state only)
        String state = r.get("state");
        String error = r.get("error");
        boolean failed = !error.isEmpty();
        long resp = Math.max(0, r.getLong("response_ns"));
        if (phase != null) {
            byPhaseState
                    .get(phase)
                    .computeIfAbsent(state, k -> new LatencyStats())
                    .record(resp, failed);
            byPhase.get(phase).record(resp, failed);
        }
        byState.computeIfAbsent(state, k -> new LatencyStats()).record(resp, failed);
        overall.record(resp, failed);
        if (failed) {
            errorsByClass.merge(error, 1L, Long::sum);
        }
        long late = Math.max(0, r.getLong("send_epoch_ns") - r.getLong("intended_send_epoch_ns"));
        lateness.record(late, false);
        if (phase == Phase.RUN) {
            runLateness.record(late, false);
        }
        intervals.request(r, resp, failed, late);
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
            sessionStartLateness.record(Math.max(0, start - r.getLong("intended_start_epoch_ns")), false);
            if (end > start) {
                sessionTimeSumNs += end - start;
                sessionsTimed++;
            }
        }
    }

    long requests() {
        return overall.count();
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

    /** A group's count and percentiles (the send-lateness objects). */
    static void percentiles(ObjectNode n, LatencyStats c) {
        n.put("count", c.count());
        n.put("p50", round(c.percentileMs(50), 3));
        n.put("p90", round(c.percentileMs(90), 3));
        n.put("p95", round(c.percentileMs(95), 3));
        n.put("p99", round(c.percentileMs(99), 3));
        n.put("p99_9", round(c.percentileMs(99.9), 3));
    }

    static double round(double v, int digits) {
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }
}
