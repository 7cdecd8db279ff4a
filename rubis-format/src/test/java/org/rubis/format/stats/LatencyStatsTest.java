package org.rubis.format.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LatencyStatsTest {

    @Test
    void percentilesNeverExceedTheMaxWhenTheTopValuesShareABucket() {
        LatencyStats c = new LatencyStats();
        for (int i = 0; i < 999; i++) {
            c.record(458_000L, false);
        }
        c.record(145_766_000L, false); // the bucket it lands in tops out above it
        assertTrue(c.histogram().getValueAtPercentile(100) > 145_766_000L, "the raw histogram overshoots");
        assertEquals(145.766, c.maxMs(), 1e-9);
        for (double p : new double[] {99, 99.9, 100}) {
            assertTrue(c.percentileMs(p) <= c.maxMs(), "p" + p + " " + c.percentileMs(p) + " > max " + c.maxMs());
        }
        assertEquals(c.maxMs(), c.percentileMs(100), 1e-9);
        assertTrue(c.percentileMs(0) >= c.minMs());
    }

    @Test
    void countErrorsMeanMinAndMaxAreExact() {
        LatencyStats c = new LatencyStats();
        c.record(1_000_001L, false);
        c.record(2_000_002L, true);
        c.record(3_000_003L, false);
        assertEquals(3, c.count());
        assertEquals(1, c.errors());
        assertEquals(2.000002, c.meanMs(), 0);
        assertEquals(1.000001, c.minMs(), 0);
        assertEquals(3.000003, c.maxMs(), 0);
    }

    @Test
    void anEmptyGroupGivesZeros() {
        LatencyStats c = new LatencyStats();
        assertEquals(0, c.meanMs());
        assertEquals(0, c.minMs());
        assertEquals(0, c.maxMs());
        assertEquals(0, c.percentileMs(99));
    }

    @Test
    void addingGroupsGivesTheFiguresOfAllTheirTimesRecordedInOne() {
        SplittableRandom rnd = new SplittableRandom(5);
        LatencyStats all = new LatencyStats();
        LatencyStats total = new LatencyStats();
        for (int g = 0; g < 7; g++) {
            LatencyStats part = new LatencyStats();
            for (int i = 0; i < 1000; i++) {
                long ns = 20_000 + (long) (-Math.log(1 - rnd.nextDouble()) * 2_000_000 * (g + 1));
                boolean error = rnd.nextInt(30) == 0;
                part.record(ns, error);
                all.record(ns, error);
            }
            total.add(part);
        }
        assertEquals(all.count(), total.count());
        assertEquals(all.errors(), total.errors());
        assertEquals(all.meanMs(), total.meanMs(), 0);
        assertEquals(all.minMs(), total.minMs(), 0);
        assertEquals(all.maxMs(), total.maxMs(), 0);
        for (double p : new double[] {0, 50, 90, 99, 99.9, 100}) {
            assertEquals(all.percentileMs(p), total.percentileMs(p), 0, "p" + p);
        }
    }

    @Test
    void theCoarseLayoutKeepsTwoDigitsAndTheSameClamping() {
        LatencyStats coarse = LatencyStats.coarse();
        LatencyStats fine = new LatencyStats();
        for (long ns = 1_000_000; ns <= 2_000_000; ns += 1000) {
            coarse.record(ns, false);
            fine.record(ns, false);
        }
        double p50 = fine.percentileMs(50);
        assertTrue(Math.abs(coarse.percentileMs(50) - p50) <= p50 / 100, "within 2 digits of " + p50);
        assertTrue(coarse.percentileMs(50) != p50, "2 digits, not 3 (else this test shows nothing)");
        assertEquals(2.0, coarse.percentileMs(100), 0);
        assertEquals(fine.meanMs(), coarse.meanMs(), 0);
    }
}
