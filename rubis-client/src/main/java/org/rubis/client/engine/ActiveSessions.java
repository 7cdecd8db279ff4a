package org.rubis.client.engine;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sessions in progress, and the peak, for the progress line and the summary; and the sessions
 * themselves, so that the run can still log the ones it gives up on (each session that began has
 * exactly one line in sessions.csv, however it ended).
 */
final class ActiveSessions {
    private final AtomicLong now = new AtomicLong();
    private final AtomicLong peak = new AtomicLong();
    /** Sessions that sent (or were about to send) their first request: each one gets a line in sessions.csv. */
    private final AtomicLong begun = new AtomicLong();

    private final Set<SessionStep> live = ConcurrentHashMap.newKeySet();

    void increment(SessionStep s) {
        live.add(s);
        begun.incrementAndGet();
        peak.accumulateAndGet(now.incrementAndGet(), Math::max);
    }

    void decrement(SessionStep s) {
        live.remove(s);
        now.decrementAndGet();
    }

    /**
     * The run waits no longer: every session still in progress (stuck in a request) is logged
     * now with end reason {@code stuck}; returns how many.
     */
    int giveUp() {
        int n = 0;
        for (SessionStep s : live) {
            n += s.giveUp() ? 1 : 0;
        }
        return n;
    }

    long now() {
        return now.get();
    }

    long begun() {
        return begun.get();
    }

    long peak() {
        return peak.get();
    }
}
