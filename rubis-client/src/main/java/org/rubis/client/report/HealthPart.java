package org.rubis.client.report;

import static org.rubis.client.report.SummaryFormat.line;
import static org.rubis.client.report.SummaryFormat.percentiles;
import static org.rubis.client.report.SummaryFormat.putKnown;
import static org.rubis.client.report.SummaryFormat.round;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;
import java.util.Map;
import org.rubis.client.config.Arrivals;
import org.rubis.client.config.ClientConfig;
import org.rubis.format.run.Phase;
import org.rubis.format.schema.Cause;
import org.rubis.format.schema.ClientHealth;
import org.rubis.format.schema.Quantiles;
import org.rubis.format.schema.SummaryJson;
import org.rubis.format.stats.ErrorShare;
import org.rubis.format.stats.LatencyStats;
import org.rubis.format.stats.WireAccuracy;
import org.rubis.format.text.CpuPerRequest;
import org.rubis.format.text.SummaryLines;

/**
 * The client's own health while it measured (CPU, its fixed cost and its split by thread, GC, heap, send lateness,
 * the host's other load) and the verdict in plain words on whether the client, the host or the server limited the
 * run ({@link Verdict}). summary.txt gives the verdict near the top ({@link #verdictLines}), one clause a line, and
 * the health figures after it.
 */
final class HealthPart implements SummaryPart {

    /**
     * The key of the remainder: CPU of threads that ended during the run phase (the process's total minus the roles').
     */
    static final String ENDED_THREADS = "ended_threads";
    /** Two of the process CPU's 10 ms ticks: a smaller remainder is the figure's own error. */
    private static final double ENDED_THREADS_MIN_SECONDS = 0.02;

    private final ClientConfig config;
    private final RunTotals stats;
    private final HealthFigures health;
    private final RunOutcome outcome;
    private final WireAccuracy accuracy;
    private final boolean captureIncomplete;
    private final long requests;
    private final long runRequests;

    /**
     * @param accuracy          the capture's client-minus-wire error, or null when accuracy was not measured
     * @param captureIncomplete a capture ran and lost packets (its accuracy then null)
     */
    HealthPart(
            ClientConfig config,
            RunTotals stats,
            HealthFigures health,
            RunOutcome outcome,
            WireAccuracy accuracy,
            boolean captureIncomplete) {
        this.config = config;
        this.stats = stats;
        this.health = health;
        this.outcome = outcome;
        this.accuracy = accuracy;
        this.captureIncomplete = captureIncomplete;
        this.requests = stats.overall().count();
        this.runRequests = stats.phaseTotal(Phase.RUN).count();
    }

    @Override
    public void json(ObjectNode root) {
        ObjectNode h = root.putObject("client_health");
        cpu(h);
        cpuByThread(h);
        fixedCost(h);
        gcAndMemory(h);
        lateness(h);
        putKnown(h, "host_other_cpu_cores", health.load().otherCores(), 3);
        putKnown(h, "host_other_cpu_peak_cores", health.load().peakOtherCores(), 3);
        putKnown(h, "host_steal_cores", health.load().stealCores(), 3);
        putKnown(h, "host_procs_running_mean", health.load().procsRunning(), 2);
        putKnown(h, "server_cpu_cores", health.load().serverCores(), 3);
        if (health.load().serverName() != null) {
            h.put("server_cpu_of", health.load().serverName());
        }
        putKnown(h, "wakeup_late_p99_ms", health.load().wakeupLateP99Ms(), 3);
        verdict(h);
    }

    private void cpu(ObjectNode h) {
        h.put("cpu_mean_cores", round(health.meanCpuCores(), 3));
        // The peak comes from the per-second samples; a run too short (or out of heap) for one has none.
        h.put("cpu_peak_cores", health.peakCpuCores() < health.meanCpuCores() ? -1 : round(health.peakCpuCores(), 3));
        h.put("cpu_seconds", round(health.cpuSeconds(), 3));
        h.put("cores", health.cores());
        h.put("cpu_us_per_request", requests == 0 ? 0 : round(health.cpuSeconds() * 1e6 / requests, 1));
        // The run phase alone: no JIT warm-up, no start-up (what the benchmarks compare).
        RunPhaseCpu.Figures run = health.run();
        h.put("run_cpu_seconds", round(run.cpuSeconds(), 3));
        h.put("run_cpu_cores", round(run.cores(), 3));
        h.put(
                "run_cpu_us_per_request",
                runRequests == 0 || run.cpuSeconds() < 0 ? 0 : round(run.cpuSeconds() * 1e6 / runRequests, 1));
        // Of that, the kernel's part (10 ms ticks of /proc: meaningful over seconds of a busy run phase, -1 when
        // unknown).
        h.put("run_system_cpu_seconds", round(run.systemCpuSeconds(), 3));
        h.put(
                "run_system_cpu_us_per_request",
                runRequests == 0 || run.systemCpuSeconds() < 0
                        ? -1
                        : round(run.systemCpuSeconds() * 1e6 / runRequests, 1));
    }

    /**
     * Of the whole, each kind of thread's part (event loops or user threads, the log writer, the JIT, GC): absent when
     * not measured.
     */
    private void cpuByThread(ObjectNode h) {
        Map<ThreadRole, Double> byRole = health.runCpuSecondsByRole();
        if (byRole.isEmpty() || runRequests == 0) {
            return;
        }
        ObjectNode sec = h.putObject("run_cpu_seconds_by_thread");
        ObjectNode per = h.putObject("run_cpu_us_per_request_by_thread");
        byRole.forEach((r, seconds) -> {
            sec.put(r.key(), round(seconds, 3));
            per.put(r.key(), round(seconds * 1e6 / runRequests, 2));
        });
        // Threads that ended before the phase's end (thread-per-user threads leaving at the end of a run with no down
        // ramp, hybrid sessions' threads) are in the process's total only: their part is the remainder, when it is
        // more than the process figure's 10 ms ticks can explain.
        double runCpu = health.run().cpuSeconds();
        double rest = runCpu
                - byRole.values().stream().mapToDouble(Double::doubleValue).sum();
        if (rest > Math.max(ENDED_THREADS_MIN_SECONDS, 0.05 * runCpu)) {
            sec.put(ENDED_THREADS, round(rest, 3));
            per.put(ENDED_THREADS, round(rest * 1e6 / runRequests, 2));
        }
    }

    /**
     * The fixed cost (what the idle client burns per second) and the CPU of a request once it is taken out: at low
     * rates the ratios above are mostly the fixed cost spread over few requests.
     */
    private void fixedCost(ObjectNode h) {
        FixedCost fixed = health.fixedCost();
        h.put("fixed_cpu_cores", fixed.measured() ? round(fixed.cores(), 4) : -1);
        h.put("fixed_cpu_cores_error", fixed.measured() ? round(fixed.errorCores(), 4) : -1);
        h.put("fixed_cpu_window_s", round(fixed.windowNs() / 1e9, 3));
        h.put("fixed_cpu_window_start_epoch_ms", fixed.startEpochMs());
        h.put("fixed_cpu_window_end_epoch_ms", fixed.endEpochMs());
        h.put("fixed_cpu_method", fixed.measured() ? FixedCost.METHOD : "not measured");
        h.put("request_cpu_us", round(fixed.perRequestUs(health.cpuSeconds(), health.seconds(), requests), 1));
        h.put(
                "run_request_cpu_us",
                round(fixed.perRequestUs(health.run().cpuSeconds(), health.run().seconds(), runRequests), 1));
    }

    private void gcAndMemory(ObjectNode h) {
        GcPauses.Figures pauses = health.gc().pauses(); // count, total and longest from the notifications (GcPauses)
        h.put("gc_count", pauses.collections());
        h.put("gc_time_ms", health.gc().totals().timeMs());
        h.put("gc_pauses", pauses.pauses());
        h.put("gc_pause_total_ms", pauses.totalMs());
        h.put("gc_max_pause_ms", pauses.longestMs());
        h.put("gc_pauses_logged", pauses.notified());
        h.put("gc_window_start_epoch_ms", health.gc().windowStartEpochMs());
        h.put("gc_window_end_epoch_ms", health.gc().windowEndEpochMs());
        h.put("peak_threads", health.peakThreads());
        h.put("peak_heap_bytes", health.peakHeapBytes());
        h.put("max_heap_bytes", health.maxHeapBytes());
    }

    private void lateness(ObjectNode h) {
        ObjectNode ln = h.putObject("send_lateness_ms");
        percentiles(ln, stats.lateness(), stats.maxLatenessNs());
        ln.put("max", round(stats.maxLatenessNs() / 1e6, 3));
        ObjectNode runLate = h.putObject("run_send_lateness_ms");
        percentiles(runLate, stats.runLateness(), stats.runMaxLatenessNs());
        runLate.put("max", round(stats.runMaxLatenessNs() / 1e6, 3));
        if (config.arrivals() == Arrivals.HYBRID) {
            percentiles(h.putObject("session_start_lateness_ms"), stats.sessionStartLateness(), Long.MAX_VALUE);
        }
    }

    /** The verdict judges the measurement: the run phase's send lateness (the whole run's if it has none). */
    private void verdict(ObjectNode h) {
        LatencyStats run = stats.phaseTotal(Phase.RUN);
        Verdict verdict = Verdict.of(
                health.evidence(stats.judgedLatenessMs(99)),
                accuracy,
                new ErrorShare(run.count(), run.errors(), stats.errorsByClass(), stats.runTargetState()),
                captureIncomplete);
        h.put("saturated", verdict.causes().contains(Cause.CLIENT));
        ArrayNode causes = h.putArray("causes");
        verdict.causes().forEach(c -> causes.add(c.name()));
        h.put("accuracy_measured", accuracy != null);
        h.put(
                "verdict",
                outcome.status().measured()
                        ? verdict.text()
                        : "INVALID: the run did not measure the target (" + outcome.stopReason() + ")");
    }

    @Override
    public void text(SummaryJson s, StringBuilder b) {
        ClientHealth h = s.clientHealth();
        b.append("\nClient health\n");
        String peak = h.cpuPeakCores() < 0 ? "n/a" : String.format(Locale.ROOT, "%.2f", h.cpuPeakCores());
        line(
                b,
                "CPU",
                String.format(
                        Locale.ROOT,
                        "%.2f cores mean, %s peak (of %d); run phase %.2f cores",
                        h.cpuMeanCores(),
                        peak,
                        h.cores(),
                        h.runCpuCores()));
        line(b, "CPU cost", CpuPerRequest.of(h).text());
        if (h.runCpuUsPerRequestByThread() != null) {
            line(b, "CPU by thread", byThread(h.runCpuUsPerRequestByThread()));
        }
        long missed = h.gcPauses() - (h.gcPausesLogged() == null ? h.gcPauses() : h.gcPausesLogged());
        line(
                b,
                "GC",
                GcPauses.Figures.describe(h.gcCount(), h.gcPauses(), h.gcPauseTotalMs(), h.gcMaxPauseMs(), missed));
        line(
                b,
                "threads / heap",
                h.peakThreads() + " peak threads; heap peak " + h.peakHeapBytes() / (1 << 20) + " MiB of "
                        + h.maxHeapBytes() / (1 << 20) + " MiB");
        Quantiles ln = h.sendLatenessMs();
        line(
                b,
                "send lateness (ms)",
                "p50 " + ln.p50() + ", p90 " + ln.p90() + ", p99 " + ln.p99() + ", p99.9 " + ln.p999() + ", max "
                        + ln.max());
    }

    /** The verdict, its clauses on short lines ({@link SummaryLines#verdict}); its keys are this part's. */
    SummaryPart verdictLines() {
        return new SummaryPart() {
            @Override
            public void json(ObjectNode root) {}

            @Override
            public void text(SummaryJson s, StringBuilder b) {
                b.append(SummaryLines.verdict(s.clientHealth().verdict()));
            }
        };
    }

    /** The run phase's CPU per request by thread role, roles that did not run left out. */
    static String byThread(Map<String, Double> per) {
        StringBuilder b = new StringBuilder();
        for (ThreadRole r : ThreadRole.values()) {
            double us = per.getOrDefault(r.key(), 0.0);
            if (us > 0) {
                b.append(b.isEmpty() ? "" : ", ")
                        .append(r.label())
                        .append(' ')
                        .append(String.format(Locale.ROOT, "%.2f", us));
            }
        }
        if (per.containsKey(ENDED_THREADS)) {
            b.append(b.isEmpty() ? "" : ", ")
                    .append("threads that ended before the phase's end ")
                    .append(String.format(Locale.ROOT, "%.2f", per.get(ENDED_THREADS)));
        }
        return (b.isEmpty() ? "none" : b) + " us per run-phase request";
    }
}
