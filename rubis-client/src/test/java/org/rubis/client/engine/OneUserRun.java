package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.rubis.client.backend.Backend;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ShardPlan;
import org.rubis.client.log.RunLog;
import org.rubis.client.report.RunStats;
import org.rubis.client.workload.RequestGenerator;
import org.rubis.client.workload.UserSession;
import org.rubis.format.run.StopCause;

/**
 * One user's one session as a run drives it (on the backend's event loops, or on a thread of its own for a blocking
 * backend: timers or waits, prepares, replies, the run log): the engine's tests of what a backend does in a run check its
 * session and the log's statistics.
 */
final class OneUserRun {

    /** The session as it ended, and the statistics of its log (complete: the log is closed). */
    record Result(UserSession session, RunStats stats) {}

    private OneUserRun() {}

    /**
     * Runs the session of config {@code c} against {@code base} on {@code b} (its event loops, or a thread), its first request meant at
     * {@code firstIntendedNano}, logging into {@code dir}; fails the test unless it ends within 10 s.
     */
    static Result run(Backend b, ClientConfig c, String base, Path dir, long firstIntendedNano) throws Exception {
        StopSignal stop = new StopSignal();
        Result r = run(b, c, base, dir, firstIntendedNano, stop);
        assertFalse(stop.stopped(), () -> "nothing stopped the run: " + stop.reason());
        return r;
    }

    /** {@link #run}, with a stop signal the test may raise. */
    static Result run(Backend b, ClientConfig c, String base, Path dir, long firstIntendedNano, StopSignal stop)
            throws Exception {
        RunStats stats = new RunStats();
        RunClock clock = new RunClock(c);
        CountDownLatch done = new CountDownLatch(1);
        UserSession s = new UserSession(c.workload(), new RequestGenerator(c.workload()), 1, 1);
        try (RunLog log = new RunLog(dir, stats::accept, stats::accept)) {
            Recorder rec = new Recorder(clock, log, stats, new TargetWatch(stop, base), b.name(), ShardPlan.SINGLE);
            SessionExecutor d = SessionExecutor.of(
                    new SessionContext(clock, stop, b, rec, new ActiveSessions(), RunSeams.NONE),
                    c.execution().model(),
                    (who, e) -> stop.stop(StopCause.Kind.CLIENT_FAILED, who + " failed: " + e));
            d.start(
                    "user-0",
                    0,
                    firstIntendedNano,
                    (k, at) -> k == 0 ? new SessionExecutor.Start(s, at, null) : null,
                    done::countDown);
            assertTrue(done.await(10, TimeUnit.SECONDS), "the session ended");
        }
        return new Result(s, stats);
    }
}
