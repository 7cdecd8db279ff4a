package org.rubis.client.report;

import java.util.Locale;
import java.util.Map;
import java.util.function.LongPredicate;

/**
 * The client's fixed CPU cost: what the process burns per second with nothing to send (samplers,
 * timers, the log writer, the backend's event loops), measured in an idle window before the first
 * request. At low rates it dominates the process's CPU, so CPU divided by requests says little
 * about the cost of a request; the summary prints the two apart: per-request CPU =
 * (run-phase CPU - fixed cores x run seconds) / run-phase requests.
 *
 * <p>The window is cut in four quarters; the figure is the whole window's CPU over its length and
 * its uncertainty the standard error of the four quarters' rates (a 1 s sampler tick lands in one
 * of them). JIT compiler and GC threads are left out: their work follows the code run and the
 * memory allocated (start-up, requests), not the clock, and the start-up's tail would otherwise
 * pass for a fixed cost.
 *
 * @param cores       fixed cost in cores (-1 when not measured)
 * @param errorCores  standard error of {@code cores}
 * @param windowNs    length of the window
 * @param startEpochMs start of the window (wall clock)
 * @param endEpochMs   end of the window
 */
public record FixedCost(double cores, double errorCores, long windowNs, long startEpochMs, long endEpochMs) {

    /** The default window: one second before the first request. */
    public static final long WINDOW_NS = 1_000_000_000L;

    public static final FixedCost NOT_MEASURED = new FixedCost(-1, -1, 0, 0, 0);
    public static final String METHOD =
            "idle window before the first request; per-thread CPU from /proc/self/task/*/schedstat, "
                    + "JIT compiler and GC threads excluded; error = standard error of four quarter windows";
    private static final int PARTS = 4;

    public boolean measured() {
        return cores >= 0;
    }

    /**
     * Measures the process's fixed cost over {@code windowNs} of idleness; {@code sleepUntil}
     * waits until a {@link System#nanoTime()} deadline and says false when the run was stopped
     * meanwhile (the figure is then not measured).
     */
    public static FixedCost measure(long windowNs, LongPredicate sleepUntil) {
        if (windowNs <= 0) {
            return NOT_MEASURED;
        }
        long startEpochMs = System.currentTimeMillis();
        long t0 = System.nanoTime();
        Map<Long, ProcCpu.ThreadCpu> first = ProcCpu.threads();
        if (first.isEmpty()) {
            return NOT_MEASURED; // no /proc: the JDK's 10 ms ticks cannot resolve it
        }
        Map<Long, ProcCpu.ThreadCpu> last = first;
        long lastNano = t0;
        double[] rates = new double[PARTS];
        long total = 0;
        for (int i = 0; i < PARTS; i++) {
            if (!sleepUntil.test(t0 + windowNs * (i + 1) / PARTS)) {
                return NOT_MEASURED;
            }
            Map<Long, ProcCpu.ThreadCpu> now = ProcCpu.threads();
            long at = System.nanoTime();
            long cpu = between(last, now);
            rates[i] = cpu / (double) Math.max(1, at - lastNano);
            total += cpu;
            last = now;
            lastNano = at;
        }
        long elapsed = Math.max(1, lastNano - t0);
        double mean = 0;
        for (double r : rates) {
            mean += r / PARTS;
        }
        double var = 0;
        for (double r : rates) {
            var += (r - mean) * (r - mean) / (PARTS - 1);
        }
        return new FixedCost(
                total / (double) elapsed, Math.sqrt(var / PARTS), elapsed, startEpochMs, System.currentTimeMillis());
    }

    /** CPU of the counted threads between two snapshots; threads born in between count from zero. */
    static long between(Map<Long, ProcCpu.ThreadCpu> a, Map<Long, ProcCpu.ThreadCpu> b) {
        long sum = 0;
        for (Map.Entry<Long, ProcCpu.ThreadCpu> e : b.entrySet()) {
            if (!counted(e.getValue().name())) {
                continue;
            }
            ProcCpu.ThreadCpu before = a.get(e.getKey());
            sum += Math.max(0, e.getValue().ns() - (before == null ? 0 : before.ns()));
        }
        return sum;
    }

    /** JIT compiler and GC worker threads are not part of the fixed cost (HotSpot's thread names). */
    static boolean counted(String name) {
        return !(name.startsWith("C1 Compiler")
                || name.startsWith("C2 Compiler")
                || name.startsWith("GC Thread")
                || name.startsWith("G1 Conc")
                || name.startsWith("G1 Refine")
                || name.startsWith("G1 Main")
                || name.startsWith("ZWorker")
                || name.startsWith("Shenandoah"));
    }

    /**
     * CPU per request once the fixed cost is taken out, us: (CPU seconds - fixed cores x seconds) / requests;
     * -1 when the fixed cost was not measured or nothing was sent; never below 0 (a fixed cost measured
     * higher than the run's own idle share).
     */
    public double perRequestUs(double cpuSeconds, double seconds, long requests) {
        if (!measured() || requests <= 0 || cpuSeconds < 0) {
            return -1;
        }
        return Math.max(0, (cpuSeconds - cores * seconds) * 1e6 / requests);
    }

    public String describe() {
        return measured()
                ? String.format(
                        Locale.ROOT, "%.4f +- %.4f cores (%.1f s idle window)", cores, errorCores, windowNs / 1e9)
                : "not measured";
    }
}
