package org.rubis.client.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The pieces of the fixed-cost split and of the cheaper sampler: the per-request arithmetic, which
 * threads count, and the hand-written parsing and formatting checked against the JDK's own.
 */
class FixedCostTest {

    @Test
    void perRequestCostTakesTheFixedCostOutAndNeverGoesNegative() {
        FixedCost f = new FixedCost(0.01, 0.001, 1_000_000_000L, 0, 0);
        // 60 s at 0.01 cores fixed = 0.6 s; 2.6 s of CPU for 1,000 requests leaves 2 ms each
        assertEquals(2000.0, f.perRequestUs(2.6, 60, 1000), 1e-6);
        assertEquals(
                0.0,
                f.perRequestUs(0.5, 60, 1000),
                "a fixed cost above the run's CPU leaves nothing, not a negative cost");
        assertEquals(-1.0, f.perRequestUs(2.6, 60, 0), "no request: no figure");
        assertEquals(-1.0, FixedCost.NOT_MEASURED.perRequestUs(2.6, 60, 1000), "not measured: no figure");
    }

    @Test
    void compilerAndGcThreadsAreNotFixedCostAndThreadsBornInTheWindowCountFromZero() {
        Map<Long, ProcCpu.ThreadCpu> a = Map.of(
                1L,
                new ProcCpu.ThreadCpu("client-health", 100),
                2L,
                new ProcCpu.ThreadCpu("C2 CompilerThre", 0),
                3L,
                new ProcCpu.ThreadCpu("GC Thread#0", 0));
        Map<Long, ProcCpu.ThreadCpu> b = Map.of(
                1L,
                new ProcCpu.ThreadCpu("client-health", 150),
                2L,
                new ProcCpu.ThreadCpu("C2 CompilerThre", 9000),
                3L,
                new ProcCpu.ThreadCpu("GC Thread#0", 7000),
                4L,
                new ProcCpu.ThreadCpu("epollEventLoopG", 30));
        assertEquals(80, FixedCost.between(a, b));
        assertTrue(FixedCost.counted("VM Periodic Tas"));
        assertFalse(FixedCost.counted("C1 CompilerThre"));
        assertFalse(FixedCost.counted("G1 Refine#0"));
    }

    @Test
    void anIdleWindowIsMeasuredOnLinux() {
        assumeTrue(Files.isReadable(Path.of("/proc/self/task")), "needs Linux /proc");
        FixedCost f = FixedCost.measure(200_000_000L, deadline -> {
            LockSupport.parkNanos(Math.max(0, deadline - System.nanoTime()));
            return true;
        });
        assertTrue(f.measured(), f.describe());
        assertTrue(f.cores() >= 0 && f.errorCores() >= 0, f.describe());
        assertTrue(f.windowNs() >= 200_000_000L, "the window lasts at least what was asked: " + f.windowNs());
        assertTrue(f.endEpochMs() >= f.startEpochMs());
        assertFalse(
                FixedCost.measure(200_000_000L, deadline -> false).measured(),
                "a stop during the window: not measured");
    }

    @Test
    void threeDecimalsAsStringFormatPrintsThem() {
        double[] values = {
            0, 0.0004, 0.001, 0.0125, 0.1, 0.472, 1, 1.98, 2.000, 12.3456, 123456.789, -0.25, -1.5, 0.999, 0.9996
        };
        for (double v : values) {
            StringBuilder b = new StringBuilder();
            HealthSampler.fixed3(b, v);
            assertEquals(String.format(Locale.ROOT, "%.3f", v), b.toString(), "value " + v);
        }
        StringBuilder nan = new StringBuilder();
        HealthSampler.fixed3(nan, Double.NaN);
        assertEquals("", nan.toString());
    }

    @Test
    void procStatIsParsedAsTheFieldsSay() {
        String stat =
                "cpu  100 5 50 1000 20 3 4 7 0 0\ncpu0 50 2 25 500 10 1 2 3 0 0\nintr 12345 1 2 3\nctxt 999\nprocs_running 3\nprocs_blocked 0\n";
        HostStat.Sample s = HostStat.parse(
                stat.getBytes(StandardCharsets.US_ASCII),
                "0.52 0.40 0.30 2/300 1234\n".getBytes(StandardCharsets.US_ASCII));
        assertEquals(100 + 5 + 50 + 1000 + 20 + 3 + 4 + 7, s.total(), "user..steal");
        assertEquals(1020, s.idle(), "idle + iowait");
        assertEquals(7, s.steal());
        assertEquals(3, s.procsRunning());
        assertEquals(0.52, s.load1(), 1e-9);
        assertFalse(HostStat.parse("garbage\n".getBytes(StandardCharsets.US_ASCII), new byte[0])
                .available());
    }

    @Test
    void theLiveProcStatParsesLikeASplitOfItsFirstLine() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/stat")), "needs Linux /proc");
        byte[] stat = Files.readAllBytes(Path.of("/proc/stat"));
        String[] f = new String(stat, StandardCharsets.US_ASCII)
                .lines()
                .filter(l -> l.startsWith("cpu "))
                .findFirst()
                .orElseThrow()
                .trim()
                .split("\\s+");
        long total = 0;
        for (int i = 1; i < Math.min(f.length, 9); i++) {
            total += Long.parseLong(f[i]);
        }
        HostStat.Sample s = HostStat.parse(stat, Files.readAllBytes(Path.of("/proc/loadavg")));
        assertEquals(total, s.total());
        assertEquals(Long.parseLong(f[4]) + Long.parseLong(f[5]), s.idle());
        assertTrue(s.procsRunning() >= 1, "this thread is running: " + s.procsRunning());
    }
}
