package org.rubis.server.truth;

import java.time.Instant;

/**
 * Epoch-anchored nanosecond timestamps: the wall clock read once, then advanced by
 * {@link System#nanoTime()}, so intervals are monotonic and instants comparable across processes
 * (to the accuracy of the two wall clocks, which on one machine are the same clock).
 */
public final class EpochClock {

    private final long anchorEpochNs;
    private final long anchorNano;

    public EpochClock() {
        Instant now = Instant.now();
        this.anchorNano = System.nanoTime();
        this.anchorEpochNs = now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /** The epoch instant, in ns, of a {@link System#nanoTime()} reading. */
    public long epochNs(long nanoTime) {
        return anchorEpochNs + (nanoTime - anchorNano);
    }
}
