package org.rubis.client.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.rubis.client.log.RequestRecord;
import org.rubis.client.log.SessionRecord;
import org.rubis.client.workload.Interaction;
import org.rubis.format.run.ErrorClass;
import org.rubis.format.run.Phase;
import org.rubis.format.run.SessionEnd;
import org.rubis.format.stats.LatencyStats;

/**
 * The run's one statistics pipeline against an independent computation of the same random records: exact counts,
 * errors, sums, minima and maxima, errors by class and connections, and percentiles within HdrHistogram's precision
 * of the sorted values, for the run's totals (what the summary prints) and for each interval's point (what the live
 * page, Prometheus' gauges and the progress line print); the points' run-phase figures are the totals' to the
 * nanosecond; and a writer recording while another thread swaps intervals out loses nothing.
 */
class RunStatsTest {

    /** HdrHistogram with 3 significant digits: a value is read back within a part in 1024 of itself. */
    private static final double PRECISION = 1.0 / 1024;

    static RequestRecord record(Phase phase, long responseNs, long latenessNs, ErrorClass error, int status) {
        return record(phase, Interaction.HOME, responseNs, latenessNs, error, status, "127.0.0.1:1");
    }

    static RequestRecord record(
            Phase phase,
            Interaction state,
            long responseNs,
            long latenessNs,
            ErrorClass error,
            int status,
            String connection) {
        long intended = 1_800_000_000_000_000_000L;
        return new RequestRecord(
                1,
                "u",
                0,
                state,
                "/PHP/index.html",
                phase,
                intended,
                intended + latenessNs,
                responseNs / 2,
                responseNs,
                100,
                status,
                error,
                false,
                connection,
                false,
                "netty",
                0,
                0,
                0,
                0,
                "",
                null);
    }

    /** The {@code p}-th percentile of sorted values read as HdrHistogram does, within its precision (ms). */
    private static void assertPercentile(long[] sorted, double p, double actualMs, String what) {
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        long lo = sorted[Math.max(0, rank - 2)];
        long hi = sorted[Math.min(sorted.length - 1, rank)];
        assertTrue(
                actualMs >= lo / 1e6 * (1 - PRECISION) && actualMs <= hi / 1e6 * (1 + PRECISION),
                what + " p" + p + ": " + actualMs + " ms, exact " + sorted[Math.max(0, rank - 1)] / 1e6);
    }

    private static long[] sorted(List<Long> values) {
        long[] a = values.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(a);
        return a;
    }

    @Test
    void theTotalsAndEveryIntervalsPointAreTheRecordsFigures() {
        RunStats s = new RunStats();
        assertNull(s.roll(null, 0), "no interval before the run's clock");
        s.clock(0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE);
        Random rnd = new Random(7);
        Map<Phase, List<Long>> byPhase = new HashMap<>();
        Map<Phase, Long> errorsByPhase = new HashMap<>();
        List<Long> all = new ArrayList<>();
        List<Long> homeInRun = new ArrayList<>();
        Map<String, Long> byClass = new LinkedHashMap<>();
        Set<String> connections = new HashSet<>();
        Map<String, Long> outcomes = new HashMap<>();
        long pointRequests = 0;
        long pointErrors = 0;
        Map<String, Long> pointByClass = new HashMap<>();
        long maxLateness = 0;
        for (int interval = 0; interval < 20; interval++) {
            int n = 1 + rnd.nextInt(500);
            List<Long> inInterval = new ArrayList<>();
            long errorsInInterval = 0;
            for (int i = 0; i < n; i++) {
                Phase phase = Phase.values()[rnd.nextInt(3)];
                Interaction state = rnd.nextBoolean() ? Interaction.HOME : Interaction.BROWSE;
                long ns = (long) Math.exp(rnd.nextGaussian() * 2 + 14); // about 1 ms, spread over decades
                long late = rnd.nextInt(5_000_000);
                boolean error = rnd.nextInt(20) == 0;
                ErrorClass e = error ? (rnd.nextBoolean() ? ErrorClass.HTTP_STATUS : ErrorClass.RESET) : null;
                String connection = "c" + rnd.nextInt(300);
                RequestRecord r = record(
                        phase,
                        state,
                        ns,
                        late,
                        e,
                        e == ErrorClass.HTTP_STATUS ? 500 + rnd.nextInt(3) : 200,
                        connection);
                s.accept(r);
                byPhase.computeIfAbsent(phase, k -> new ArrayList<>()).add(ns);
                all.add(ns);
                inInterval.add(ns);
                if (phase == Phase.RUN && state == Interaction.HOME) {
                    homeInRun.add(ns);
                }
                if (error) {
                    errorsByPhase.merge(phase, 1L, Long::sum);
                    byClass.merge(r.errorLabel(), 1L, Long::sum);
                    errorsInInterval++;
                }
                connections.add(connection);
                outcomes.merge(phase + "|" + state + "|" + (error ? r.errorLabel() : "success"), 1L, Long::sum);
                maxLateness = Math.max(maxLateness, late);
            }
            IntervalPoint p = s.roll(null, interval);
            assertEquals(interval, p.seq());
            assertEquals(n, p.requests());
            assertEquals(errorsInInterval, p.errors());
            assertPercentile(sorted(inInterval), 99, p.p99Ms(), "interval " + interval);
            pointRequests += p.requests();
            pointErrors += p.errors();
            p.errorsByClass().forEach((k, v) -> pointByClass.merge(k, v, Long::sum));
        }
        RunTotals t = s.totals();
        assertEquals(all.size(), t.overall().count());
        assertEquals(all.size(), pointRequests);
        assertEquals(errorsByPhase.values().stream().mapToLong(Long::longValue).sum(), pointErrors);
        assertEquals(byClass, t.errorsByClass(), "by class, in the order first met");
        assertEquals(byClass, pointByClass);
        assertEquals(connections.size(), t.distinctConnections());
        assertEquals(maxLateness, t.maxLatenessNs());
        Map<String, Long> counted = new HashMap<>();
        t.requests((phase, state, outcome, n) -> counted.merge(phase + "|" + state + "|" + outcome, n, Long::sum));
        assertEquals(outcomes, counted, "by phase, state and outcome (Prometheus' rubis_requests_total)");
        for (Phase phase : Phase.values()) {
            long[] v = sorted(byPhase.get(phase));
            LatencyStats cell = t.phaseTotal(phase);
            assertEquals(v.length, cell.count(), phase + " requests");
            assertEquals(errorsByPhase.getOrDefault(phase, 0L), cell.errors(), phase + " errors");
            assertEquals(Arrays.stream(v).sum(), cell.sumNs(), phase + " sum");
            assertEquals(v[0], cell.minNs());
            assertEquals(v[v.length - 1], cell.maxNs());
            for (double q : new double[] {50, 90, 99, 99.9}) {
                assertPercentile(v, q, cell.percentileMs(q), phase.toString());
            }
        }
        long[] home = sorted(homeInRun);
        assertEquals(home.length, t.cell(Phase.RUN, Interaction.HOME).count());
        assertPercentile(home, 90, t.cell(Phase.RUN, Interaction.HOME).percentileMs(90), "run/home");
        LatencyStats run = t.phaseTotal(Phase.RUN);
        RunPhaseTotals live = s.latest().run();
        assertEquals(run.count(), live.count());
        assertEquals(run.errors(), live.errors());
        assertEquals(run.meanMs(), live.meanMs(), 0);
        assertEquals(run.minMs(), live.minMs(), 0);
        assertEquals(run.maxMs(), live.maxMs(), 0);
        assertEquals(run.percentileMs(50), live.p50Ms(), 0);
        assertEquals(run.percentileMs(90), live.p90Ms(), 0);
        assertEquals(run.percentileMs(99), live.p99Ms(), 0);
        assertEquals(run.percentileMs(99.9), live.p999Ms(), 0);
    }

    @Test
    void sessionsAreCountedInTheIntervalTheyBeganIn() {
        RunStats s = new RunStats();
        long start = 1_000_000_000_000L;
        s.intervals(new long[] {start, start + 10, start + 20});
        s.accept(new SessionRecord(1, 0, "u", start + 1, start + 2, start + 50, 3, 0, SessionEnd.END_OF_SESSION));
        s.accept(new SessionRecord(2, 0, "u", start + 12, start + 15, start + 60, 3, 0, SessionEnd.END_OF_SESSION));
        s.accept(new SessionRecord(3, -1, "", start + 13, 0, 0, 0, 0, SessionEnd.DROPPED));
        s.accept(new SessionRecord(4, 0, "u", start - 5, start - 1, start + 5, 1, 0, SessionEnd.END_OF_SESSION));
        RunTotals t = s.totals();
        assertEquals(1, t.interval(0).sessionsBegun());
        assertEquals(1, t.interval(1).sessionsBegun());
        assertEquals(1, t.interval(1).sessionsDropped);
        assertEquals(3, t.sessionsEnded(e -> e == SessionEnd.END_OF_SESSION));
        assertEquals((48 + 45 + 6) / 3 / 1e9, t.meanSessionSeconds(), 1e-18);
    }

    @Test
    void readingTheTotalsDuringAnIntervalLeavesItsRecordsToItsPoint() {
        RunStats s = new RunStats();
        s.clock(0, 0, Long.MAX_VALUE - 1, Long.MAX_VALUE);
        for (int i = 0; i < 3; i++) {
            s.accept(record(Phase.RUN, 1_000_000L, 0, null, 200));
        }
        assertEquals(3, s.totals().overall().count());
        s.accept(record(Phase.RUN, 2_000_000L, 0, ErrorClass.RESET, 0));
        IntervalPoint p = s.roll(null, 0);
        assertEquals(4, p.requests(), "the records the totals took are still the interval's");
        assertEquals(1, p.errors());
        assertEquals(4, p.run().count());
        assertEquals(4, s.totals().overall().count(), "each record once in the totals");
        assertEquals(0, s.roll(null, 0).requests());
    }

    @Test
    void recordingWhileIntervalsAreSwappedOutLosesNothing() throws Exception {
        RunStats s = new RunStats();
        s.clock(0, 0, Long.MAX_VALUE - 1, Long.MAX_VALUE);
        int n = 300_000;
        AtomicBoolean done = new AtomicBoolean();
        Thread writer = new Thread(() -> {
            for (int i = 0; i < n; i++) {
                s.accept(record(Phase.RUN, 1000 + i, 0, i % 7 == 0 ? ErrorClass.RESET : null, 200));
            }
            done.set(true);
        });
        long seen = 0;
        writer.start();
        while (!done.get()) {
            seen += s.roll(null, 0).requests();
        }
        writer.join();
        seen += s.roll(null, 0).requests();
        assertEquals(n, seen);
        assertEquals(n, s.latest().run().count());
        LatencyStats run = s.totals().phaseTotal(Phase.RUN);
        assertEquals(n, run.count());
        assertEquals((n + 6) / 7, run.errors());
        assertEquals((long) n * 1000 + (long) n * (n - 1) / 2, run.sumNs(), "every time, once");
    }

    @Test
    void theProgressWindowCoversTheIntervalsSinceTheLastLine() {
        RunStats s = new RunStats();
        s.clock(0, 0, Long.MAX_VALUE - 1, Long.MAX_VALUE);
        s.window();
        for (int i = 0; i < 100; i++) {
            s.accept(record(Phase.RUN, (i + 1) * 1_000_000L, 0, null, 200));
        }
        s.roll(null, 0);
        s.accept(record(Phase.RUN, 500_000_000L, 0, ErrorClass.RESET, 0));
        s.roll(null, 0);
        RunStats.Window w = s.window();
        assertEquals(101, w.requests());
        assertEquals(1, w.errors());
        assertEquals(100, w.p99Ms(), 0.1, "the 100th of 101 values: 100 ms");
        assertEquals(0, s.window().requests(), "the next window starts empty");
    }
}
