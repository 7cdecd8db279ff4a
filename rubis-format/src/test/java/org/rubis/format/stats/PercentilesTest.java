package org.rubis.format.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class PercentilesTest {

    @Test
    void aPercentileInTheMaxsBucketIsTheMaxNotTheBucketsTop() {
        // 145.766 ms and 145.800 ms share one bucket at 3 digits: HdrHistogram alone answers that bucket's top.
        Histogram h = Percentiles.newHistogram();
        long max = 145_766_000L;
        for (int i = 0; i < 99; i++) {
            h.recordValue(1_000_000L);
        }
        h.recordValue(max);
        assertTrue(h.getValueAtPercentile(99.9) > max, "the raw histogram overshoots (else this test shows nothing)");
        assertEquals(max, Percentiles.valueAt(h, 99.9, 1_000_000L, max));
        assertEquals(max, Percentiles.valueAt(h, 100, 1_000_000L, max));
    }

    @Test
    void aPercentileIsNeverBelowTheMin() {
        Histogram h = Percentiles.newHistogram();
        long v = 7_000_123L; // every value in one bucket: all percentiles are that one value
        for (int i = 0; i < 10; i++) {
            h.recordValue(v);
        }
        for (double p : new double[] {0, 50, 99, 99.9, 100}) {
            assertEquals(v, Percentiles.valueAt(h, p, v, v), "p" + p);
        }
    }

    @Test
    void anEmptyHistogramGivesZeroAndUnknownBoundsChangeNothing() {
        Histogram h = Percentiles.newHistogram();
        assertEquals(0, Percentiles.valueAt(h, 50, 0, Long.MAX_VALUE));
        h.recordValue(5_000_000L);
        h.recordValue(9_000_000L);
        assertEquals(h.getValueAtPercentile(50), Percentiles.valueAt(h, 50, 0, Long.MAX_VALUE));
    }

    @Test
    void recordedValuesAreKeptWithinOneHourAndAboveZero() {
        assertEquals(1, Percentiles.recorded(0));
        assertEquals(1, Percentiles.recorded(-5));
        assertEquals(Percentiles.MAX_NS, Percentiles.recorded(Long.MAX_VALUE));
        assertEquals(42, Percentiles.recorded(42));
    }
}
