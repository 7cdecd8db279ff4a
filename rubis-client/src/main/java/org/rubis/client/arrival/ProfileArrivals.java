package org.rubis.client.arrival;

import java.util.Locale;
import java.util.SplittableRandom;
import org.rubis.client.profile.LoadProfile;
import org.rubis.client.profile.ProfileShape;

/**
 * Session arrivals whose rate follows a load profile (hybrid arrivals; docs/WORKLOAD.md, Load profiles): the
 * profile's value at the start of the run phase during the up ramp, then the profile, then its last value through
 * the down ramp. Exponential inter-arrivals make a non-homogeneous Poisson process: each arrival is drawn by inverting
 * the rate's integral from the previous one, and a draw that reaches past the end of a piece (a step or a ramp) starts
 * again at its end, which the process's memorylessness makes exact. Deterministic arrivals come every 1/rate within a
 * step, from its start; on a ramp, when the expected count from the ramp's start reaches k + 1/2.
 *
 * <p>A profile of steps whose first point is at 0 gives, with no up ramp, the instants the rate schedules of earlier
 * versions gave for the same file and seed (the same draws, in the same order).
 */
public final class ProfileArrivals implements SessionArrivals {

    private final LoadProfile profile;
    private final boolean exponential;
    private final SplittableRandom random;
    /** Pieces on the run's time line (ns from t = 0): start, end (the last: infinite), rate at the start and the end. */
    private final double[] starts;

    private final double[] ends;
    private final double[] from;
    private final double[] to;
    private double t;
    private int piece;
    private long k;

    /**
     * @param upRampNs the up ramp's length: the profile's time 0 is then
     * @param seed     the arrival seed (the run's, mixed as for every arrival process)
     */
    public ProfileArrivals(LoadProfile profile, long upRampNs, boolean exponential, long seed) {
        this.profile = profile;
        this.exponential = exponential;
        this.random = new SplittableRandom(seed ^ 0x2545F4914F6CDD1DL);
        int offset = upRampNs > 0 ? 1 : 0;
        int n = profile.intervals() + offset;
        starts = new double[n];
        ends = new double[n];
        from = new double[n];
        to = new double[n];
        if (offset == 1) {
            starts[0] = 0;
            ends[0] = upRampNs;
            from[0] = profile.startValue(0);
            to[0] = from[0];
        }
        for (int i = 0; i < profile.intervals(); i++) {
            int p = i + offset;
            starts[p] = upRampNs + profile.startNs(i);
            boolean last = i + 1 == profile.intervals();
            ends[p] = last ? Double.POSITIVE_INFINITY : upRampNs + profile.endNs(i);
            from[p] = profile.startValue(i);
            to[p] = last ? from[p] : profile.endValue(i);
        }
        t = starts[0];
    }

    @Override
    public long next() {
        while (piece < starts.length) {
            double a = from[piece];
            double b = to[piece];
            if (a > 0 || b > 0) {
                double candidate = exponential ? t + exponentialGap() : deterministic();
                if (candidate < ends[piece]) {
                    t = candidate;
                    k++;
                    return (long) candidate;
                }
            }
            if (Double.isInfinite(ends[piece])) {
                return -1;
            }
            // Memoryless: restarting the draw at the piece boundary keeps the process exact.
            t = ends[piece];
            piece++;
            k = 0;
        }
        return -1;
    }

    /** The next gap from {@code t}: the integral of the rate from t reaches an exponential draw (ns; infinite: not here). */
    private double exponentialGap() {
        double need = -Math.log(1.0 - random.nextDouble()) * 1e9; // rate in /s, time in ns
        double slope = slope();
        double r = rateAt(t);
        if (slope == 0) {
            return need / r;
        }
        double d = r * r + 2 * slope * need;
        if (d < 0) {
            return Double.POSITIVE_INFINITY; // the rate falls to 0 first
        }
        return 2 * need / (r + Math.sqrt(d)); // the root of slope/2 x^2 + r x = need, in its stable form
    }

    /** Arrival {@code k} of this piece: every 1/rate from its start on a step; on a ramp, where the expected count is k + 1/2. */
    private double deterministic() {
        double a = from[piece];
        double slope = slope();
        if (slope == 0) {
            return starts[piece] + k * 1e9 / a;
        }
        double need = (k + 0.5) * 1e9;
        double d = a * a + 2 * slope * need;
        if (d < 0) {
            return Double.POSITIVE_INFINITY;
        }
        return starts[piece] + 2 * need / (a + Math.sqrt(d));
    }

    /** The rate's change per ns on the current piece (rate per second). */
    private double slope() {
        if (from[piece] == to[piece] || Double.isInfinite(ends[piece])) {
            return 0;
        }
        return (to[piece] - from[piece]) / (ends[piece] - starts[piece]);
    }

    private double rateAt(double at) {
        return from[piece] + slope() * (at - starts[piece]);
    }

    @Override
    public String describe() {
        StringBuilder b = new StringBuilder(
                "load profile " + profile.source() + " (" + (exponential ? "exponential" : "deterministic")
                        + (profile.shape() == ProfileShape.RAMP ? ", ramps" : "") + "):");
        int shown = Math.min(profile.intervals(), 8);
        for (int i = 0; i < shown; i++) {
            b.append(String.format(Locale.ROOT, " %gs:%g/s", profile.startNs(i) / 1e9, profile.startValue(i)));
        }
        if (shown < profile.intervals()) {
            b.append(" ... (").append(profile.intervals()).append(" points)");
        }
        return b.toString();
    }
}
