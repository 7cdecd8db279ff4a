package org.rubis.client.engine;

import java.util.concurrent.atomic.AtomicLong;

/** Sessions in progress, and the peak, for the progress line and the summary. */
final class ActiveSessions {
    private final AtomicLong now = new AtomicLong();
    private final AtomicLong peak = new AtomicLong();
    /** Sessions that sent (or were about to send) their first request: each one gets a line in sessions.csv. */
    private final AtomicLong begun = new AtomicLong();

    void increment() {
        begun.incrementAndGet();
        peak.accumulateAndGet(now.incrementAndGet(), Math::max);
    }

    void decrement() {
        now.decrementAndGet();
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
