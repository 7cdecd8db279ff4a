package org.rubis.client.engine;

import java.time.Instant;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.RampMode;
import org.rubis.client.log.EpochAnchor;
import org.rubis.client.profile.LoadProfile;
import org.rubis.format.run.Phase;

/**
 * The run's time line in {@link System#nanoTime()} units: up ramp, run (the measurement) and down
 * ramp, each with its think-time factor; plus the epoch anchor for log timestamps. The wall clock
 * is read once, bracketed by {@code nanoTime} ({@link EpochAnchor}: the tightest of several brackets,
 * whose width is the anchor's uncertainty); a given start instant (a shard's
 * {@code --start-at}) becomes t = 0 through that anchor, so shards share one wall-clock time line
 * and a late wake-up shows as send lateness, not as a shifted schedule (docs/SHARDING.md).
 */
public final class RunClock {

    private final EpochAnchor anchor;
    private final long anchorNano;
    private final long anchorEpochNs;
    private final long startNano;
    private final long upEnd;
    private final long runEnd;
    private final long end;
    private final double upFactor;
    private final double downFactor;
    private final boolean stationary;
    /** The run phase's intervals (a load profile's, else the whole phase): their starts, and the think scale of each. */
    private final long[] intervalStarts;

    private final double[] thinkScales;

    public RunClock(ClientConfig c) {
        this(c, null);
    }

    /** t = 0 at {@code startAt} (null: now). */
    public RunClock(ClientConfig c, Instant startAt) {
        this.anchor = EpochAnchor.take();
        this.anchorNano = anchor.nano();
        this.anchorEpochNs = anchor.epochNs();
        this.startNano = startAt == null ? anchorNano : anchorNano + (epochNs(startAt) - anchorEpochNs);
        this.upEnd = startNano + c.upRampMs() * 1_000_000L;
        this.runEnd = upEnd + c.runMs() * 1_000_000L;
        this.end = runEnd + c.downRampMs() * 1_000_000L;
        this.upFactor = c.upRampFactor();
        this.downFactor = c.downRampFactor();
        this.stationary = c.rampMode() == RampMode.STATIONARY;
        LoadProfile p = c.profile();
        int n = p == null ? 1 : p.intervals();
        this.intervalStarts = new long[n];
        this.thinkScales = new double[n];
        for (int i = 0; i < n; i++) {
            intervalStarts[i] = upEnd + (p == null ? 0 : p.startNs(i));
            thinkScales[i] = p == null ? c.thinkScale() : p.points().get(i).thinkScale();
        }
    }

    /** A think time started at {@code from} as the run phase has it (think-scale, no ramp factor): the Z of Little's law. */
    public long runPhaseThink(long thinkNs, long from) {
        return (long) (thinkNs * thinkScale(from));
    }

    /**
     * The run phase's interval an instant is in (a load profile's, 0-based; without a profile the run phase is interval 0),
     * or -1 in the ramps.
     */
    public int interval(long nano) {
        if (nano < upEnd || nano >= runEnd) {
            return -1;
        }
        return containing(nano);
    }

    /** The run phase's intervals. */
    public int intervals() {
        return intervalStarts.length;
    }

    /** Interval {@code i}'s start (nanoTime). */
    public long intervalStartNano(int i) {
        return intervalStarts[i];
    }

    /** Interval {@code i}'s end: the next one's start, or the end of the run phase. */
    public long intervalEndNano(int i) {
        return i + 1 < intervalStarts.length ? intervalStarts[i + 1] : runEnd;
    }

    /** The think scale in force at {@code nano}: its interval's (the first's in the up ramp, the last's in the down ramp). */
    public double thinkScale(long nano) {
        return thinkScales[containing(nano)];
    }

    private int containing(long nano) {
        int lo = 0;
        int hi = intervalStarts.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (intervalStarts[mid] <= nano) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    public long upEndNano() {
        return upEnd;
    }

    public long runEndNano() {
        return runEnd;
    }

    public boolean stationary() {
        return stationary;
    }

    /**
     * The instant a think time of {@code thinkNs} (unscaled) started at {@code from} ends.
     * Original ramp mode: the think time times the factor of the phase it starts in (so a user
     * thinking across the start of the run phase keeps the up ramp's slowdown). Stationary mode:
     * a ramp slows the clock of thinking users down by its factor, only while it lasts, so a think
     * time crossing into the run phase ends as if the run phase had always been there (for the
     * memoryless TPC-W think time the remainder has the stationary distribution).
     */
    public long thinkEnd(long thinkNs, long from) {
        if (!stationary) {
            return from + scaleThink(thinkNs, from);
        }
        double t = thinkNs * thinkScale(from);
        long at = from;
        if (at < upEnd) {
            double need = t * upFactor;
            if (at + need <= upEnd) {
                return at + (long) need;
            }
            t -= (upEnd - at) / upFactor; // upFactor > 0 here: need > 0
            at = upEnd;
        }
        if (at < runEnd) {
            if (at + t <= runEnd) {
                return at + (long) t;
            }
            t -= runEnd - at;
            at = runEnd;
        }
        return at + (long) (t * downFactor);
    }

    public long startNano() {
        return startNano;
    }

    public long endNano() {
        return end;
    }

    public long startEpochNs() {
        return epochNs(startNano);
    }
    /** The wall clock read together with the {@code nanoTime} origin. */
    public long anchorEpochNs() {
        return anchorEpochNs;
    }
    /** The anchor and its uncertainty (the width of the nanoTime bracket around the wall-clock reading). */
    public EpochAnchor anchor() {
        return anchor;
    }

    public long epochNs(long nano) {
        return anchorEpochNs + (nano - anchorNano);
    }

    static long epochNs(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    /** The phase of an instant (after the end: the down ramp). */
    public Phase phase(long nano) {
        return nano < upEnd ? Phase.UP : nano < runEnd ? Phase.RUN : Phase.DOWN;
    }

    /** Think time scaled by the phase factor at {@code nano} and the think-scale. */
    public long scaleThink(long thinkNs, long nano) {
        double f = nano < upEnd ? upFactor : nano < runEnd ? 1.0 : downFactor;
        return (long) (thinkNs * f * thinkScale(nano));
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
