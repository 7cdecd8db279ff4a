package org.rubis.client.backend.kernel;

import java.lang.foreign.Arena;

/**
 * Maps the kernel's time stamps, {@code CLOCK_REALTIME} nanoseconds, onto the run's clock, {@link System#nanoTime()}
 * ({@code CLOCK_MONOTONIC} on Linux). The anchor is the tightest of several paired reads: {@code nanoTime},
 * {@code clock_gettime(CLOCK_REALTIME)}, {@code nanoTime}; the pair whose two {@code nanoTime} reads are closest
 * bounds the offset's error by half their distance ({@link #uncertaintyNanos()}). Both clocks are slewed alike by
 * NTP, so the offset moves only when the wall clock is stepped: {@link #driftNanos()} re-anchors and says by how much
 * it moved since the anchor, which the run reports.
 */
public final class ClockAnchor {

    private static final int PAIRS = 32;

    private final long offset;
    private final long uncertainty;

    private ClockAnchor(long offset, long uncertainty) {
        this.offset = offset;
        this.uncertainty = uncertainty;
    }

    /** An anchor taken now, from {@value #PAIRS} paired reads. */
    public static ClockAnchor take() {
        try (Arena arena = Arena.ofConfined()) {
            Linux.Errno e = new Linux.Errno(arena);
            long best = Long.MAX_VALUE;
            long bestOffset = 0;
            for (int i = 0; i < PAIRS; i++) {
                long before = System.nanoTime();
                long real = Linux.realtimeNanos(e);
                long after = System.nanoTime();
                long width = after - before;
                if (width < best) {
                    best = width;
                    bestOffset = real - (before + width / 2);
                }
            }
            return new ClockAnchor(bestOffset, best / 2);
        }
    }

    /** A kernel stamp ({@code CLOCK_REALTIME} ns) as a {@link System#nanoTime()} instant; 0 stays 0 (no stamp). */
    public long toNano(long realtimeNanos) {
        return realtimeNanos == 0 ? 0 : realtimeNanos - offset;
    }

    /** {@code CLOCK_REALTIME} minus {@code nanoTime}, ns. */
    public long offsetNanos() {
        return offset;
    }

    /** Half the width of the tightest pair: the most the offset can be off by, ns. */
    public long uncertaintyNanos() {
        return uncertainty;
    }

    /** How far the offset moved since this anchor, ns, measured by a fresh one (a wall clock step shows here). */
    public long driftNanos() {
        return take().offset - offset;
    }
}
