package org.rubis.client.engine;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.rubis.client.log.RecordTap;

/**
 * Stops a run as Ctrl-C does once its log holds a number of request lines: a stop in the middle of the run phase
 * however slow the host is, where a stop after a fixed delay may come before the run phase has sent anything.
 */
final class StopAfterRequests implements RunObserver {

    private final CountDownLatch logged;
    private final Thread stopper;
    private final int perSession;
    private final Map<Long, AtomicInteger> bySession = new ConcurrentHashMap<>();

    private StopAfterRequests(RunEngine engine, int requests, int perSession) {
        this.logged = new CountDownLatch(requests);
        this.perSession = perSession;
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
        StopAfterRequests s = new StopAfterRequests(engine, requests, 0);
        engine.observe(s);
        return s;
    }

    /**
     * Observes {@code engine}'s log and stops its run once {@code sessions} sessions have each logged
     * {@code requests} request lines: every user did that much work, however slow the host.
     */
    static StopAfterRequests eachOf(RunEngine engine, int sessions, int requests) {
        StopAfterRequests s = new StopAfterRequests(engine, sessions, requests);
        engine.observe(s);
        return s;
    }

    @Override
    public RecordTap recordTap() {
        if (perSession == 0) {
            return r -> logged.countDown();
        }
        return r -> {
            if (bySession
                            .computeIfAbsent(r.sessionId(), k -> new AtomicInteger())
                            .incrementAndGet()
                    == perSession) {
                logged.countDown();
            }
        };
    }

    /** No stop after all: the run ended first. */
    void cancel() {
        stopper.interrupt();
    }
}
