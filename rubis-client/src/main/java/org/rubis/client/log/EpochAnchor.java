package org.rubis.client.log;

import java.time.Instant;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The pair (System.nanoTime(), wall clock) that turns the process's monotonic instants into epoch
 * nanoseconds for the logs. Log instants of different clocks are compared (the wire check's split of
 * client minus wire into a send and a receive side puts our send mark beside the capture's timestamp),
 * so the pair's own error matters: a single reading can be off by a preemption between the two calls.
 * The anchor is the tightest of several brackets {@code nanoTime, Instant.now(), nanoTime}: the wall
 * clock was read inside the bracket, taken as its midpoint, so an instant mapped through the anchor is
 * off by at most half the bracket ({@link #bracketNs}, recorded in summary.json).
 *
 * <p>CLOCK_REALTIME and CLOCK_MONOTONIC advance at the same NTP-slewed rate on Linux, so one anchor holds
 * for the run unless the wall clock is stepped.
 *
 * @param nano      the nanoTime instant of the anchor (the bracket's midpoint)
 * @param epochNs   the wall clock at that instant, epoch nanoseconds
 * @param bracketNs the width of the bracket around the wall-clock reading: the anchor's uncertainty
 */
public record EpochAnchor(long nano, long epochNs, long bracketNs) {

    /** Brackets taken; the tightest is kept. Each costs three clock reads (well under a microsecond). */
    public static final int SAMPLES = 16;

    /** The anchor of this process now, from the tightest of {@link #SAMPLES} brackets. */
    public static EpochAnchor take() {
        return take(SAMPLES, System::nanoTime, Instant::now);
    }

    /** The tightest of {@code samples} brackets of the given clocks (tests pass their own). */
    public static EpochAnchor take(int samples, LongSupplier nanoTime, Supplier<Instant> wall) {
        long bestWidth = Long.MAX_VALUE;
        long bestNano = 0;
        long bestEpoch = 0;
        for (int i = 0; i < Math.max(1, samples); i++) {
            long before = nanoTime.getAsLong();
            Instant now = wall.get();
            long after = nanoTime.getAsLong();
            long width = after - before;
            if (width < bestWidth) {
                bestWidth = width;
                bestNano = before + width / 2;
                bestEpoch = now.getEpochSecond() * 1_000_000_000L + now.getNano();
            }
        }
        return new EpochAnchor(bestNano, bestEpoch, bestWidth);
    }

    /** A nanoTime instant of this process as epoch nanoseconds. */
    public long epochNs(long nanoTime) {
        return epochNs + (nanoTime - nano);
    }
}
