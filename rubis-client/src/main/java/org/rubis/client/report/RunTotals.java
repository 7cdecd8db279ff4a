package org.rubis.client.report;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.HdrHistogram.Histogram;
import org.rubis.client.log.RequestRecord;
import org.rubis.client.log.SessionRecord;
import org.rubis.client.workload.Interaction;
import org.rubis.format.run.ErrorClass;
import org.rubis.format.run.Phase;
import org.rubis.format.run.SessionEnd;
import org.rubis.format.stats.LatencyStats;
import org.rubis.format.stats.Percentiles;
import org.rubis.format.stats.Stationarity;

/**
 * The figures of a group of records: the original's per-phase, per-state table plus percentiles, the times from the
 * intended send instant, send lateness, errors by class, sessions, connections, the run phase's windows and the load
 * profile's intervals. {@link RunStats} keeps one per interval, which the log writer records into, and one for the
 * whole run, the sum of the intervals: the summary reads that one once the run is over.
 *
 * <p>Not thread-safe: one thread records into it, and it is handed over to its readers ({@link RunStats} says how).
 */
public final class RunTotals {

    /** Distinct connection ids are tracked up to this many (a long dedicated run opens one per session). */
    static final int MAX_TRACKED_CONNECTIONS = 200_000;
    /** The run phase's windows are whole seconds, at most this many (a longer phase gets longer windows). */
    static final int MAX_WINDOWS = 10_000;

    private static final int CELLS = Phase.values().length * Interaction.COUNT;

    private final LatencyStats[][] cells = new LatencyStats[Phase.values().length][Interaction.COUNT];
    /** Per phase: intended send instant to last byte (coordinated omission corrected); derived, not logged. */
    private final LatencyStats[] fromIntended = new LatencyStats[Phase.values().length];

    private final Histogram lateness = Percentiles.newHistogram();
    private final Histogram runLateness = Percentiles.newHistogram();
    private final Histogram sessionStartLateness = Percentiles.newHistogram();
    private final Set<String> connections = new HashSet<>();
    /**
     * Errors by the error column's label, in the order first met (the summary's errors_by_class), each by phase and
     * state (index {@code phase * Interaction.COUNT + state}: the Prometheus counters' labels). An interval's keeps
     * the labels it met, emptied.
     */
    private final Map<String, long[]> errorsByClass = new LinkedHashMap<>();

    private final Map<SessionEnd, Long> sessionEnds = new EnumMap<>(SessionEnd.class);
    /** The sums, by the indices below: one array, added and emptied as one. */
    private final long[] sums = new long[7];

    private static final int RUN_TARGET_STATE = 0;
    private static final int NEW_CONNECTIONS = 1;
    private static final int RETRIED = 2;
    private static final int IMAGE_REQUESTS = 3;
    private static final int SESSION_TIME_NS = 4;
    private static final int SESSIONS_ENDED = 5;
    private static final int WITHOUT_CONNECTION_ID = 6;
    private long maxLatenessNs;
    /** The run phase's largest send lateness: what its percentiles are clamped to (a bucket's top may exceed it). */
    private long runMaxLatenessNs;
    /** Run-phase requests per window of the timeline's, by send instant (the stationarity check). */
    private long[] runWindows = new long[0];

    private IntervalStats[] intervals = new IntervalStats[0];
    private Timeline timeline = Timeline.NONE;
    /** The users' own counts (think times), joined in the run's totals; null in an interval's. */
    private final UserCounters users;

    RunTotals(UserCounters users) {
        this.users = users;
        for (int p = 0; p < cells.length; p++) {
            for (int i = 0; i < Interaction.COUNT; i++) {
                cells[p][i] = new LatencyStats();
            }
            fromIntended[p] = new LatencyStats();
        }
    }

    /**
     * The run phase's time line: its start and its windows (the stationarity check's counts), and the starts of its
     * intervals on the run's clock (epoch ns), then its end.
     */
    record Timeline(long runStartEpochNs, long runWindowNs, int windows, long[] intervalBounds) {
        static final Timeline NONE = new Timeline(0, 1_000_000_000L, 0, new long[0]);

        /** Whole windows of one second, or longer for a phase longer than {@link #MAX_WINDOWS} seconds. */
        static Timeline of(long runStartEpochNs, double seconds, long[] intervalBounds) {
            long windowS = Math.max(1, (long) Math.ceil(seconds / MAX_WINDOWS));
            return new Timeline(
                    runStartEpochNs, windowS * 1_000_000_000L, (int) Math.floor(seconds / windowS), intervalBounds);
        }

        int intervals() {
            return Math.max(0, intervalBounds.length - 1);
        }

        /** The interval of an instant on the run's clock, or -1 outside the run phase. */
        int intervalOf(long epochNs) {
            int n = intervals();
            if (n == 0 || epochNs < intervalBounds[0] || epochNs >= intervalBounds[n]) {
                return -1;
            }
            int i = Arrays.binarySearch(intervalBounds, epochNs);
            return i >= 0 ? i : -i - 2;
        }
    }

    /** Sized for {@code t} (the log writer's, before its first record in the run phase; the reader's, at the end). */
    void shape(Timeline t) {
        if (t == timeline) {
            return;
        }
        // Built whole before anything is replaced: an OutOfMemoryError here (a run out of heap) leaves the old shape,
        // never an interval array with empty slots that the next fold would trip on.
        long[] windows = Arrays.copyOf(runWindows, t.windows());
        IntervalStats[] was = intervals;
        IntervalStats[] grown = Arrays.copyOf(was, t.intervals());
        for (int i = was.length; i < grown.length; i++) {
            grown[i] = new IntervalStats(users == null ? null : users.interval(i));
        }
        runWindows = windows;
        intervals = grown;
        timeline = t;
    }

    void request(RequestRecord r, Timeline t) {
        shape(t);
        Phase phase = r.phase();
        cells[phase.ordinal()][r.state().ordinal()].record(r.responseNs(), r.isError());
        long late = Math.max(0, r.latenessNs());
        fromIntended[phase.ordinal()].record(late + r.responseNs(), r.isError());
        lateness.recordValue(Percentiles.recorded(late));
        if (r.interval() >= 0 && r.interval() < intervals.length) {
            intervals[r.interval()].request(r.responseNs(), r.isError(), late);
        }
        if (phase == Phase.RUN) {
            if (r.error() == ErrorClass.TARGET_STATE) {
                sums[RUN_TARGET_STATE]++;
            }
            runLateness.recordValue(Percentiles.recorded(late));
            runMaxLatenessNs = Math.max(runMaxLatenessNs, late);
            long w = (r.sendEpochNs() - t.runStartEpochNs()) / t.runWindowNs();
            if (w >= 0 && w < runWindows.length) {
                runWindows[(int) w]++;
            }
        }
        maxLatenessNs = Math.max(maxLatenessNs, late);
        if (r.isError()) {
            errorsByClass
                    .computeIfAbsent(r.errorLabel(), k -> new long[CELLS])[ // a label made only for an HTTP status
                    phase.ordinal() * Interaction.COUNT + r.state().ordinal()]++;
        }
        if (r.newConnection()) {
            sums[NEW_CONNECTIONS]++;
        }
        if (r.retries() > 0) {
            sums[RETRIED]++;
        }
        if (r.connectionId().isEmpty()) {
            sums[WITHOUT_CONNECTION_ID]++;
        } else if (connections.size() < MAX_TRACKED_CONNECTIONS) {
            connections.add(r.connectionId());
        }
        sums[IMAGE_REQUESTS] += r.images();
    }

    void session(SessionRecord s, Timeline t) {
        shape(t);
        sessionEnds.merge(s.endReason(), 1L, Long::sum);
        int i = t.intervalOf(s.startEpochNs() > 0 ? s.startEpochNs() : s.intendedStartEpochNs());
        if (i >= 0 && i < intervals.length) {
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
                sums[SESSION_TIME_NS] += s.endEpochNs() - s.startEpochNs();
                sums[SESSIONS_ENDED]++;
            }
        }
    }

    /** Adds everything of this one to {@code total} (shaped for the run's time line, which this one's may not be yet). */
    void addTo(RunTotals total) {
        for (int p = 0; p < cells.length; p++) {
            for (int i = 0; i < Interaction.COUNT; i++) {
                if (cells[p][i].count() > 0) {
                    total.cells[p][i].add(cells[p][i]);
                }
            }
            total.fromIntended[p].add(fromIntended[p]);
        }
        total.lateness.add(lateness);
        total.runLateness.add(runLateness);
        total.sessionStartLateness.add(sessionStartLateness);
        for (String c : connections) {
            if (total.connections.size() >= MAX_TRACKED_CONNECTIONS) {
                break;
            }
            total.connections.add(c);
        }
        errorsByClass.forEach((k, v) -> {
            long[] t = total.errorsByClass.computeIfAbsent(k, x -> new long[CELLS]);
            for (int i = 0; i < CELLS; i++) {
                t[i] += v[i];
            }
        });
        sessionEnds.forEach((k, v) -> total.sessionEnds.merge(k, v, Long::sum));
        for (int i = 0; i < sums.length; i++) {
            total.sums[i] += sums[i];
        }
        total.maxLatenessNs = Math.max(total.maxLatenessNs, maxLatenessNs);
        total.runMaxLatenessNs = Math.max(total.runMaxLatenessNs, runMaxLatenessNs);
        for (int w = 0; w < runWindows.length && w < total.runWindows.length; w++) {
            total.runWindows[w] += runWindows[w];
        }
        for (int i = 0; i < intervals.length && i < total.intervals.length; i++) {
            intervals[i].addTo(total.intervals[i]);
        }
    }

    /** The bytes its histograms hold (they grow as larger times come): the tool's own heap, not a user's. */
    long histogramBytes() {
        long b = lateness.getEstimatedFootprintInBytes()
                + runLateness.getEstimatedFootprintInBytes()
                + sessionStartLateness.getEstimatedFootprintInBytes();
        for (LatencyStats[] row : cells) {
            for (LatencyStats c : row) {
                b += c.histogram().getEstimatedFootprintInBytes();
            }
        }
        for (LatencyStats c : fromIntended) {
            b += c.histogram().getEstimatedFootprintInBytes();
        }
        return b;
    }

    /** Empties it for the next interval (its histograms keep their size). */
    void reset() {
        for (int p = 0; p < cells.length; p++) {
            for (LatencyStats c : cells[p]) {
                if (c.count() > 0) {
                    c.reset();
                }
            }
            fromIntended[p].reset();
        }
        lateness.reset();
        runLateness.reset();
        sessionStartLateness.reset();
        connections.clear();
        errorsByClass.values().forEach(a -> Arrays.fill(a, 0));
        sessionEnds.clear();
        Arrays.fill(sums, 0);
        maxLatenessNs = 0;
        runMaxLatenessNs = 0;
        Arrays.fill(runWindows, 0);
        for (IntervalStats i : intervals) {
            i.reset();
        }
    }

    /** The interval bounds as given (the run's intervals' starts, then the run phase's end). */
    public long[] intervalBounds() {
        return timeline.intervalBounds().clone();
    }

    /** Interval {@code i}'s figures. */
    public IntervalStats interval(int i) {
        return intervals[i];
    }

    public long[] runWindows() {
        return runWindows.clone();
    }

    /**
     * The whole windows of the first {@code seconds} of the run phase: a run stopped early (Ctrl-C, a dead target) is
     * judged on the time it ran, not on the planned phase's empty windows after the stop.
     */
    public long[] runWindows(double seconds) {
        int whole = (int) Math.floor(Math.max(0, seconds) * 1e9 / timeline.runWindowNs() + 1e-9);
        return Arrays.copyOf(runWindows, Math.min(runWindows.length, whole));
    }

    /**
     * The counts of the run phase's whole windows within [{@code fromEpochNs}, {@code toEpochNs}) on the run's clock (an
     * interval of a load profile, up to where the run ran).
     */
    public long[] runWindows(long fromEpochNs, long toEpochNs) {
        long start = timeline.runStartEpochNs();
        long ns = timeline.runWindowNs();
        long first = Math.max(0, Math.floorDiv(fromEpochNs - start + ns - 1, ns));
        long end = Math.min(runWindows.length, Math.floorDiv(toEpochNs - start, ns));
        return end <= first ? new long[0] : Arrays.copyOfRange(runWindows, (int) first, (int) end);
    }

    /** The length of {@link #runWindows()}' windows, in seconds. */
    public double runWindowSeconds() {
        return timeline.runWindowNs() / 1e9;
    }

    public LatencyStats cell(Phase phase, Interaction state) {
        return cells[phase.ordinal()][state.ordinal()];
    }

    /** All states of one phase merged. */
    public LatencyStats phaseTotal(Phase phase) {
        return sum(cells[phase.ordinal()]);
    }

    /** All phases of one state merged. */
    public LatencyStats stateTotal(Interaction state) {
        return sum(Arrays.stream(cells).map(row -> row[state.ordinal()]).toArray(LatencyStats[]::new));
    }

    private static LatencyStats sum(LatencyStats... parts) {
        LatencyStats t = new LatencyStats();
        for (LatencyStats p : parts) {
            t.add(p);
        }
        return t;
    }

    /**
     * Response times of one phase measured from the intended send instant (the schedule), as wrk2 does: what a user
     * would have waited, including the client's own lateness in sending.
     */
    public LatencyStats fromIntended(Phase phase) {
        return sum(fromIntended[phase.ordinal()]);
    }

    public LatencyStats overallFromIntended() {
        return sum(fromIntended);
    }

    public LatencyStats overall() {
        return sum(Arrays.stream(cells).flatMap(Arrays::stream).toArray(LatencyStats[]::new));
    }

    public Histogram lateness() {
        return lateness.copy();
    }

    /** Send lateness of the run (measured) phase only. */
    public Histogram runLateness() {
        return runLateness.copy();
    }

    public long maxLatenessNs() {
        return maxLatenessNs;
    }

    public long runMaxLatenessNs() {
        return runMaxLatenessNs;
    }

    /**
     * The send lateness the verdict judges, in ms: the run phase's (the whole run's when it has none) {@code p}-th
     * percentile, clamped to that phase's own largest value ({@link org.rubis.format.stats.Percentiles}).
     */
    public double judgedLatenessMs(double p) {
        return runLateness.getTotalCount() > 0
                ? Percentiles.valueAtMs(runLateness, p, 0, runMaxLatenessNs)
                : Percentiles.valueAtMs(lateness, p, 0, maxLatenessNs);
    }

    public Histogram sessionStartLateness() {
        return sessionStartLateness.copy();
    }

    /** Distinct connection ids (a lower bound once {@link #MAX_TRACKED_CONNECTIONS} are tracked). */
    public int distinctConnections() {
        return connections.size();
    }

    public long newConnections() {
        return sums[NEW_CONNECTIONS];
    }

    /** Requests resent once on a new connection after a reused one gave no response byte. */
    public long retried() {
        return sums[RETRIED];
    }

    public long imageRequests() {
        return sums[IMAGE_REQUESTS];
    }

    public long requestsWithoutConnectionId() {
        return sums[WITHOUT_CONNECTION_ID];
    }

    /** The run phase's pages that reported the target's stored state ({@link ErrorClass#TARGET_STATE}). */
    public long runTargetState() {
        return sums[RUN_TARGET_STATE];
    }

    public Map<String, Long> errorsByClass() {
        Map<String, Long> m = new LinkedHashMap<>();
        errorsByClass.forEach((k, v) -> {
            long n = Arrays.stream(v).sum();
            if (n > 0) {
                m.put(k, n);
            }
        });
        return m;
    }

    /** Each phase's and state's requests by outcome ({@code "success"} or the error's label), those there were. */
    public void requests(OutcomeCount to) {
        for (Phase p : Phase.values()) {
            for (Interaction s : Interaction.values()) {
                LatencyStats c = cell(p, s);
                if (c.count() > c.errors()) {
                    to.count(p, s, "success", c.count() - c.errors());
                }
                errorsByClass.forEach((label, v) -> {
                    if (v[p.ordinal() * Interaction.COUNT + s.ordinal()] > 0) {
                        to.count(p, s, label, v[p.ordinal() * Interaction.COUNT + s.ordinal()]);
                    }
                });
            }
        }
    }

    /** A count of {@link #requests}. */
    public interface OutcomeCount {
        void count(Phase phase, Interaction state, String outcome, long n);
    }

    /** Sessions by how they ended, those there were. */
    public Map<SessionEnd, Long> sessionEnds() {
        return new EnumMap<>(sessionEnds);
    }

    /** Sessions whose end reason is one {@code which} accepts. */
    public long sessionsEnded(Predicate<SessionEnd> which) {
        return sessionEnds.entrySet().stream()
                .filter(e -> which.test(e.getKey()))
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    public double meanSessionSeconds() {
        return sums[SESSIONS_ENDED] == 0 ? 0 : sums[SESSION_TIME_NS] / 1e9 / sums[SESSIONS_ENDED];
    }

    public double meanRunThinkSeconds() {
        return users.runThinks().meanSeconds();
    }

    /** How many think times started in the run phase (what a merge weighs each shard's moments by). */
    public long runThinkCount() {
        return users.runThinks().count();
    }

    /** The mean, mean square and mean cube of the think times that started in the run phase (seconds). */
    public Stationarity.ThinkMoments runThinkMoments() {
        return users.runThinks().moments();
    }

    public long errorPageThinks() {
        return users.errorPageThinks();
    }

    public long errorPageThinkSessions() {
        return users.errorPageThinkSessions();
    }
}
