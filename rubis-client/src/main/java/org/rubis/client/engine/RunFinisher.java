package org.rubis.client.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ShardPlan;
import org.rubis.client.log.RunLog;
import org.rubis.client.report.ClientHealth;
import org.rubis.client.report.IntervalLoad;
import org.rubis.client.report.RunResult;
import org.rubis.client.report.RunStats;
import org.rubis.client.report.Summary;
import org.rubis.client.report.SummarySection;
import org.rubis.format.run.StopCause;
import org.rubis.format.run.StopCause.Kind;
import org.rubis.format.stats.WireAccuracy;

/**
 * The end of a run: closes what the run opened, last opened first, each step even when an earlier
 * one failed (even out of memory), then builds the {@link RunResult} and writes the summary, or
 * its essentials when no heap is left.
 */
final class RunFinisher {

    private final ClientConfig config;
    private final Path dir;
    private final StopSignal stop;
    private final RunCounters counters;
    private final RunSeams seams;
    private final RunGuard guard;
    private final Deque<Step> steps = new ArrayDeque<>();

    private record Step(String what, AutoCloseable close) {}

    RunFinisher(ClientConfig config, Path dir, StopSignal stop, RunCounters counters, RunSeams seams, RunGuard guard) {
        this.config = config;
        this.dir = dir;
        this.stop = stop;
        this.counters = counters;
        this.seams = seams;
        this.guard = guard;
    }

    /** Registers something to close at the end (closed in reverse order). */
    void add(String what, AutoCloseable close) {
        steps.push(new Step(what, close));
    }

    /** Closes everything registered; a failure never skips the steps after it. */
    void cleanup() {
        while (!steps.isEmpty()) {
            Step s = steps.pop();
            try {
                s.close().close();
            } catch (Throwable e) {
                try {
                    stop.stop(
                            RunGuard.outOfMemory(e) ? Kind.OUT_OF_MEMORY : Kind.CLEANUP_FAILED,
                            "cleanup of " + s.what() + " failed: " + e);
                } catch (OutOfMemoryError again) {
                    stop.stopOutOfMemory();
                }
            }
        }
    }

    /** Builds and writes the summary (after {@link #cleanup}: logs are flushed and closed). */
    Summary summary(
            RunClock clock,
            List<IntervalLoad> loads,
            ShardPlan shard,
            long runStartEpochNs,
            RunStats stats,
            ClientHealth health,
            RunLog log,
            String backendName,
            String arrivalsText,
            List<RunObserver> observers,
            SummarySection warmup)
            throws IOException {
        seams.beforeSummary();
        if (log.statsIncomplete()) {
            stop.stop(Kind.OUT_OF_MEMORY, "the statistics ran out of heap (the request log is complete)");
        }
        try {
            RunResult result = new RunResult(
                    dir,
                    backendName,
                    config.execution().model(),
                    cause(log),
                    stop.invalid(),
                    arrivalsText,
                    counters.active.begun(),
                    counters.sessionsDelayed.get(),
                    counters.sessionsDropped.get(),
                    counters.usersStarted,
                    counters.active.peak(),
                    log.written(),
                    log.lost(),
                    clock.startEpochNs(),
                    clock.runSecondsUntil(stop.stopNano() == 0 ? System.nanoTime() : stop.stopNano()),
                    shard,
                    clock.anchorEpochNs(),
                    runStartEpochNs,
                    clock.anchor().bracketNs(),
                    loads,
                    stats.totals().intervalBounds());
            // Sections first: a wire check's measured error is the verdict's accuracy evidence.
            List<SummarySection> sections = sections(observers, warmup);
            Summary summary = new Summary(
                    config,
                    result,
                    stats.totals(),
                    health.figures(),
                    accuracy(sections),
                    sections.stream().anyMatch(SummarySection::captureIncomplete));
            sections.forEach(summary::add);
            summary.write();
            return summary;
        } catch (OutOfMemoryError | RuntimeException e) {
            if (!stop.invalid()) {
                throw e;
            }
            throw guard.minimalSummary(backendName, log.written(), log.lost());
        }
    }

    private static WireAccuracy accuracy(List<SummarySection> sections) {
        return sections.stream()
                .map(SummarySection::accuracy)
                .filter(a -> a != null)
                .findFirst()
                .orElse(null);
    }

    /** The stop's cause; a failed write's says how many lines the logs lost (known once they are closed). */
    private StopCause cause(RunLog log) {
        StopCause cause = stop.cause();
        if (cause == null || cause.kind() != Kind.DISK_FULL) {
            return cause;
        }
        return new StopCause(
                Kind.DISK_FULL,
                cause.reason() + "; " + log.lost() + " log lines lost (the files hold " + log.written()
                        + " whole request lines, which the figures cover)");
    }

    /** The sections the run's hooks built after the logs closed: the JIT warm-up's (no accuracy), then theirs. */
    private List<SummarySection> sections(List<RunObserver> observers, SummarySection warmup) {
        List<SummarySection> sections = new ArrayList<>();
        if (warmup != null) {
            sections.add(warmup);
        }
        for (RunObserver o : observers) {
            SummarySection section = o.summarySection(dir);
            if (section != null) {
                sections.add(section);
            }
        }
        return sections;
    }
}
