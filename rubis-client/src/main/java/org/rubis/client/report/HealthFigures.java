package org.rubis.client.report;

import java.util.Map;

/**
 * What {@link ClientHealth} saw of the client's own JVM and host over a run, taken once when the run is over: the
 * summary's {@code client_health} and the {@link Verdict}'s evidence. Figures that could not be measured are -1 or
 * NaN, as each component says.
 *
 * @param cores        the processors available to the JVM
 * @param cpuSeconds   the process's CPU over the monitor's whole window (warm-up and start-up included)
 * @param seconds      that window's length
 * @param meanCpuCores {@code cpuSeconds} over {@code seconds}
 * @param run          the run phase alone
 * @param fixedCost    the idle client's CPU, measured before the first request
 * @param gc           the collections of the window
 * @param peakThreads  the most live threads at once
 * @param maxHeapBytes the heap's limit
 * @param load         the per-second samples: the client's peaks, the host's other load, the embedded server's CPU
 */
public record HealthFigures(
        int cores,
        double cpuSeconds,
        double seconds,
        double meanCpuCores,
        RunPhaseCpu.Figures run,
        FixedCost fixedCost,
        GcWatch.Figures gc,
        int peakThreads,
        long maxHeapBytes,
        HealthSampler.HostLoad load) {

    /** The largest one-second CPU of the client; below the mean when no sample was taken (a run shorter than one). */
    public double peakCpuCores() {
        return load.peakCpuCores();
    }

    public long peakHeapBytes() {
        return load.peakHeapBytes();
    }

    /** The run phase's CPU seconds by thread role, empty when not measured. */
    public Map<ThreadRole, Double> runCpuSecondsByRole() {
        return run.secondsByRole();
    }

    /** The evidence the verdict judges, with the send lateness it judges ({@link RunStats#judgedLatenessMs}). */
    public Verdict.Evidence evidence(double p99LatenessMs) {
        return new Verdict.Evidence(
                cores,
                meanCpuCores,
                gc.pauses().longestMs(),
                p99LatenessMs,
                load.wakeupLateP99Ms(),
                load.otherCores(),
                load.stealCores(),
                load.procsRunning(),
                load.serverCores(),
                load.watchesServer(),
                load.serverName());
    }
}
