package org.rubis.analysis.merge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.rubis.analysis.io.CsvStream;
import org.rubis.format.run.ErrorClass;
import org.rubis.format.run.Phase;
import org.rubis.format.run.SessionEnd;
import org.rubis.format.stats.LatencyStats;

/**
 * The summary's figures recomputed from the merged logs, row by row: counts, per-phase and
 * per-state response times with percentiles from every request (never averaged over shards),
 * send lateness, the response times from the intended send, the run phase's windows for the stationarity check,
 * retries, session ends, a load profile's intervals ({@link MergedIntervals}). Memory grows
 * with states, connections and seconds, not requests.
 */
final class MergedStats {

    final Map<Phase, Map<String, LatencyStats>> byPhaseState = new EnumMap<>(Phase.class);
    final Map<Phase, LatencyStats> byPhase = new EnumMap<>(Phase.class);
    /** Per phase, from the intended send instant to the last byte (coordinated omission corrected), as a run's. */
    final Map<Phase, LatencyStats> fromIntended = new EnumMap<>(Phase.class);

    final LatencyStats overallFromIntended = new LatencyStats();
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
    long retried;
    /** The run phase's pages that reported the target's stored state (ErrorShare leaves them out, as one run's). */
    long runTargetState;
    /** Run-phase requests per window from the run's start, by send instant: the stationarity check's counts. */
    private long[] runWindows = new long[0];

    private long runStartEpochNs;
    private long runWindowNs = 1_000_000_000L;

    MergedStats() {
        for (Phase p : Phase.values()) {
            byPhaseState.put(p, new TreeMap<>());
            byPhase.put(p, new LatencyStats());
            fromIntended.put(p, new LatencyStats());
        }
    }

    /**
     * The run phase's time line, before the first request, as one run's ({@code RunStats.runPhase}): windows of {@code
     * windowS} seconds from {@code startEpochNs}, {@code windows} of them.
     */
    void runPhase(long startEpochNs, double windowS, int windows) {
        this.runStartEpochNs = startEpochNs;
        this.runWindowNs = Math.round(windowS * 1e9);
        this.runWindows = new long[Math.max(0, windows)];
    }

    /** The whole windows of the run phase's first {@code seconds} (a stopped run's are fewer). */
    long[] runWindows(double seconds) {
        int whole = (int) Math.floor(Math.max(0, seconds) * 1e9 / runWindowNs + 1e-9);
        return Arrays.copyOf(runWindows, Math.min(runWindows.length, whole));
    }

    double runWindowSeconds() {
        return runWindowNs / 1e9;
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
        overallFromIntended.record(late + resp, failed);
        if (phase != null) {
            fromIntended.get(phase).record(late + resp, failed);
        }
        if (phase == Phase.RUN) {
            if (error.equals(ErrorClass.TARGET_STATE.label())) {
                runTargetState++;
            }
            runLateness.record(late, false);
            long w = Math.floorDiv(r.getLong("send_epoch_ns") - runStartEpochNs, runWindowNs);
            if (w >= 0 && w < runWindows.length) {
                runWindows[(int) w]++;
            }
        }
        if (r.has("retries") && !r.get("retries").isEmpty() && r.getLong("retries") > 0) {
            retried++;
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
