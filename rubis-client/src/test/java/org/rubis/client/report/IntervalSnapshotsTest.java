package org.rubis.client.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.rubis.client.log.RequestRecord;
import org.rubis.client.workload.Interaction;
import org.rubis.format.ErrorClass;
import org.rubis.format.LatencyStats;
import org.rubis.format.Phase;

/**
 * The interval snapshots against the summary's own statistics ({@link RunStats}, fed the same records): interval by
 * interval, the requests and errors add up to the log's; at the end the run phase's figures are the summary's to the
 * nanosecond; and a writer recording while another thread swaps intervals out loses nothing.
 */
class IntervalSnapshotsTest {

    static RequestRecord record(Phase phase, long responseNs, long latenessNs, ErrorClass error, int status) {
        long intended = 1_800_000_000_000_000_000L;
        return new RequestRecord(
                1,
                "u",
                0,
                Interaction.HOME,
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
                "127.0.0.1:1",
                false,
                "netty",
                0,
                0,
                0,
                0);
    }

    @Test
    void intervalsAddUpToTheLogAndTheRunPhaseEndsWithTheSummarysFigures() {
        IntervalSnapshots s = new IntervalSnapshots();
        RunStats stats = new RunStats();
        assertNull(s.roll(null, 0), "no interval before the run's clock");
        s.clock(0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE);
        Random rnd = new Random(7);
        long requests = 0;
        long errors = 0;
        Map<String, Long> byClass = new HashMap<>();
        for (int interval = 0; interval < 20; interval++) {
            int n = rnd.nextInt(500);
            for (int i = 0; i < n; i++) {
                Phase phase = Phase.values()[rnd.nextInt(3)];
                long ns = (long) Math.exp(rnd.nextGaussian() * 2 + 14); // about 1 ms, spread over decades
                boolean error = rnd.nextInt(20) == 0;
                RequestRecord r = record(
                        phase,
                        ns,
                        rnd.nextInt(5_000_000),
                        error ? ErrorClass.HTTP_STATUS : null,
                        error ? 500 + rnd.nextInt(3) : 200);
                s.request(r);
                stats.accept(r);
            }
            IntervalPoint p = s.roll(null, interval);
            requests += p.requests();
            errors += p.errors();
            p.errorsByClass().forEach((k, v) -> byClass.merge(k, v, Long::sum));
            assertEquals(interval, p.seq());
        }
        LatencyStats all = stats.overall();
        assertEquals(all.count(), requests);
        assertEquals(all.errors(), errors);
        assertEquals(stats.errorsByClass(), byClass);
        LatencyStats run = stats.phaseTotal(Phase.RUN);
        RunPhaseTotals t = s.latest().run();
        assertEquals(run.count(), t.count());
        assertEquals(run.errors(), t.errors());
        assertEquals(run.meanMs(), t.meanMs(), 1e-9);
        assertEquals(run.minMs(), t.minMs(), 0);
        assertEquals(run.maxMs(), t.maxMs(), 0);
        assertEquals(run.percentileMs(50), t.p50Ms(), 0);
        assertEquals(run.percentileMs(90), t.p90Ms(), 0);
        assertEquals(run.percentileMs(99), t.p99Ms(), 0);
        assertEquals(run.percentileMs(99.9), t.p999Ms(), 0);
    }

    @Test
    void recordingWhileIntervalsAreSwappedOutLosesNothing() throws Exception {
        IntervalSnapshots s = new IntervalSnapshots();
        s.clock(0, 0, Long.MAX_VALUE - 1, Long.MAX_VALUE);
        int n = 300_000;
        AtomicBoolean done = new AtomicBoolean();
        Thread writer = new Thread(() -> {
            for (int i = 0; i < n; i++) {
                s.request(record(Phase.RUN, 1000 + i, 0, null, 200));
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
    }

    @Test
    void theProgressWindowCoversTheIntervalsSinceTheLastLine() {
        IntervalSnapshots s = new IntervalSnapshots();
        s.clock(0, 0, Long.MAX_VALUE - 1, Long.MAX_VALUE);
        s.window();
        for (int i = 0; i < 100; i++) {
            s.request(record(Phase.RUN, (i + 1) * 1_000_000L, 0, null, 200));
        }
        s.roll(null, 0);
        s.request(record(Phase.RUN, 500_000_000L, 0, ErrorClass.RESET, 0));
        s.roll(null, 0);
        IntervalSnapshots.Window w = s.window();
        assertEquals(101, w.requests());
        assertEquals(1, w.errors());
        assertEquals(100, w.p99Ms(), 0.1, "the 100th of 101 values: 100 ms");
        assertEquals(0, s.window().requests(), "the next window starts empty");
    }
}
