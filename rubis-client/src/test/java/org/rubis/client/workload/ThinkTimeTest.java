package org.rubis.client.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rubis.client.TestFiles;

class ThinkTimeTest {

    @Test
    void tpcwMeanIsSevenSecondsAndNeverAboveSeventy() {
        SplittableRandom r = new SplittableRandom(12345);
        int n = 1_000_000;
        double sum = 0;
        long max = 0;
        for (int i = 0; i < n; i++) {
            long t = ThinkTime.tpcw(r);
            sum += t;
            max = Math.max(max, t);
            assertTrue(t >= 0);
        }
        double mean = sum / n;
        // Truncation at 70 s lowers the mean by 7 s * e^-10 (0.3 ms); sampling error is 7 ms (0.1 %).
        assertEquals(7e9, mean, 0.01 * 7e9, "mean think time " + mean / 1e9 + " s");
        assertTrue(max <= 70_000_000_000L, "max " + max);
    }

    @Test
    void perStateWaitingTimeComesFromTheTable() {
        TransitionTable t = TransitionTable.parse(TestFiles.shipped("default_transitions.txt"), 27, 29);
        ThinkTime tt = new ThinkTime(false, t);
        assertEquals(10_000_000_000L, tt.nanos(Interaction.REGISTER.ordinal(), new SplittableRandom(1)));
        assertEquals(
                t.waitingTimeMs(Interaction.ABOUT_ME.ordinal()) * 1_000_000L,
                tt.nanos(Interaction.ABOUT_ME.ordinal(), new SplittableRandom(1)));
    }
}
