package org.rubis.client.engine;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.rubis.client.config.BackendKind;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ExecutionModel;
import org.rubis.client.log.RecordTap;
import org.rubis.client.log.RequestRecord;
import org.rubis.client.log.RunLog;
import org.rubis.client.log.SessionRecord;
import org.rubis.client.report.ClientHealth;
import org.rubis.client.report.HealthSample;
import org.rubis.client.report.RunStats;
import org.rubis.format.run.StopCause.Kind;

/**
 * The pipeline of a run's records, built in one place: the request and session logs, the one statistics pipeline they
 * feed (and the observers' taps), and the client's health monitor, whose seconds end the statistics' intervals.
 * Each part is registered with the finisher as soon as it exists, so that it is closed whatever fails after.
 */
final class RunRecords {

    final RunStats stats;
    final RunLog log;
    final ClientHealth health;

    private final ClientConfig config;
    private final ActiveSessions active;
    private final List<RunObserver> observers;

    RunRecords(
            ClientConfig config,
            Path dir,
            StopSignal stop,
            ActiveSessions active,
            List<RunObserver> observers,
            RunFinisher finisher)
            throws IOException {
        this.config = config;
        this.active = active;
        this.observers = observers;
        RunStats stats = new RunStats();
        this.stats = stats;
        List<RecordTap> taps = new ArrayList<>();
        for (RunObserver o : observers) {
            o.intervals(stats);
            RecordTap tap = o.recordTap();
            if (tap != null) {
                taps.add(tap);
            }
        }
        // An array, not the list: the log writer calls these once per record, and a list's loop makes an iterator each
        // time (an array's makes none, and costs nothing when empty).
        RecordTap[] tapArray = taps.toArray(RecordTap[]::new);
        Consumer<RequestRecord> requests = r -> {
            stats.accept(r);
            for (RecordTap t : tapArray) {
                t.request(r);
            }
        };
        Consumer<SessionRecord> sessions = s -> {
            stats.accept(s);
            for (RecordTap t : tapArray) {
                t.session(s);
            }
        };
        this.log = new RunLog(
                dir,
                requests,
                sessions,
                config.execution().model() == ExecutionModel.PLATFORM_THREADS
                        ? RunLog.Producers.MANY
                        : RunLog.Producers.FEW,
                config.execution().backend() == BackendKind.KERNEL);
        log.onWriteFailure(words -> stop.stop(Kind.DISK_FULL, diskFull(words)));
        finisher.add("request log", log);
        this.health = new ClientHealth(dir, active::now, stats.users()::liveRequests);
        health.listen(this::healthSample);
        finisher.add("client health", health);
    }

    /** The health monitor watches the embedded server's process, or looks for the target's on this host. */
    void watchTarget(Target target, PrintStream out) {
        if (target.serverPid() > 0) {
            health.watchServer(target.serverPid());
        } else {
            String found =
                    health.watchTarget(config.target(), config.measurement().targetProcesses());
            out.println(
                    found == null
                            ? "Target's processes: none found on this host (its CPU is counted as other processes';"
                                    + " name them with --target-processes)"
                            : "Target's processes on this host: " + found + " (their CPU is the server's)");
        }
    }

    /** A failed log write in words: most often the disk is full (or the user's quota is used up). */
    private static String diskFull(String failedWrite) {
        boolean full = failedWrite.contains("No space left") || failedWrite.contains("quota");
        return (full ? "disk full: " : "a log write failed: ") + failedWrite;
    }

    /** Each second of the health sampler ends an interval; the observers see it after. */
    private void healthSample(HealthSample sample) {
        stats.roll(sample, active.begun());
        for (RunObserver o : observers) {
            o.healthSample(sample);
        }
    }

    /** The run's clock has started: the statistics count the run phase's windows from it. */
    void clockStarted(RunClock c) {
        stats.runPhase(c.epochNs(c.upEndNano()), c.runSeconds());
        long[] bounds = new long[c.intervals() + 1];
        for (int i = 0; i < c.intervals(); i++) {
            bounds[i] = c.epochNs(c.intervalStartNano(i));
        }
        bounds[bounds.length - 1] = c.epochNs(c.runEndNano());
        stats.intervals(bounds);
        stats.clock(c.startEpochNs(), c.epochNs(c.upEndNano()), c.epochNs(c.runEndNano()), c.epochNs(c.endNano()));
    }

    /** The last interval, once every record is in (the logs closed). */
    void lastInterval() {
        if (log.statsIncomplete()) {
            return; // a record ran the statistics out of heap half-way: not rolled (the summary says the run is
            // invalid)
        }
        stats.roll(null, active.begun());
    }
}
