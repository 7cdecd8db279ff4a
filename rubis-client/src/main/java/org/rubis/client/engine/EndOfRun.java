package org.rubis.client.engine;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.rubis.client.backend.Backend;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.report.ClientHealth;
import org.rubis.format.run.Phase;

/**
 * The end of a run: waits for the end of the run, a stop or all work done, then lets the requests in flight finish
 * within the end-of-run wait and gives up on the sessions still in a request after it. A stop request during the wait
 * aborts those requests at once, as it does when it comes earlier: the wait would otherwise last their timeouts (100 s
 * of them outlasted the shutdown hook, and nothing was written).
 */
final class EndOfRun {

    /** A load profile's length is planned: all work done does not end the run early. */
    private final boolean planned;

    private final Path dir;
    private final StopSignal stop;
    private final ActiveSessions active;
    /** How long the run waits for requests in flight after the stop. */
    private final long graceNs;
    /** Guards {@link #interrupt} and {@link #draining}: a stop request and the end-of-run wait meet here. */
    private final Object drainLock = new Object();
    /** The words of a stop request (Ctrl-C, SIGTERM), once one came. */
    private String interrupt;
    /** The backend whose requests the end-of-run wait is waiting for, while it waits (else null). */
    private Backend draining;

    /** @param endWaitMs the end-of-run wait; -1: request + connect timeout + 2 s */
    EndOfRun(ClientConfig config, long endWaitMs, Path dir, StopSignal stop, ActiveSessions active) {
        this.planned = config.profile() != null;
        this.dir = dir;
        this.stop = stop;
        this.active = active;
        this.graceNs = TimeUnit.MILLISECONDS.toNanos(
                endWaitMs >= 0
                        ? endWaitMs
                        : config.execution().requestTimeoutMs()
                                + config.execution().connectTimeoutMs()
                                + 2000L);
    }

    /** A stop request (already given to the stop signal): cuts the end-of-run wait if it is under way. */
    void stopRequested(String reason) {
        synchronized (drainLock) {
            interrupt = reason;
            if (draining != null) {
                cutEndOfRunWait();
            }
        }
    }

    /**
     * A stop request during the end-of-run wait: requests still in flight are aborted, so the run did not end as
     * planned when sessions were still in a request (its status is then {@code partial}).
     */
    private void cutEndOfRunWait() {
        long inRequest = active.now();
        if (inRequest > 0) {
            stop.interruptEnd(interrupt + " during the end-of-run wait: the requests in flight of " + inRequest
                    + " sessions were aborted");
        }
        draining.abortInFlight();
    }

    /**
     * Until the end of the run, a stop, or all work done (closed users out of sessions, or hybrid
     * arrivals exhausted and every session finished); marks the measured phase in the health log.
     */
    void awaitEnd(RunClock clock, ClientHealth health, CountDownLatch done, HybridDispatch hybrid) {
        while (!stop.stopped() && System.nanoTime() < clock.endNano()) {
            markPhases(clock, health);
            // All work done ends the run early (users out of sessions, arrivals exhausted), but a load profile's
            // length is planned: its users may all be gone or its rate 0 for a while, and come back.
            if (!planned && done.getCount() == 0 && (hybrid == null || hybrid.allEnded())) {
                break;
            }
            // Wake at the next phase boundary (marked exactly for the run-phase CPU) or every 250 ms to see whether all
            // users have finished: 4 wake-ups a second instead of 50 (part of the idle cost at low rates).
            long now = System.nanoTime();
            long boundary = now < clock.upEndNano()
                    ? clock.upEndNano()
                    : now < clock.runEndNano() ? clock.runEndNano() : clock.endNano();
            stop.awaitUntil(Math.min(boundary, now + 250_000_000L), Long.MAX_VALUE);
        }
        markPhases(clock, health);
        health.markRunEnd();
    }

    private static void markPhases(RunClock clock, ClientHealth health) {
        Phase phase = clock.phase(System.nanoTime());
        if (phase != Phase.UP) {
            health.markRunStart();
        }
        if (phase == Phase.DOWN) {
            health.markRunEnd();
        }
    }

    /**
     * The end: requests in flight finish within the end-of-run wait (hung ones end at once, logged as aborted, when the
     * run was stopped early or a stop request comes during the wait); sessions still in a request then are given up
     * on; the run hooks see the end.
     */
    void drain(Backend backend, SessionExecutor executor, List<RunObserver> observers) throws Exception {
        boolean early = stop.stopped(); // Ctrl-C or a fatal error before the end of the run
        stop.end();
        if (early) {
            backend.abortInFlight();
        }
        synchronized (drainLock) {
            draining = backend;
            if (interrupt != null && !early) { // came between the end and now
                cutEndOfRunWait();
            }
        }
        try {
            awaitSessions(backend, executor, observers);
        } finally {
            synchronized (drainLock) {
                draining = null;
            }
        }
        for (RunObserver o : observers) {
            o.afterRun(dir);
        }
    }

    /** The end-of-run wait: sessions still in a request after it are given up on. */
    private void awaitSessions(Backend backend, SessionExecutor executor, List<RunObserver> observers)
            throws InterruptedException {
        // Sessions that outlast a share of the wait get their threads dumped into the run directory (EndOfRunWatch).
        EndOfRunWatch watch = new EndOfRunWatch(dir, active::now, graceNs, System.err);
        observers.add(watch);
        try (watch) {
            watch.start();
            executor.drain(System.nanoTime() + graceNs);
        }
        giveUpStuckSessions(backend);
    }

    /**
     * Sessions still in a request when the end-of-run wait ran out (a request slower than its
     * timeouts, image fetches, a pool lease then a response) get their sessions.csv line now, end
     * reason {@code stuck}, before the logs close; their requests are then aborted.
     */
    void giveUpStuckSessions(Backend backend) {
        if (active.giveUp() > 0 && backend != null) {
            backend.abortInFlight();
        }
    }
}
