package org.rubis.client.engine;

import java.io.IOException;
import java.nio.file.Path;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.report.ClientHealth;
import org.rubis.client.report.Summary;
import org.rubis.client.report.SummaryWriter;
import org.rubis.format.run.StopCause.Kind;

/**
 * The guard for out-of-memory and uncaught errors: while a run lasts it holds a heap reserve and is the JVM's default
 * uncaught-exception handler. A thread or user that fails stops the run (invalid); a run out of heap still leaves
 * complete logs and, when not even its summary can be built, the summary's essentials ({@link RunOutOfMemory}).
 */
final class RunGuard {

    /** The guarded run. */
    @FunctionalInterface
    interface Run {
        Summary run() throws IOException;
    }

    private static volatile byte[] reserve;

    private final Path dir;
    private final StopSignal stop;
    private final RunCounters counters;
    /** What a minimal summary names besides the counters: the run's seed and backend. */
    private final long seed;

    private final String backendLabel;
    /** The run's health monitor once started: an out-of-memory stop's minimal summary takes its GC totals. */
    private volatile ClientHealth health;

    RunGuard(ClientConfig config, Path dir, StopSignal stop, RunCounters counters) {
        this.seed = config.seed();
        this.backendLabel = config.execution().backend().label();
        this.dir = dir;
        this.stop = stop;
        this.counters = counters;
    }

    void health(ClientHealth started) {
        this.health = started;
    }

    Summary run(Run run) throws IOException {
        hold();
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler(this::onFatal);
        try {
            return run.run();
        } catch (OutOfMemoryError e) {
            release();
            stop.stopOutOfMemory();
            throw minimalSummary(backendLabel, -1, -1);
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(previous);
            release();
        }
    }

    /**
     * No heap left for the full summary (or statistics left inconsistent by an earlier OutOfMemoryError): writes the
     * essentials with almost no allocation; returns the exception that says where they are.
     */
    RunOutOfMemory minimalSummary(String backendName, long linesWritten, long linesLost) throws IOException {
        SummaryWriter.writeMinimal(
                dir,
                new StringBuilder(stop.reason())
                        .append("; the full summary could not be built (out of memory)")
                        .toString(), // no invokedynamic to link now (StopSignal.outOfMemory)
                seed,
                backendName,
                counters.usersStarted,
                linesWritten,
                linesLost,
                health);
        return new RunOutOfMemory(dir);
    }

    /** Holds a few MiB during the run, released on OutOfMemoryError so that logs and summary can still be written. */
    private static void hold() {
        reserve = new byte[(int) Math.min(4L << 20, Runtime.getRuntime().maxMemory() / 64)];
    }

    static void release() {
        reserve = null;
    }

    /** An OutOfMemoryError, or an error it caused (a lambda bootstrap that failed for want of heap). */
    static boolean outOfMemory(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof OutOfMemoryError) {
                return true;
            }
        }
        return false;
    }

    /** The run's own thread ran out of heap in a phase: the run stops, and finishes with what the reserve leaves. */
    void outOfMemory(OutOfMemoryError e) {
        release();
        stop.stop(Kind.OUT_OF_MEMORY, "out of memory: " + e.getMessage());
    }

    private void onFatal(Thread t, Throwable e) {
        release();
        try {
            if (outOfMemory(e)) {
                stop.stopOutOfMemory(
                        "thread ", t.getName(), counters.active.now(), counters.usersStarted, e.getMessage());
            } else {
                stop.stop(Kind.CLIENT_FAILED, "thread " + t.getName() + " failed: " + e);
            }
        } catch (OutOfMemoryError | BootstrapMethodError again) { // a call site left unlinked by the exhausted heap
            stop.stopOutOfMemory();
        }
    }

    /** A user (closed) or session (hybrid) that failed with an exception. */
    void onUserFailed(String who, Throwable e) {
        if (outOfMemory(e)) {
            release();
            stop.stopOutOfMemory("", who, counters.active.now(), counters.usersStarted, e.getMessage());
        } else {
            stop.stop(Kind.CLIENT_FAILED, who + " failed: " + e);
        }
    }
}
