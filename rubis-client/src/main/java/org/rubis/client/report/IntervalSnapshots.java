package org.rubis.client.report;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;
import org.rubis.client.log.RequestRecord;
import org.rubis.format.Percentiles;
import org.rubis.format.Phase;

/**
 * The run's figures interval by interval, the HdrHistogram way: the log writer records each request into interval
 * recorders ({@link SingleWriterRecorder}: recording never waits for a reader), and once a second the client-health
 * sampler swaps them out into an {@link IntervalPoint}. The live page, the Prometheus endpoint's gauges and the
 * progress line read those points; nobody reads the summary's statistics ({@link RunStats}) while the run goes on.
 *
 * <p>The run phase's response times are recorded with the summary's histogram layout ({@link Percentiles}) and added
 * up interval by interval, so that at the end their count and percentiles are the summary's.
 */
public final class IntervalSnapshots {

    /** The ramps' response times and every send lateness are recorded up to this (10 min; beyond: as 10 min). */
    static final long SHORT_MAX_NS = 600_000_000_000L;

    private static final int PHASES = Phase.values().length;

    // Written by the log writer only.
    private final SingleWriterRecorder runResponse = new SingleWriterRecorder(1000, Percentiles.MAX_NS, 3);
    private final SingleWriterRecorder rampResponse = new SingleWriterRecorder(1000, SHORT_MAX_NS, 3);
    private final SingleWriterRecorder lateness = new SingleWriterRecorder(1000, SHORT_MAX_NS, 3);
    private final AtomicLongArray errors = new AtomicLongArray(PHASES);
    private final Map<String, LongAdder> errorsByClass = new ConcurrentHashMap<>();
    private volatile long runMinNs = Long.MAX_VALUE;
    private volatile long runMaxNs;
    private volatile long runSumNs;

    // Read and written by the roll (synchronized).
    private final Histogram runInterval = Percentiles.newHistogram();
    private final Histogram rampInterval = Percentiles.newHistogram();
    private final Histogram latenessInterval = Percentiles.newHistogram();
    private final Histogram allInterval = Percentiles.newHistogram();
    private final Histogram runTotal = Percentiles.newHistogram();
    private final Histogram window = Percentiles.newHistogram();
    private final Map<String, Long> lastErrorsByClass = new TreeMap<>();
    private long lastErrors;
    private long seq;
    private long lastNano = System.nanoTime();
    private long windowRequests;
    private long windowErrors;
    private long windowStartNano = lastNano;
    private GcTotals lastGc;
    private boolean encode;
    private long startEpochNs = -1;
    private long upEndEpochNs;
    private long runEndEpochNs;
    private long endEpochNs;
    private volatile IntervalPoint latest;

    /** Called by the log writer thread, for each request after its line is written. */
    public void request(RequestRecord r) {
        long ns = r.responseNs();
        Phase phase = r.phase();
        if (phase == Phase.RUN) {
            runResponse.recordValue(Percentiles.recorded(ns));
            // One writer: plain read-modify-write of volatiles, for the roll to see.
            if (ns < runMinNs) {
                runMinNs = ns;
            }
            if (ns > runMaxNs) {
                runMaxNs = ns;
            }
            runSumNs += ns;
        } else {
            rampResponse.recordValue(Math.min(Percentiles.recorded(ns), SHORT_MAX_NS));
        }
        lateness.recordValue(Math.min(Percentiles.recorded(Math.max(0, r.latenessNs())), SHORT_MAX_NS));
        if (r.isError()) {
            errors.incrementAndGet(phase.ordinal());
            errorsByClass.computeIfAbsent(r.errorLabel(), k -> new LongAdder()).increment();
        }
    }

    /** The run's clock, once it starts: intervals are numbered and timed from its start. */
    public synchronized void clock(long startEpochNs, long upEndEpochNs, long runEndEpochNs, long endEpochNs) {
        this.startEpochNs = startEpochNs;
        this.upEndEpochNs = upEndEpochNs;
        this.runEndEpochNs = runEndEpochNs;
        this.endEpochNs = endEpochNs;
    }

    /** Whether the points carry their histograms encoded (for a view that sums shards). */
    public synchronized void encodeHistograms(boolean on) {
        encode = on;
    }

    /** The latest interval, or null before the first. */
    public IntervalPoint latest() {
        return latest;
    }

    /**
     * Ends the current interval: swaps the recorders out and makes its point (null before the run's clock starts; what
     * was recorded before is then counted in the first interval). Called once a second by the health sampler, and once
     * more after the logs are closed with {@code health} null.
     *
     * @param sessionsStarted sessions begun since the start of the run
     */
    public synchronized IntervalPoint roll(HealthSample health, long sessionsStarted) {
        if (startEpochNs < 0) {
            return null;
        }
        runResponse.getIntervalHistogramInto(runInterval);
        rampResponse.getIntervalHistogramInto(rampInterval);
        lateness.getIntervalHistogramInto(latenessInterval);
        runTotal.add(runInterval);
        allInterval.reset();
        allInterval.add(runInterval);
        allInterval.add(rampInterval);
        window.add(allInterval);
        long now = System.nanoTime();
        double seconds = (now - lastNano) / 1e9;
        lastNano = now;
        long epochMs = health != null ? health.epochMs() : System.currentTimeMillis();
        long epochNs = epochMs * 1_000_000L;
        long requests = allInterval.getTotalCount();
        long allErrors = 0;
        for (int p = 0; p < PHASES; p++) {
            allErrors += errors.get(p);
        }
        long intervalErrors = allErrors - lastErrors;
        lastErrors = allErrors;
        windowRequests += requests;
        windowErrors += intervalErrors;
        Map<String, Long> byClass = new TreeMap<>();
        errorsByClass.forEach((label, adder) -> {
            long total = adder.sum();
            long before = lastErrorsByClass.getOrDefault(label, 0L);
            if (total > before) {
                byClass.put(label, total - before);
                lastErrorsByClass.put(label, total);
            }
        });
        double gcPauseMs = 0;
        if (health != null) {
            if (lastGc != null) {
                gcPauseMs = health.gc().since(lastGc).pauseMs();
            }
            lastGc = health.gc();
        }
        long runErrors = errors.get(Phase.RUN.ordinal());
        long min = runMinNs;
        long max = runMaxNs;
        long sum = runSumNs;
        RunPhaseTotals run = runTotals(min, max, sum, runErrors);
        IntervalPoint.Encoded enc = encode
                ? new IntervalPoint.Encoded(
                        encoded(allInterval), encoded(latenessInterval), encoded(runTotal), min, max, sum)
                : null;
        IntervalPoint point = new IntervalPoint(
                seq++,
                epochMs,
                (epochNs - startEpochNs) / 1e9,
                seconds,
                phaseAt(epochNs),
                requests,
                intervalErrors,
                byClass,
                ms(allInterval, 50),
                ms(allInterval, 90),
                ms(allInterval, 99),
                allInterval.getTotalCount() == 0 ? 0 : allInterval.getMaxValue() / 1e6,
                ms(latenessInterval, 99),
                latenessInterval.getTotalCount() == 0 ? 0 : latenessInterval.getMaxValue() / 1e6,
                health != null ? health.activeSessions() : 0,
                sessionsStarted,
                health,
                gcPauseMs,
                run,
                enc);
        latest = point;
        return point;
    }

    private RunPhaseTotals runTotals(long min, long max, long sum, long runErrors) {
        long n = runTotal.getTotalCount();
        if (n == 0) {
            return RunPhaseTotals.NONE;
        }
        return new RunPhaseTotals(
                n,
                runErrors,
                sum / 1e6 / n,
                min / 1e6,
                max / 1e6,
                Percentiles.valueAtMs(runTotal, 50, min, max),
                Percentiles.valueAtMs(runTotal, 90, min, max),
                Percentiles.valueAtMs(runTotal, 99, min, max),
                Percentiles.valueAtMs(runTotal, 99.9, min, max));
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

    /** The phase at an instant, null after the run's time. */
    private Phase phaseAt(long epochNs) {
        if (epochNs < upEndEpochNs) {
            return Phase.UP;
        }
        if (epochNs < runEndEpochNs) {
            return Phase.RUN;
        }
        return epochNs < endEpochNs ? Phase.DOWN : null;
    }

    private static double ms(Histogram h, double p) {
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(p) / 1e6;
    }

    /** HdrHistogram's compressed encoding, base64. */
    static String encoded(Histogram h) {
        ByteBuffer b = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(b);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(b.array(), n));
    }

    /** The other side of {@link #encoded}. */
    public static Histogram decoded(String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(
                    ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (DataFormatException | RuntimeException e) {
            throw new IllegalArgumentException("not an encoded histogram: " + e.getMessage(), e);
        }
    }
}
