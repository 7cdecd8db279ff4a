package org.rubis.client.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The summary's GC line from synthetic notifications and counters: count, total and longest come from the same pauses,
 * so the total is never below the longest (the audit's "1 pauses totalling 3 ms, longest 2 ms").
 */
class GcPausesTest {

    @Test
    void theAuditsCaseTotalsTheNotifiedPauseNotTheCounter() {
        // One G1 young pause notified as 2 ms; the collector's counter says 3 ms (its own rounding and accounting).
        GcPauses p = new GcPauses();
        p.record("G1 Young Generation", 2);
        GcPauses.Figures f = p.figures(new GcTotals(1, 3, 1, 3));
        assertEquals(1, f.pauses());
        assertEquals(2, f.totalMs(), "the notification's own duration");
        assertEquals(2, f.longestMs());
        assertEquals(0, f.missed());
        String line = f.describe();
        assertTrue(line.startsWith("1 pause, 2 ms in all, longest 2 ms (stop-the-world pauses"), line);
        assertTrue(line.contains("1 collection in all"), line);
    }

    @Test
    void concurrentCyclesAreCollectionsNotPauses() {
        GcPauses p = new GcPauses();
        p.record("ZGC Minor Cycles", 40);
        p.record("ZGC Minor Pauses", 0);
        p.record("ZGC Minor Pauses", 1);
        GcPauses.Figures f = p.figures(new GcTotals(3, 41, 2, 1));
        assertEquals(2, f.pauses());
        assertEquals(1, f.totalMs(), "the cycle's 40 ms of concurrent work is no pause");
        assertEquals(1, f.longestMs());
        assertEquals(3, f.collections());
        assertEquals(
                "no stop-the-world pause (2 collections, all concurrent)", GcPauses.Figures.describe(2, 0, 0, 0, 0));
    }

    @Test
    void pausesTheNotificationsMissedComeFromTheCounters() {
        // 71 pauses, 5,578 ms by the counters; the notifications saw 20 of them, 1,220 ms, the longest 80 ms.
        GcPauses p = new GcPauses();
        for (int i = 0; i < 19; i++) {
            p.record("G1 Young Generation", 60);
        }
        p.record("G1 Young Generation", 80);
        GcPauses.Figures f = p.figures(new GcTotals(71, 5578, 71, 5578));
        assertEquals(20, f.notified());
        assertEquals(51, f.missed());
        assertEquals(71, f.pauses());
        assertEquals(5578, f.totalMs(), "the notified time plus the counters' remainder: the counters' total");
        assertEquals(85, f.longestMs(), "the missed ones' mean (4,358 ms / 51), longer than any notified");
        // when a notified pause is longer than the missed ones' mean, it is the longest
        p.record("G1 Young Generation", 900);
        assertEquals(900, p.figures(new GcTotals(72, 6478, 72, 6478)).longestMs());
        assertTrue(f.describe().contains("longest at least " + f.longestMs() + " ms"), f.describe());
        assertTrue(f.describe().contains("51 of the pauses are not in client-gc.csv"), f.describe());
    }

    @Test
    void theTotalIsNeverBelowTheLongest() {
        // Counters that disagree with the notifications either way (rounding, window edges, lost notifications).
        SplittableRandom r = new SplittableRandom(11);
        for (int run = 0; run < 2000; run++) {
            GcPauses p = new GcPauses();
            int notified = r.nextInt(6);
            long notifiedMs = 0;
            for (int i = 0; i < notified; i++) {
                long ms = r.nextInt(50);
                notifiedMs += ms;
                p.record(r.nextBoolean() ? "G1 Young Generation" : "G1 Concurrent GC", ms);
            }
            long counterPauses = Math.max(0, notified + r.nextInt(7) - 3);
            long counterMs = Math.max(0, notifiedMs + r.nextInt(101) - 50);
            GcPauses.Figures f = p.figures(
                    new GcTotals(counterPauses + r.nextInt(3), counterMs + r.nextInt(5), counterPauses, counterMs));
            String what = notified + " notified (" + notifiedMs + " ms), counters " + counterPauses + " (" + counterMs
                    + " ms): " + f;
            assertTrue(f.totalMs() >= f.longestMs(), what);
            assertTrue(f.pauses() >= f.notified() && f.pauses() >= counterPauses, what);
            assertTrue(f.collections() >= f.pauses(), what);
            assertTrue(f.pauses() > 0 || f.totalMs() == 0, what);
        }
    }

    @Test
    void nothingCountsAfterTheClose() {
        GcPauses p = new GcPauses();
        p.record("G1 Young Generation", 4);
        p.close();
        p.record("G1 Young Generation", 400);
        GcPauses.Figures f = p.figures(new GcTotals(1, 4, 1, 4));
        assertEquals(1, f.pauses());
        assertEquals(4, f.longestMs());
        assertFalse(f.describe().contains("not in client-gc.csv"), f.describe());
    }
}
