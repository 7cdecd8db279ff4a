package org.rubis.client.report;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;
import org.HdrHistogram.Histogram;
import org.rubis.client.log.RequestRecord;
import org.rubis.client.log.SessionRecord;
import org.rubis.client.workload.Interaction;
import org.rubis.format.LatencyStats;
import org.rubis.format.Percentiles;
import org.rubis.format.Phase;
import org.rubis.format.SessionEnd;

/**
 * The run's statistics, fed by the log writer thread only (so no locking on the users' side):
 * the original's per-phase, per-state table plus percentiles, send lateness, sessions and
 * connections. Live counters for the progress line are atomics.
 */
public final class RunStats {

    private final Map<Phase, LatencyStats[]> cells = new EnumMap<>(Phase.class);
    private final Histogram lateness = Percentiles.newHistogram();
    /** Per phase: intended send instant to last byte (coordinated omission corrected); derived, not logged. */
    private final Map<Phase, LatencyStats> fromIntended = new EnumMap<>(Phase.class);

    private final Histogram runLateness = Percentiles.newHistogram();
    private final Histogram sessionStartLateness = Percentiles.newHistogram();
    /** Distinct connection ids are tracked up to this many (a long dedicated run opens one per session). */
    static final int MAX_TRACKED_CONNECTIONS = 200_000;

    private final Set<String> connections = new HashSet<>();
    /** By the error column's label, in the order first met (the summary's errors_by_class). */
    private final Map<String, Long> errorsByClass = new LinkedHashMap<>();

    private final Map<SessionEnd, Long> sessionEnds = new EnumMap<>(SessionEnd.class);
    private long newConnections;
    private long retried;
    private long errorPageThinks;
    private long errorPageThinkSessions;
    private long imageRequests;
    private long sessionTimeSumNs;
    private long sessionsEnded;
    private long requestsWithoutConnectionId;
    private long maxLatenessNs;
    /** The run phase's largest send lateness: what its percentiles are clamped to (a bucket's top may exceed it). */
    private long runMaxLatenessNs;

    final AtomicLong liveRequests = new AtomicLong();
    private final LongAdder runThinkNs = new LongAdder();
    private final LongAdder runThinks = new LongAdder();
    /** Sums of the run phase's think times squared and cubed, in s^2 and s^3: the noise of Little's law (Stationarity). */
    private final DoubleAdder runThinkS2 = new DoubleAdder();

    private final DoubleAdder runThinkS3 = new DoubleAdder();
    /**
     * Run-phase requests per window of {@link #runWindowNs}, by send instant (the stationarity check). One second:
     * the default run phase gives 40 points, not 8, so the trend's interval is narrower for the same false-alarm
     * rate (Stationarity). A run phase longer than {@link #MAX_WINDOWS} seconds gets longer windows (whole seconds),
     * so that a soak of days does not allocate its counts by the million.
     */
    private long[] runWindows = new long[0];

    private long runWindowNs = 1_000_000_000L;
    private long runStartEpochNs;
    static final int MAX_WINDOWS = 10_000;
    final AtomicLong liveErrors = new AtomicLong();
    /** The run phase's intervals (a load profile's; without one, the phase): starts on the run's clock, then its end. */
    private long[] intervalBounds = new long[0];

    private volatile IntervalStats[] intervals = new IntervalStats[0];

    public RunStats() {
        for (Phase p : Phase.values()) {
            LatencyStats[] row = new LatencyStats[Interaction.COUNT];
            for (int i = 0; i < row.length; i++) {
                row[i] = new LatencyStats();
            }
            cells.put(p, row);
            fromIntended.put(p, new LatencyStats());
        }
    }

    /** Called by the log writer thread. */
    public synchronized void accept(RequestRecord r) {
        Phase phase = r.phase();
        cells.get(phase)[r.state().ordinal()].record(r.responseNs(), r.isError());
        long late = Math.max(0, r.latenessNs());
        fromIntended.get(phase).record(late + r.responseNs(), r.isError());
        lateness.recordValue(Percentiles.recorded(late));
        if (r.interval() >= 0 && r.interval() < intervals.length) {
            intervals[r.interval()].request(r.responseNs(), r.isError(), late);
        }
        if (phase == Phase.RUN) {
            runLateness.recordValue(Percentiles.recorded(late));
            runMaxLatenessNs = Math.max(runMaxLatenessNs, late);
            long w = (r.sendEpochNs() - runStartEpochNs) / runWindowNs;
            if (w >= 0 && w < runWindows.length) {
                runWindows[(int) w]++;
            }
        }
        maxLatenessNs = Math.max(maxLatenessNs, late);
        if (r.isError()) {
            errorsByClass.merge(r.errorLabel(), 1L, Long::sum); // a label made only for an HTTP status
        }
        if (r.newConnection()) {
            newConnections++;
        }
        if (r.retries() > 0) {
            retried++;
        }
        if (r.connectionId().isEmpty()) {
            requestsWithoutConnectionId++;
        } else if (connections.size() < MAX_TRACKED_CONNECTIONS) {
            connections.add(r.connectionId());
        }
        imageRequests += r.images();
    }

    /** A session's think times added by the ERROR-page bound (UserSession): counted with the sessions that had any. */
    public synchronized void errorPageThinks(int thinks) {
        if (thinks > 0) {
            errorPageThinks += thinks;
            errorPageThinkSessions++;
        }
    }

    public synchronized long errorPageThinks() {
        return errorPageThinks;
    }

    public synchronized long errorPageThinkSessions() {
        return errorPageThinkSessions;
    }

    /** Called by the log writer thread. */
    public synchronized void accept(SessionRecord s) {
        sessionEnds.merge(s.endReason(), 1L, Long::sum);
        int i = intervalOf(s.startEpochNs() > 0 ? s.startEpochNs() : s.intendedStartEpochNs());
        if (i >= 0) {
            if (s.endReason() == SessionEnd.DROPPED) {
                intervals[i].sessionsDropped++;
            } else {
                intervals[i].sessionsBegun++;
            }
        }
        if (s.startEpochNs() > 0) {
            sessionStartLateness.recordValue(
                    Percentiles.recorded(Math.max(0, s.startEpochNs() - s.intendedStartEpochNs())));
            if (s.endEpochNs() > s.startEpochNs()) {
                sessionTimeSumNs += s.endEpochNs() - s.startEpochNs();
                sessionsEnded++;
            }
        }
    }

    /** The run phase's time line, before the first request: whole windows of it are counted. */
    public synchronized void runPhase(long startEpochNs, double seconds) {
        this.runStartEpochNs = startEpochNs;
        long windowS = Math.max(1, (long) Math.ceil(seconds / MAX_WINDOWS));
        this.runWindowNs = windowS * 1_000_000_000L;
        this.runWindows = new long[(int) Math.floor(seconds / windowS)];
    }

    /**
     * The run phase's intervals, before the first request: {@code bounds} holds their starts on the run's clock (epoch
     * ns), then the run phase's end.
     */
    public synchronized void intervals(long[] bounds) {
        this.intervalBounds = bounds.clone();
        this.intervals = new IntervalStats[Math.max(0, bounds.length - 1)];
        for (int i = 0; i < intervals.length; i++) {
            intervals[i] = new IntervalStats();
        }
    }

    /** The interval of an instant on the run's clock, or -1 outside the run phase. */
    private int intervalOf(long epochNs) {
        if (intervals.length == 0 || epochNs < intervalBounds[0] || epochNs >= intervalBounds[intervals.length]) {
            return -1;
        }
        int i = Arrays.binarySearch(intervalBounds, epochNs);
        return i >= 0 ? i : -i - 2;
    }

    /** The interval bounds as given ({@link #intervals(long[])}). */
    public synchronized long[] intervalBounds() {
        return intervalBounds.clone();
    }

    /** Interval {@code i}'s figures (read at the end of the run). */
    public synchronized IntervalStats interval(int i) {
        return intervals[i];
    }

    /** Called by emulated users: a think time of {@code ns} that started in interval {@code i} of the run phase. */
    public void intervalThink(int i, long ns) {
        IntervalStats[] all = intervals; // set before the first request
        if (i >= 0 && i < all.length) {
            all[i].think(ns);
        }
    }

    /** Called by emulated users: a think time that started in the run phase. */
    public void runThink(long ns) {
        runThinkNs.add(ns);
        runThinks.increment();
        if (ns != 0) {
            double s = ns / 1e9;
            runThinkS2.add(s * s);
            runThinkS3.add(s * s * s);
        }
    }

    public double meanRunThinkSeconds() {
        long n = runThinks.sum();
        return n == 0 ? 0 : runThinkNs.sum() / 1e9 / n;
    }

    /** The mean, mean square and mean cube of the think times that started in the run phase (seconds). */
    public Stationarity.ThinkMoments runThinkMoments() {
        long n = runThinks.sum();
        return n == 0
                ? Stationarity.ThinkMoments.NONE
                : new Stationarity.ThinkMoments(runThinkNs.sum() / 1e9 / n, runThinkS2.sum() / n, runThinkS3.sum() / n);
    }

    public synchronized long[] runWindows() {
        return runWindows.clone();
    }

    /**
     * The whole windows of the first {@code seconds} of the run phase: a run stopped early (Ctrl-C, a dead target) is
     * judged on the time it ran, not on the planned phase's empty windows after the stop.
     */
    public synchronized long[] runWindows(double seconds) {
        int whole = (int) Math.floor(Math.max(0, seconds) * 1e9 / runWindowNs + 1e-9);
        return Arrays.copyOf(runWindows, Math.min(runWindows.length, whole));
    }

    /**
     * The counts of the run phase's whole windows within [{@code fromEpochNs}, {@code toEpochNs}) on the run's clock (an
     * interval of a load profile, up to where the run ran).
     */
    public synchronized long[] runWindows(long fromEpochNs, long toEpochNs) {
        long first = Math.max(0, Math.floorDiv(fromEpochNs - runStartEpochNs + runWindowNs - 1, runWindowNs));
        long end = Math.min(runWindows.length, Math.floorDiv(toEpochNs - runStartEpochNs, runWindowNs));
        return end <= first ? new long[0] : Arrays.copyOfRange(runWindows, (int) first, (int) end);
    }

    /** The length of {@link #runWindows()}' windows, in seconds. */
    public synchronized double runWindowSeconds() {
        return runWindowNs / 1e9;
    }

    /** Called by emulated users: cheap live counters for the progress line. */
    public void countLive(boolean error) {
        liveRequests.incrementAndGet();
        if (error) {
            liveErrors.incrementAndGet();
        }
    }

    public long liveRequests() {
        return liveRequests.get();
    }

    public long liveErrors() {
        return liveErrors.get();
    }

    public synchronized LatencyStats cell(Phase phase, Interaction state) {
        return cells.get(phase)[state.ordinal()];
    }

    /** All states of one phase merged. */
    public synchronized LatencyStats phaseTotal(Phase phase) {
        LatencyStats t = new LatencyStats();
        for (LatencyStats c : cells.get(phase)) {
            t.add(c);
        }
        return t;
    }

    /** All phases of one state merged. */
    public synchronized LatencyStats stateTotal(Interaction state) {
        LatencyStats t = new LatencyStats();
        for (LatencyStats[] row : cells.values()) {
            t.add(row[state.ordinal()]);
        }
        return t;
    }

    /**
     * Response times of one phase measured from the intended send instant (the schedule), as wrk2
     * does: what a user would have waited, including the client's own lateness in sending.
     */
    public synchronized LatencyStats fromIntended(Phase phase) {
        LatencyStats t = new LatencyStats();
        t.add(fromIntended.get(phase));
        return t;
    }

    public synchronized LatencyStats overallFromIntended() {
        LatencyStats t = new LatencyStats();
        fromIntended.values().forEach(t::add);
        return t;
    }

    public synchronized LatencyStats overall() {
        LatencyStats t = new LatencyStats();
        for (Phase p : Phase.values()) {
            t.add(phaseTotal(p));
        }
        return t;
    }

    public synchronized Histogram lateness() {
        return lateness.copy();
    }
    /** Send lateness of the run (measured) phase only. */
    public synchronized Histogram runLateness() {
        return runLateness.copy();
    }

    public synchronized long maxLatenessNs() {
        return maxLatenessNs;
    }

    public synchronized long runMaxLatenessNs() {
        return runMaxLatenessNs;
    }

    /**
     * The send lateness the verdict judges, in ms: the run phase's (the whole run's when it has none) {@code p}-th
     * percentile, clamped to that phase's own largest value ({@link org.rubis.format.Percentiles}).
     */
    public synchronized double judgedLatenessMs(double p) {
        return runLateness.getTotalCount() > 0
                ? Percentiles.valueAtMs(runLateness, p, 0, runMaxLatenessNs)
                : Percentiles.valueAtMs(lateness, p, 0, maxLatenessNs);
    }

    public synchronized Histogram sessionStartLateness() {
        return sessionStartLateness.copy();
    }
    /** Distinct connection ids (a lower bound once {@link #MAX_TRACKED_CONNECTIONS} are tracked). */
    public synchronized int distinctConnections() {
        return connections.size();
    }

    public synchronized long newConnections() {
        return newConnections;
    }
    /** Requests resent once on a new connection after a reused one gave no response byte. */
    public synchronized long retried() {
        return retried;
    }

    public synchronized long imageRequests() {
        return imageRequests;
    }

    public synchronized long requestsWithoutConnectionId() {
        return requestsWithoutConnectionId;
    }

    public synchronized Map<String, Long> errorsByClass() {
        return new LinkedHashMap<>(errorsByClass);
    }
    /** Sessions by how they ended. */
    public synchronized Map<SessionEnd, Long> sessionEnds() {
        return new EnumMap<>(sessionEnds);
    }

    /** Sessions whose end reason is one {@code which} accepts. */
    public synchronized long sessionsEnded(Predicate<SessionEnd> which) {
        return sessionEnds.entrySet().stream()
                .filter(e -> which.test(e.getKey()))
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    public synchronized double meanSessionSeconds() {
        return sessionsEnded == 0 ? 0 : sessionTimeSumNs / 1e9 / sessionsEnded;
    }
}
