package org.rubis.client.report;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.rubis.client.config.TargetProcessSpec;

/**
 * Watches the client's own JVM while it measures, so that a run in which the client was the bottleneck can say
 * so: the process's CPU over the whole window and over the run phase ({@link RunPhaseCpu}), its fixed cost
 * ({@link FixedCost}), GC pauses ({@link GcWatch}, {@code client-gc.csv}), and a sample a second of CPU, heap,
 * threads and the host's other load ({@link HealthSampler}, {@code client-health.csv}). Closed at the end of the
 * run; {@link #figures()} then says what it saw, once and for all.
 */
public final class ClientHealth implements AutoCloseable {

    private final OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final long startNano = System.nanoTime();
    private final long startCpuNs = os.getProcessCpuTime();
    private final GcWatch gc;
    private final HealthSampler sampler;
    private final RunPhaseCpu runPhase = new RunPhaseCpu();
    private volatile FixedCost fixedCost = FixedCost.NOT_MEASURED;
    private volatile boolean closed;
    private volatile long endCpuNs = -1;
    private volatile long endNano;

    public ClientHealth(Path dir, LongSupplier activeSessions, LongSupplier requests) throws IOException {
        gc = new GcWatch(dir);
        threads.resetPeakThreadCount();
        sampler = new HealthSampler(dir, activeSessions, requests, startNano, startCpuNs);
    }

    /** Also samples the embedded server's CPU (its process id). */
    public void watchServer(long pid) {
        sampler.watchServer(pid);
    }

    /**
     * Also samples the CPU of an external target's processes on this host (the one listening on the URL's port, the
     * named ones, their children); returns them by name ("lighttpd, php-cgi x5"), or null when none was found.
     */
    public String watchTarget(String target, TargetProcessSpec named) {
        TargetProcesses t = TargetProcesses.of(target, named);
        sampler.watchTarget(t);
        return t == null ? null : t.words();
    }

    /** Hands each second's sample to {@code listener} as well, on the sampler's thread (the live view's clock). */
    public void listen(Consumer<HealthSample> listener) {
        sampler.listen(listener);
    }

    /** Marks the start of the run (measured) phase: CPU per request is reported for it alone. */
    public void markRunStart() {
        runPhase.markStart();
    }

    /** Marks the end of the run phase. */
    public void markRunEnd() {
        runPhase.markEnd();
    }

    /** The fixed cost measured before the first request (see {@link FixedCost}). */
    public void fixedCost(FixedCost f) {
        fixedCost = f;
    }

    /** Stops sampling and ends the window the figures cover. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        sampler.stop();
        endCpuNs = os.getProcessCpuTime();
        endNano = System.nanoTime();
        gc.close();
        sampler.close();
    }

    /** What the monitor saw, from its start to its close (to now while open). */
    public HealthFigures figures() {
        long cpu = endCpuNs >= 0 ? endCpuNs : os.getProcessCpuTime();
        long now = endCpuNs >= 0 ? endNano : System.nanoTime();
        return new HealthFigures(
                Runtime.getRuntime().availableProcessors(),
                (cpu - startCpuNs) / 1e9,
                (now - startNano) / 1e9,
                (cpu - startCpuNs) / (double) Math.max(1, now - startNano),
                runPhase.figures(endCpuNs, endNano),
                fixedCost,
                gc.figures(),
                threads.getPeakThreadCount(),
                memory.getHeapMemoryUsage().getMax(),
                sampler.load());
    }

    /**
     * The GC essentials of a run out of heap, for its minimal summary: what the heap went to, as JSON members
     * after a comma, or "" when even that cannot be had.
     */
    public String gcMinimalJson() {
        try {
            GcTotals g = gc.totals();
            GcPauses.Figures p = gc.pauses();
            return ", \"gc_count\": " + p.collections() + ", \"gc_time_ms\": " + g.timeMs() + ", \"gc_pauses\": "
                    + p.pauses()
                    + ", \"gc_pause_total_ms\": " + p.totalMs() + ", \"gc_max_pause_ms\": " + p.longestMs()
                    + ", \"gc_pauses_logged\": " + p.notified()
                    + ", \"gc_window_start_epoch_ms\": " + gc.windowStartEpochMs() + ", \"gc_window_end_epoch_ms\": "
                    + gc.windowEndEpochMs();
        } catch (OutOfMemoryError e) {
            return "";
        }
    }
}
