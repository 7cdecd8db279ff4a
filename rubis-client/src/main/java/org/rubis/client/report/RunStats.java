package org.rubis.client.report;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.WriterReaderPhaser;
import org.rubis.client.log.RequestRecord;
import org.rubis.client.log.SessionRecord;
import org.rubis.client.workload.Interaction;
import org.rubis.format.run.Phase;
import org.rubis.format.stats.LatencyStats;
import org.rubis.format.stats.Percentiles;

/**
 * The run's one statistics pipeline, the HdrHistogram {@code Recorder} way. The log writer records each record once,
 * as its line is written, into the current interval's {@link RunTotals}: recording never waits for a reader (a
 * {@link WriterReaderPhaser}'s critical section, two atomic increments). Once a second the client-health sampler
 * ends the interval ({@link #roll}): it swaps the interval's figures out, adds them to the run's totals and makes the
 * interval's {@link IntervalPoint}, which the live page, the Prometheus endpoint's gauges and the progress line read.
 * The summary reads the totals ({@link #totals()}) once the log is closed: the sum of the intervals, so that the live
 * figures and the summary's agree by construction. What the users count themselves goes through
 * {@link UserCounters}, apart.
 */
public final class RunStats {

    private final UserCounters users = new UserCounters();
    private final WriterReaderPhaser phaser = new WriterReaderPhaser();
    private volatile RunTotals active = new RunTotals(null);
    private volatile RunTotals.Timeline timeline = RunTotals.Timeline.NONE;

    // Read and written by the readers only (synchronized).
    private RunTotals spare = new RunTotals(null);
    private final RunTotals totals = new RunTotals(users);
    /** What was folded since the last point. */
    private final RunTotals sinceRoll = new RunTotals(null);

    private final LatencyStats runTotal = new LatencyStats();
    private final Histogram allInterval = Percentiles.newHistogram();
    private final Histogram window = Percentiles.newHistogram();
    private final IntervalPoints points = new IntervalPoints();
    private long windowRequests;
    private long windowErrors;
    private long windowStartNano = System.nanoTime();
    private volatile IntervalPoint latest;

    /** Called by the log writer thread, for each request after its line is written. */
    public void accept(RequestRecord r) {
        record(r, null);
    }

    /** Called by the log writer thread, for each session after its line is written. */
    public void accept(SessionRecord s) {
        record(null, s);
    }

    /** One record into the current interval: a critical section a reader's swap waits for, never the other way. */
    private void record(RequestRecord r, SessionRecord s) {
        long e = phaser.writerCriticalSectionEnter();
        try {
            if (r != null) {
                active.request(r, timeline);
            } else {
                active.session(s, timeline);
            }
        } finally {
            phaser.writerCriticalSectionExit(e);
        }
    }

    /** What the users count themselves (live counts, think times). */
    public UserCounters users() {
        return users;
    }

    /** The run phase's time line, before the first request: whole windows of it are counted. */
    public synchronized void runPhase(long startEpochNs, double seconds) {
        timeline = RunTotals.Timeline.of(startEpochNs, seconds, timeline.intervalBounds());
    }

    /**
     * The run phase's intervals, before the first request: {@code bounds} holds their starts on the run's clock (epoch
     * ns), then the run phase's end.
     */
    public synchronized void intervals(long[] bounds) {
        RunTotals.Timeline t = timeline;
        users.intervals(Math.max(0, bounds.length - 1));
        timeline = new RunTotals.Timeline(t.runStartEpochNs(), t.runWindowNs(), t.windows(), bounds.clone());
    }

    /** The run's clock, once it starts: intervals are numbered and timed from its start. */
    public synchronized void clock(long startEpochNs, long upEndEpochNs, long runEndEpochNs, long endEpochNs) {
        points.clock(startEpochNs, upEndEpochNs, runEndEpochNs, endEpochNs);
    }

    /** Whether the points carry their histograms encoded (for a view that sums shards). */
    public synchronized void encodeHistograms(boolean on) {
        points.encode(on);
    }

    /** The latest interval, or null before the first. */
    public IntervalPoint latest() {
        return latest;
    }

    /**
     * The bytes the statistics' histograms hold now, every copy of the totals included: they grow as larger times
     * come, so a heap measurement ({@code --heap-per-user}) takes their growth out of what the users held.
     */
    public synchronized long histogramBytes() {
        return active.histogramBytes()
                + spare.histogramBytes()
                + totals.histogramBytes()
                + sinceRoll.histogramBytes()
                + runTotal.histogram().getEstimatedFootprintInBytes()
                + allInterval.getEstimatedFootprintInBytes()
                + window.getEstimatedFootprintInBytes();
    }

    /**
     * The run's totals: every interval's figures added up, those of the current one included (they still make the
     * next point). Read once the log is closed (its writer ended): the figures of every record written.
     */
    public synchronized RunTotals totals() {
        fold();
        return totals;
    }

    /** Reads the totals as they are now (a scrape of the live view's metrics, on its own thread). */
    public synchronized void read(Consumer<RunTotals> reader) {
        fold();
        reader.accept(totals);
    }

    /**
     * Ends the current interval: swaps its figures out, adds them to the totals and makes its point (null before the
     * run's clock starts; what was recorded before is then counted in the first interval). Called once a second by the
     * health sampler, and once more after the logs are closed with {@code health} null.
     *
     * @param sessionsStarted sessions begun since the start of the run
     */
    public synchronized IntervalPoint roll(HealthSample health, long sessionsStarted) {
        if (!points.started()) {
            return null;
        }
        fold();
        RunTotals interval = sinceRoll;
        allInterval.reset();
        long errors = 0;
        for (Phase p : Phase.values()) {
            for (Interaction s : Interaction.values()) {
                LatencyStats c = interval.cell(p, s);
                if (c.count() > 0) {
                    allInterval.add(c.histogram());
                    errors += c.errors();
                    if (p == Phase.RUN) {
                        runTotal.add(c);
                    }
                }
            }
        }
        long requests = allInterval.getTotalCount();
        window.add(allInterval);
        windowRequests += requests;
        windowErrors += errors;
        Map<String, Long> byClass = new TreeMap<>(interval.errorsByClass());
        IntervalPoint point =
                points.next(health, sessionsStarted, allInterval, errors, byClass, interval.lateness(), runTotal);
        sinceRoll.reset();
        latest = point;
        return point;
    }

    /** Swaps the current interval's figures out and adds them to the totals and to the next point's. */
    private void fold() {
        spare.reset();
        RunTotals done;
        phaser.readerLock();
        try {
            done = active;
            active = spare;
            phaser.flipPhase();
        } finally {
            phaser.readerUnlock();
        }
        spare = done;
        totals.shape(timeline);
        done.addTo(totals);
        done.addTo(sinceRoll);
    }

    /**
     * What was logged since the previous call (the progress line's few seconds): requests, errors, their length and
     * the response times' p99.
     */
    public synchronized Window window() {
        long now = System.nanoTime();
        Window w = new Window(windowRequests, windowErrors, (now - windowStartNano) / 1e9, ms(window, 99));
        window.reset();
        windowRequests = 0;
        windowErrors = 0;
        windowStartNano = now;
        return w;
    }

    /** A few intervals added up (see {@link #window()}). */
    public record Window(long requests, long errors, double seconds, double p99Ms) {
        public double rps() {
            return seconds <= 0 ? 0 : requests / seconds;
        }
    }

    static double ms(Histogram h, double p) {
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(p) / 1e6;
    }
}
