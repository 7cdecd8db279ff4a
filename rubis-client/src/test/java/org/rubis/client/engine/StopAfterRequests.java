package org.rubis.client.engine;

import java.util.concurrent.CountDownLatch;
import org.rubis.client.log.RecordTap;

/**
 * Stops a run as Ctrl-C does once its log holds a number of request lines: a stop in the middle of the run phase
 * however slow the host is, where a stop after a fixed delay may come before the run phase has sent anything.
 */
final class StopAfterRequests implements RunObserver {

    private final CountDownLatch logged;
    private final Thread stopper;

    private StopAfterRequests(RunEngine engine, int requests) {
        this.logged = new CountDownLatch(requests);
        this.stopper = Thread.ofPlatform().daemon().start(() -> {
            try {
                logged.await();
                engine.requestStop("interrupted (Ctrl-C)");
            } catch (InterruptedException ignored) {
                // the run ended first
            }
        });
    }

    /** Observes {@code engine}'s log and stops its run after {@code requests} request lines. */
    static StopAfterRequests on(RunEngine engine, int requests) {
        StopAfterRequests s = new StopAfterRequests(engine, requests);
        engine.observe(s);
        return s;
    }

    @Override
    public RecordTap recordTap() {
        return r -> logged.countDown();
    }

    /** No stop after all: the run ended first. */
    void cancel() {
        stopper.interrupt();
    }
}
