package org.rubis.client.engine;

import org.rubis.client.config.ClientConfig;
import org.rubis.format.Phase;

/**
 * The run's time line in {@link System#nanoTime()} units: up ramp, run (the measurement) and down
 * ramp, each with its think-time factor; plus the epoch anchor for log timestamps.
 */
public final class RunClock {

    private final long startNano;
    private final long startEpochNs;
    private final long upEnd;
    private final long runEnd;
    private final long end;
    private final double upFactor;
    private final double downFactor;
    private final double thinkScale;

    public RunClock(ClientConfig c) {
        java.time.Instant now = java.time.Instant.now();
        this.startNano = System.nanoTime();
        this.startEpochNs = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        this.upEnd = startNano + c.upRampMs() * 1_000_000L;
        this.runEnd = upEnd + c.runMs() * 1_000_000L;
        this.end = runEnd + c.downRampMs() * 1_000_000L;
        this.upFactor = c.upRampFactor();
        this.downFactor = c.downRampFactor();
        this.thinkScale = c.thinkScale();
    }

    public long startNano() { return startNano; }
    public long endNano() { return end; }
    public long startEpochNs() { return startEpochNs; }

    public long epochNs(long nano) {
        return startEpochNs + (nano - startNano);
    }

    /** The phase of an instant (after the end: the down ramp). */
    public Phase phase(long nano) {
        return nano < upEnd ? Phase.UP : nano < runEnd ? Phase.RUN : Phase.DOWN;
    }

    /** Think time scaled by the phase factor at {@code nano} and the think-scale. */
    public long scaleThink(long thinkNs, long nano) {
        double f = nano < upEnd ? upFactor : nano < runEnd ? 1.0 : downFactor;
        return (long) (thinkNs * f * thinkScale);
    }

    /** Seconds of the run phase that had passed at {@code nano} (a stopped run divides by these). */
    public double runSecondsUntil(long nano) {
        long until = Math.min(Math.max(nano, upEnd), runEnd);
        return (until - upEnd) / 1e9;
    }

    public double runSeconds() {
        return (runEnd - upEnd) / 1e9;
    }
}
