package org.rubis.client.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rubis.analysis.stats.Latency;

/** The summary's percentiles (LatencyCell) follow the shared rule: never above the max, and the same as the report's. */
class LatencyCellPercentilesTest {

    @Test
    void percentilesNeverExceedTheMaxWhenTheTopValuesShareABucket() {
        LatencyCell c = new LatencyCell();
        for (int i = 0; i < 999; i++) {
            c.record(458_000L, false);
        }
        c.record(145_766_000L, false); // the bucket it lands in tops out above it
        assertEquals(145.766, c.maxMs(), 1e-9);
        for (double p : new double[] {99, 99.9, 100}) {
            assertTrue(c.percentileMs(p) <= c.maxMs(), "p" + p + " " + c.percentileMs(p) + " > max " + c.maxMs());
        }
        assertEquals(c.maxMs(), c.percentileMs(100), 1e-9);
        assertTrue(c.percentileMs(0) >= c.minMs());
    }

    @Test
    void theSummaryAndTheReportGiveTheSameFiguresForTheSameTimes() {
        LatencyCell client = new LatencyCell();
        Latency report = new Latency();
        SplittableRandom rnd = new SplittableRandom(8);
        for (int i = 0; i < 20_000; i++) {
            long ns = 50_000 + (long) (-Math.log(1 - rnd.nextDouble()) * 3_000_000);
            client.record(ns, false);
            report.add(ns, false);
        }
        for (double p : new double[] {0, 50, 90, 95, 99, 99.9, 100}) {
            assertEquals(client.percentileMs(p), report.percentileMs(p), 0, "p" + p);
        }
        assertEquals(client.maxMs(), report.maxMs(), 0);
    }
}
