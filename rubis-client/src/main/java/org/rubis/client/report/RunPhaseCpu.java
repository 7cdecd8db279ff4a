package org.rubis.client.report;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;

/**
 * The client's CPU in the run (measured) phase alone, between the marks the engine sets at the phase's start and
 * end: the process's total, the kernel's part of it (/proc), and its split by thread role ({@link RunThreadCpu}).
 * Start-up and the JIT warm-up fall outside; this is what CPU per request is reported for.
 */
final class RunPhaseCpu {

    /**
     * The run phase's CPU; -1 when the phase was not reached (the kernel's part: or not ended, or no /proc).
     *
     * @param cpuSeconds       the process's CPU seconds in the phase
     * @param systemCpuSeconds of which in the kernel (system calls, the network stack, page faults)
     * @param seconds          the phase's length as run
     * @param cores            {@code cpuSeconds} over {@code seconds}
     * @param secondsByRole    CPU seconds by thread role, empty when not measured
     */
    record Figures(
            double cpuSeconds,
            double systemCpuSeconds,
            double seconds,
            double cores,
            Map<ThreadRole, Double> secondsByRole) {}

    private final OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final RunThreadCpu byRole = new RunThreadCpu();
    private volatile long startCpuNs = -1;
    private volatile long endCpuNs = -1;
    /** The process's kernel CPU at the phase's start and end (/proc ticks; -1 without /proc). */
    private volatile long startSystemNs = -1;

    private volatile long endSystemNs = -1;
    private volatile long startNano;
    private volatile long endNano;

    /** Marks the start of the run phase (once). */
    void markStart() {
        if (startCpuNs < 0) {
            byRole.markStart(
                    threads.getThreadCount()); // before the process's reading: its own cost falls outside the phase
            startNano = System.nanoTime();
            startCpuNs = os.getProcessCpuTime();
            startSystemNs = ProcCpu.systemNs(ProcessHandle.current().pid());
        }
    }

    /** Marks the end of the run phase (once, after its start). */
    void markEnd() {
        if (startCpuNs >= 0 && endCpuNs < 0) {
            endNano = System.nanoTime();
            endCpuNs = os.getProcessCpuTime();
            endSystemNs = ProcCpu.systemNs(ProcessHandle.current().pid());
            byRole.markEnd(); // after it, for the same reason
        }
    }

    /**
     * The figures; a phase that did not end is cut at {@code stopCpuNs}/{@code stopNano}, the monitor's close
     * (-1: still open, now).
     */
    Figures figures(long stopCpuNs, long stopNano) {
        if (startCpuNs < 0) {
            return new Figures(-1, -1, -1, -1, byRole.seconds());
        }
        boolean ended = endCpuNs >= 0;
        long cpu = ended ? endCpuNs : (stopCpuNs >= 0 ? stopCpuNs : os.getProcessCpuTime());
        long nano = ended ? endNano : (stopCpuNs >= 0 ? stopNano : System.nanoTime());
        double cpuSeconds = (cpu - startCpuNs) / 1e9;
        double system = startSystemNs < 0 || endSystemNs < 0 ? -1 : (endSystemNs - startSystemNs) / 1e9;
        return new Figures(
                cpuSeconds,
                system,
                (nano - startNano) / 1e9,
                cpuSeconds * 1e9 / Math.max(1, nano - startNano),
                byRole.seconds());
    }
}
