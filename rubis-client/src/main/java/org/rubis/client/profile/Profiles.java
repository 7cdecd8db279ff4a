package org.rubis.client.profile;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * The common shapes of load as profiles, written by the {@code profile} command so that nobody has to type a day's
 * points: steps (a knee search), a linear ramp, a spike, a diurnal sine, and any time series rescaled to a peak and a
 * length (a day-long request-rate trace driving an hour). Times in milliseconds.
 */
public final class Profiles {

    private Profiles() {}

    /** {@code levels[i]} from {@code i * everyMs}, each for {@code everyMs}. */
    public static ProfileText steps(ProfileUnit unit, List<Double> levels, long everyMs) {
        ProfileText p =
                new ProfileText(ProfileShape.STEP, unit).comment("steps of " + seconds(everyMs) + ": " + join(levels));
        for (int i = 0; i < levels.size(); i++) {
            p.point(i * everyMs, levels.get(i));
        }
        return p.end(levels.size() * everyMs);
    }

    /** From {@code from} to {@code to} over {@code overMs}, then {@code to} for {@code holdMs}. */
    public static ProfileText ramp(ProfileUnit unit, double from, double to, long overMs, long holdMs) {
        ProfileText p = new ProfileText(ProfileShape.RAMP, unit)
                .comment("a linear ramp from " + number(from) + " to " + number(to) + " over " + seconds(overMs)
                        + (holdMs > 0 ? ", then " + number(to) + " for " + seconds(holdMs) : ""))
                .point(0, from)
                .point(overMs, to);
        return p.end(overMs + holdMs);
    }

    /** {@code base}, {@code peak} from {@code atMs} for {@code spikeMs}, then {@code base} again to {@code lengthMs}. */
    public static ProfileText spike(
            ProfileUnit unit, double base, double peak, long atMs, long spikeMs, long lengthMs) {
        return new ProfileText(ProfileShape.STEP, unit)
                .comment("a spike to " + number(peak) + " at " + seconds(atMs) + " for " + seconds(spikeMs) + ", "
                        + number(base) + " otherwise")
                .point(0, base)
                .point(atMs, peak)
                .point(atMs + spikeMs, base)
                .end(lengthMs);
    }

    /**
     * A day as a sine: from {@code min} at time 0 up to {@code max} at half the period and back, for {@code lengthMs},
     * in pieces of {@code stepMs}: steps at each piece's mean (flat intervals, judged steady one by one) or a ramp
     * through the sine's values at the piece boundaries.
     */
    public static ProfileText diurnal(
            ProfileUnit unit, ProfileShape shape, double min, double max, long periodMs, long lengthMs, long stepMs) {
        ProfileText p = new ProfileText(shape, unit)
                .comment("a diurnal sine from " + number(min) + " to " + number(max) + ", period " + seconds(periodMs)
                        + ", " + (shape == ProfileShape.STEP ? "steps" : "a ramp") + " of " + seconds(stepMs));
        double w = 2 * Math.PI / periodMs;
        for (long t = 0; t < lengthMs; t += stepMs) {
            long e = Math.min(lengthMs, t + stepMs);
            double v = shape == ProfileShape.STEP
                    // the mean of min + (max - min)(1 - cos(w t)) / 2 over [t, e)
                    ? min + (max - min) / 2 * (1 - (Math.sin(w * e) - Math.sin(w * t)) / (w * (e - t)))
                    : min + (max - min) / 2 * (1 - Math.cos(w * t));
            p.point(t, v);
        }
        if (shape == ProfileShape.RAMP) {
            p.point(lengthMs, min + (max - min) / 2 * (1 - Math.cos(w * lengthMs)));
        }
        return p.end(lengthMs);
    }

    /**
     * A time series rescaled: its span becomes {@code lengthMs}, its values are averaged over pieces of {@code stepMs}
     * and scaled so that the largest piece is {@code peak}.
     */
    public static ProfileText series(
            ProfileUnit unit, ProfileShape shape, TimeSeries s, String name, double peak, long lengthMs, long stepMs) {
        int n = (int) ((lengthMs + stepMs - 1) / stepMs);
        double[] means = new double[n];
        double largest = 0;
        for (int i = 0; i < n; i++) {
            long t = i * stepMs;
            long e = Math.min(lengthMs, t + stepMs);
            means[i] = s.mean(t / (double) lengthMs, e / (double) lengthMs);
            largest = Math.max(largest, means[i]);
        }
        double scale = largest > 0 ? peak / largest : 0;
        ProfileText p = new ProfileText(shape, unit)
                .comment("the time series " + name + " (" + s.samples() + " samples, largest "
                        + number(s.max()) + "), its span rescaled to " + seconds(lengthMs) + ", averaged over "
                        + seconds(stepMs)
                        + ", its largest piece scaled to " + number(peak));
        for (int i = 0; i < n; i++) {
            p.point(i * stepMs, means[i] * scale);
        }
        if (shape == ProfileShape.RAMP) {
            p.point(lengthMs, means[n - 1] * scale);
        }
        return p.end(lengthMs);
    }

    static String seconds(long ms) {
        return BigDecimal.valueOf(ms, 3).stripTrailingZeros().toPlainString() + " s";
    }

    static String number(double v) {
        return BigDecimal.valueOf(v)
                .setScale(3, RoundingMode.HALF_UP)
                .stripTrailingZeros()
                .toPlainString();
    }

    private static String join(List<Double> levels) {
        StringBuilder b = new StringBuilder();
        for (double v : levels) {
            b.append(b.isEmpty() ? "" : ", ").append(number(v));
        }
        return b.toString();
    }
}
