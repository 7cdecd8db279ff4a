package org.rubis.lab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The soak verdict on synthetic series: flat, growing, noisy but flat, and the heap judged after collections. */
class SoakTrendTest {

    /** One point a minute for 30 minutes. */
    private static SoakTrend.Series series(DoubleUnaryOperator minuteToValue, double floor) {
        double[] t = new double[30], v = new double[30];
        for (int i = 0; i < 30; i++) {
            t[i] = i * 60 + 30;
            v[i] = minuteToValue.applyAsDouble(i);
        }
        return new SoakTrend.Series("x", "MiB", t, v, floor);
    }

    @Test
    void aConstantSeriesIsFlat() {
        SoakTrend.Series s = series(m -> 300, 16);
        assertEquals(0, s.slopePerMinute(), 1e-9);
        assertTrue(s.flat(), s.line());
    }

    @Test
    void aSteadyLeakIsGrowing() {
        // +2 MiB a minute: 58 MiB over 29 minutes, beyond 5 % of a ~330 MiB mean
        SoakTrend.Series s = series(m -> 300 + 2 * m, 16);
        assertEquals(2, s.slopePerMinute(), 1e-9);
        assertFalse(s.flat(), s.line());
        // the same leak under noise is still found
        Random r = new Random(7);
        SoakTrend.Series noisy = series(m -> 300 + 2 * m + r.nextGaussian() * 5, 16);
        assertFalse(noisy.flat(), noisy.line());
    }

    @Test
    void noiseAroundAFlatLevelIsNotGrowth() {
        // +-30 % noise around 300 MiB: the least-squares line wanders, but not beyond three standard errors
        for (long seed = 1; seed <= 50; seed++) {
            Random r = new Random(seed);
            SoakTrend.Series s = series(m -> 300 * (1 + 0.3 * (r.nextDouble() * 2 - 1)), 16);
            assertTrue(s.flat(), "seed " + seed + ": " + s.line());
        }
        // a G1-like saw-tooth of the old generation (slow growth, then a mixed collection) is flat too
        assertTrue(series(m -> 200 + 10 * (m % 6), 16).flat());
    }

    @Test
    void aSmallGrowthWithinTheToleranceIsFlat() {
        // 0.3 MiB a minute: 8.7 MiB over the span, under the 16 MiB floor and 5 % of the mean
        SoakTrend.Series s = series(m -> 300 + 0.3 * m, 16);
        assertTrue(s.flat(), s.line());
    }

    @Test
    void aFallingSeriesIsNoLeak() {
        assertTrue(series(m -> 500 - 5 * m, 16).flat());
    }

    @Test
    void theHeapIsJudgedAfterCollectionsNotOnTheSawTooth(@TempDir Path dir) throws IOException {
        // client-health: the used heap climbs each minute from 100 to 900 MiB before a collection, and the peaks grow;
        // client-gc: what survives each collection stays at 120 MiB. Threads and fds flat.
        long t0 = 1_700_000_000_000L;
        StringBuilder health = new StringBuilder(
                "epoch_ms,cpu_cores,heap_used_bytes,heap_max_bytes,threads,active_sessions,requests,open_fds\n");
        StringBuilder gc = new StringBuilder("end_epoch_ms,duration_ms,gc,action,cause,heap_after_bytes\n");
        for (int s = 0; s < 20 * 60; s++) {
            double used = 100 + (s % 60) * (13 + s / 60.0);
            health.append(t0 + s * 1000L)
                    .append(",0.5,")
                    .append((long) (used * (1 << 20)))
                    .append(",1073741824,40,4000,")
                    .append(s * 10)
                    .append(",120\n");
            if (s % 60 == 59) {
                gc.append(t0 + s * 1000L + 500)
                        .append(",5,G1 Young Generation,end of minor GC,G1 Evacuation Pause,")
                        .append(120L << 20)
                        .append('\n');
            }
        }
        health.append(t0 + 20 * 60 * 1000L)
                .append(",0.5,9999"); // the torn last line of a killed run: skipped, not read as 9999 bytes
        Files.writeString(dir.resolve("client-health.csv"), health);
        Files.writeString(dir.resolve("client-gc.csv"), gc);
        SoakTrend.Trend t = SoakTrend.read(dir, 60);
        assertEquals(20 * 60, t.rows().size());
        assertTrue(t.heapSource().contains("after each collection"), t.heapSource());
        SoakTrend.Series heap = t.series().get(0);
        assertEquals(120, heap.mean(), 1e-6);
        assertTrue(t.flat(), t.series().toString());
        List<String> windows = t.windows(5, 60);
        assertEquals(1 + 4 + 1, windows.size(), windows.toString()); // header, 4 windows of 5 minutes, footnote
        assertTrue(windows.get(1).startsWith("0-5*"), windows.get(1));
        assertTrue(windows.get(2).contains("120-120"), windows.get(2));

        // an older run without heap_after_bytes falls back to the per-minute floor of the health samples
        Files.writeString(dir.resolve("client-gc.csv"), "end_epoch_ms,duration_ms,gc,action,cause\n");
        assertTrue(SoakTrend.read(dir, 60).heapSource().contains("client-health.csv"));

        // a leak in what survives collections is found
        StringBuilder leak = new StringBuilder("end_epoch_ms,duration_ms,gc,action,cause,heap_after_bytes\n");
        for (int m = 0; m < 20; m++) {
            leak.append(t0 + m * 60_000L + 59_500)
                    .append(",5,G1 Young Generation,end of minor GC,G1 Evacuation Pause,")
                    .append((long) ((120 + 6 * m) * (double) (1 << 20)))
                    .append('\n');
        }
        Files.writeString(dir.resolve("client-gc.csv"), leak);
        SoakTrend.Trend grows = SoakTrend.read(dir, 60);
        assertFalse(grows.series().get(0).flat(), grows.series().get(0).line());
        assertTrue(grows.series().get(1).flat() && grows.series().get(2).flat());
        assertFalse(grows.flat());
    }

    /** client-health.csv with one sample a second for {@code seconds}, flat figures; no collections. */
    private static void shortRun(Path dir, int seconds) throws IOException {
        long t0 = 1_700_000_000_000L;
        StringBuilder health = new StringBuilder(
                "epoch_ms,cpu_cores,heap_used_bytes,heap_max_bytes,threads,active_sessions,requests,open_fds\n");
        for (int s = 0; s <= seconds; s++) {
            health.append(t0 + s * 1000L)
                    .append(",0.5,")
                    .append(100L << 20)
                    .append(",1073741824,40,10,")
                    .append(s * 10)
                    .append(",120\n");
        }
        Files.writeString(dir.resolve("client-health.csv"), health);
        Files.writeString(dir.resolve("client-gc.csv"), "end_epoch_ms,duration_ms,gc,action,cause,heap_after_bytes\n");
    }

    @Test
    void aRunShorterThanItsWarmUpIsNotJudgedNotFlat(@TempDir Path dir) throws IOException {
        // bench soak --duration 20s: the client ran 25 s, the judging starts at 65 s: no point to judge
        shortRun(dir, 25);
        SoakTrend.Trend t = SoakTrend.read(dir, 65);
        assertFalse(t.judged());
        assertFalse(t.flat(), "zero points are not FLAT");
        assertEquals("NOT JUDGED: the run (25 s) is shorter than the warm-up window (65 s)", t.judgedFrom(65));
        for (SoakTrend.Series s : t.series()) {
            assertEquals(0, s.t().length);
            assertFalse(s.flat());
            assertTrue(s.line().contains("not judged: 0 one-minute points after the warm-up, need 3"), s.line());
            assertFalse(s.line().contains("FLAT") || s.line().contains("GROWING"), s.line());
        }
    }

    @Test
    void twoMinutesAfterTheWarmUpAreTooFewAndThreeAreEnough(@TempDir Path dir) throws IOException {
        shortRun(dir, 175); // minutes 1 and 2 after a 65 s warm-up: two points
        SoakTrend.Trend two = SoakTrend.read(dir, 65);
        assertFalse(two.judged());
        assertEquals(2, two.series().get(1).t().length);
        assertTrue(
                two.judgedFrom(65)
                        .startsWith("NOT JUDGED: the run (175 s) leaves 110 s after the warm-up window (65 s)"),
                two.judgedFrom(65));
        assertTrue(two.judgedFrom(65).contains("samples up to 180 s"), two.judgedFrom(65));
        shortRun(dir, 180);
        SoakTrend.Trend three = SoakTrend.read(dir, 65);
        assertTrue(three.judged(), three.series().toString());
        assertTrue(three.flat(), three.series().toString());
        assertEquals("judged from 65 s on", three.judgedFrom(65));
    }
}
