package org.rubis.client.engine;

import java.util.concurrent.atomic.AtomicLong;

/** Sessions in progress, and the peak, for the progress line and the summary. */
final class ActiveSessions {
    private final AtomicLong now = new AtomicLong();
    private final AtomicLong peak = new AtomicLong();

    void increment() {
        peak.accumulateAndGet(now.incrementAndGet(), Math::max);
    }

    void decrement() {
        now.decrementAndGet();
    }

    long now() {
        return now.get();
    }

    long peak() {
        return peak.get();
    }
}
