package org.rubis.client.arrival;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.client.TestFiles;
import org.rubis.client.input.ConfigException;

class ArrivalsTest {

    @TempDir
    Path tmp;

    @Test
    void fileStartsAreTheCumulativeSums() {
        FileArrivals a = new FileArrivals(TestFiles.write(tmp, "ia.txt", "# ms\n100\n\n50.5\n0\n200\n"));
        assertEquals(100_000_000L, a.next());
        assertEquals(150_500_000L, a.next());
        assertEquals(150_500_000L, a.next());
        assertEquals(350_500_000L, a.next());
        assertEquals(-1, a.next());
    }

    @Test
    void badFileLinesNameTheLine() {
        Path p = TestFiles.write(tmp, "ia.txt", "100\n20\nabc\n");
        ConfigException e = assertThrows(ConfigException.class, () -> new FileArrivals(p));
        assertEquals(
                p + ":3: \"abc\" is not a number; expected one inter-arrival time in milliseconds per line",
                e.getMessage());
        Path n = TestFiles.write(tmp, "neg.txt", "100\n-2\n");
        assertTrue(assertThrows(ConfigException.class, () -> new FileArrivals(n))
                .getMessage()
                .startsWith(n + ":2: -2 is negative"));
        Path empty = TestFiles.write(tmp, "empty.txt", "# nothing\n");
        assertTrue(assertThrows(ConfigException.class, () -> new FileArrivals(empty))
                .getMessage()
                .contains("no inter-arrival times"));
    }

    @Test
    void deterministicScheduleGivesTheRequestedCountPerInterval() {
        ProfileArrivals s =
                Schedules.arrivals(TestFiles.write(tmp, "flash.txt", "0 10\n2 100\n2.5 10\n4 0\n"), false, 1);
        int[] perHalfSecond = new int[8];
        long t;
        while ((t = s.next()) >= 0) {
            assertTrue(t < 4_000_000_000L, "no arrivals after the rate drops to 0");
            perHalfSecond[(int) (t / 500_000_000L)]++;
        }
        assertEquals(5, perHalfSecond[0]);
        assertEquals(5, perHalfSecond[3]);
        assertEquals(50, perHalfSecond[4], "flash crowd: 100/s for 0.5 s");
        assertEquals(5, perHalfSecond[5]);
        assertEquals(5, perHalfSecond[7]);
    }

    @Test
    void exponentialScheduleMatchesTheRatesOnAverage() {
        ProfileArrivals s = Schedules.arrivals(TestFiles.write(tmp, "flash.txt", "0 10\n20 333\n24 10\n"), true, 7);
        int before = 0;
        int crowd = 0;
        long t;
        while ((t = s.next()) >= 0 && t < 60_000_000_000L) {
            if (t < 20_000_000_000L) {
                before++;
            } else if (t < 24_000_000_000L) {
                crowd++;
            }
        }
        assertEquals(200, before, 5 * Math.sqrt(200));
        assertEquals(1332, crowd, 5 * Math.sqrt(1332));
    }

    @Test
    void badScheduleLines() {
        Path p = TestFiles.write(tmp, "s.txt", "0 10\n5\n");
        assertEquals(
                p + ":2: \"5\" has no value; expected 'TIME VALUE [MIX] [THINK-SCALE]', e.g. '30s 100', or 'TIME end'",
                assertThrows(ConfigException.class, () -> Schedules.arrivals(p, true, 1))
                        .getMessage());
        Path q = TestFiles.write(tmp, "q.txt", "10 10\n5 3\n");
        assertEquals(
                q + ":2: time 5 is before the previous point's (line 1); points must be in increasing time order",
                assertThrows(ConfigException.class, () -> Schedules.arrivals(q, true, 1))
                        .getMessage());
    }

    /**
     * A rate schedule of earlier versions ({@code start_s rate_per_s}, commas or semicolons allowed, a first start after
     * 0) reads as a profile of steps and gives, with no up ramp, exactly the arrival instants the schedule gave: the
     * rule it had, written out here (each rate until the next start; exponential gaps drawn from the same stream,
     * restarted at each start; deterministic ones every 1/rate from each start).
     */
    @Test
    void anEarlierRateScheduleGivesTheArrivalsItAlwaysGave() {
        String text = "# flash crowd\n5, 10\n20;333\n24 10\n30 0\n31.5 2.5\n";
        double[][] pieces = {{5, 10}, {20, 333}, {24, 10}, {30, 0}, {31.5, 2.5}};
        Path f = TestFiles.write(tmp, "old.txt", text);
        for (boolean exponential : new boolean[] {true, false}) {
            ProfileArrivals now = Schedules.arrivals(f, exponential, 99);
            SplittableRandom random = new SplittableRandom(99 ^ 0x2545F4914F6CDD1DL);
            double t = pieces[0][0] * 1e9;
            int piece = 0;
            long k = 0;
            int compared = 0;
            while (compared < 3000) {
                double end = piece + 1 < pieces.length ? pieces[piece + 1][0] * 1e9 : Double.POSITIVE_INFINITY;
                double rate = pieces[piece][1];
                if (rate > 0) {
                    double c = exponential
                            ? t + -Math.log(1.0 - random.nextDouble()) * 1e9 / rate
                            : pieces[piece][0] * 1e9 + k * 1e9 / rate;
                    if (c < end) {
                        t = c;
                        k++;
                        assertEquals(
                                (long) c,
                                now.next(),
                                (exponential ? "exponential" : "deterministic") + " arrival " + compared);
                        compared++;
                        continue;
                    }
                }
                t = end;
                piece++;
                k = 0;
            }
        }
    }

    /** A ramp's arrivals follow its rate: the expected count of each second of a ramp from 0 to 100/s over 10 s. */
    @Test
    void aRampsArrivalsFollowItsRate() {
        Path f = TestFiles.write(tmp, "ramp.txt", "shape ramp\n0 0\n10s 100\n20s end\n");
        for (boolean exponential : new boolean[] {true, false}) {
            ProfileArrivals a = Schedules.arrivals(f, exponential, 3);
            int[] perSecond = new int[10];
            long t;
            while ((t = a.next()) >= 0 && t < 10_000_000_000L) {
                perSecond[(int) (t / 1_000_000_000L)]++;
            }
            for (int s = 0; s < 10; s++) {
                double expected = 10 * s + 5; // the mean rate over second s
                double tolerance = exponential ? 5 * Math.sqrt(expected) : 1;
                assertEquals(
                        expected,
                        perSecond[s],
                        tolerance,
                        (exponential ? "exponential" : "deterministic") + ", second " + s);
            }
        }
    }

    @Test
    void exponentialInterArrivalsHaveCoefficientOfVariationOne() {
        ExponentialArrivals a = new ExponentialArrivals(50, 3);
        long prev = 0;
        double sum = 0;
        double sq = 0;
        int n = 200_000;
        for (int i = 0; i < n; i++) {
            long t = a.next();
            double gap = t - prev;
            prev = t;
            sum += gap;
            sq += gap * gap;
        }
        double mean = sum / n;
        double cov = Math.sqrt(sq / n - mean * mean) / mean;
        assertEquals(20e6, mean, 20e6 * 0.01);
        assertEquals(1.0, cov, 0.01);
        DeterministicArrivals d = new DeterministicArrivals(4);
        assertEquals(0, d.next());
        assertEquals(250_000_000L, d.next());
    }
}
