package org.rubis.client.engine;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.log.RunLog;
import org.rubis.client.report.ClientHealth;
import org.rubis.client.report.RunResult;
import org.rubis.client.report.RunStats;
import org.rubis.client.report.Summary;
import org.rubis.format.WireAccuracy;

/**
 * The end of a run: closes what the run opened, last opened first, each step even when an earlier
 * one failed (even out of memory), then builds the {@link RunResult} and writes the summary, or
 * its essentials when no heap is left.
 */
final class RunFinisher {

    static final String OUT_OF_MEMORY = "out of memory (no heap left even to say where)";

    private final ClientConfig config;
    private final Path dir;
    private final StopSignal stop;
    private final RunCounters counters;
    private final Deque<Step> steps = new ArrayDeque<>();

    private record Step(String what, AutoCloseable close) {}

    RunFinisher(ClientConfig config, Path dir, PrintStream out, StopSignal stop, RunCounters counters) {
        this.config = config;
        this.dir = dir;
        this.stop = stop;
        this.counters = counters;
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
                    stop.stop("cleanup of " + s.what() + " failed: " + e, HeapReserve.outOfMemory(e));
                } catch (OutOfMemoryError again) {
                    stop.stop(OUT_OF_MEMORY, true);
                }
            }
        }
    }

    /** Builds and writes the summary (after {@link #cleanup}: logs are flushed and closed). */
    Summary summary(RunClock clock, org.rubis.client.config.ShardPlan shard, long runStartEpochNs, RunStats stats, ClientHealth health, RunLog log,
            String backendName, String arrivalsText, java.util.List<RunObserver> observers, org.rubis.client.report.SummarySection warmup)
            throws IOException {
        if (log.statsIncomplete()) {
            stop.stop("the statistics ran out of heap (the request log is complete)", true);
        }
        try {
            RunResult result = new RunResult(dir, backendName, config.execution().model(), stop.reason(), stop.invalid(), arrivalsText,
                    counters.active.begun(), counters.sessionsDelayed.get(), counters.sessionsDropped.get(), counters.usersStarted,
                    counters.active.peak(), log.written(), log.lost(), clock.startEpochNs(),
                    clock.runSecondsUntil(stop.stopNano() == 0 ? System.nanoTime() : stop.stopNano()),
                    shard, clock.anchorEpochNs(), runStartEpochNs, clock.anchor().bracketNs());
            // Sections first: a wire check's measured error is the verdict's accuracy evidence.
            java.util.List<org.rubis.client.report.SummarySection> sections = new java.util.ArrayList<>();
            WireAccuracy accuracy = null;
            if (warmup != null) {
                sections.add(warmup); // the JIT warm-up (measures no accuracy)
            }
            for (RunObserver o : observers) {
                org.rubis.client.report.SummarySection section = o.summarySection(dir);
                if (section != null) {
                    sections.add(section);
                    accuracy = accuracy != null ? accuracy : section.accuracy();
                }
            }
            Summary summary = new Summary(config, result, stats, health, accuracy);
            sections.forEach(summary::add);
            summary.write();
            return summary;
        } catch (OutOfMemoryError | RuntimeException e) {
            // No heap left for the full summary (or statistics left inconsistent by an earlier
            // OutOfMemoryError): write the essentials with almost no allocation.
            if (!stop.invalid()) {
                throw e;
            }
            Summary.writeMinimal(dir, stop.reason() + "; the full summary could not be built (out of memory)", config.seed(), backendName,
                    counters.usersStarted, log.written(), log.lost(), health);
            throw new RunEngine.RunOutOfMemory(dir);
        }
    }
}
