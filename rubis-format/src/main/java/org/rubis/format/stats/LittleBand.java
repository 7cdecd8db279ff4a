package org.rubis.format.stats;

import java.util.Locale;

/**
 * Little's law as a check on a closed run phase, N / (X (R + Z)) = 1 within a band: one definition of the band, its
 * noise and the phases it cannot judge, for the client's summary ({@link Stationarity}) and the
 * analysis's report (rubis-analysis's {@code LittleLaw}), so that the two never judge the same run differently.
 *
 * <p>The band is 0.95..1.05, widened to {@link #Z} standard errors of the ratio when a short phase or a small
 * population makes it noisier than that (the ratio's noise is the users' cycles cut by the phase's two ends:
 * sqrt(2 Var(residual) / N) / T, with the residual life of a cycle R + Z). A phase is not judged when it has fewer than
 * {@link #MIN_WINDOWS} whole windows (the trend's 99 % interval would rest on a Student's t of 4.6 to 64), fewer than
 * {@link #MIN_REQUESTS} requests, or a band wider than 1 +- {@link #MAX_TOLERANCE}, which no ratio a run could produce
 * would fail.
 */
public final class LittleBand {

    public static final double LOW = 0.95;
    public static final double HIGH = 1.05;
    /** Standard errors of the ratio a steady run may be off by (two-sided 99 %, the trend test's level). */
    public static final double Z = 2.5758293;
    /** Fewer whole windows than this: not judged. */
    public static final int MIN_WINDOWS = 8;
    /** Fewer run-phase requests than this: not judged. */
    public static final int MIN_REQUESTS = 50;
    /** A band wider than 1 +- this: not judged. */
    public static final double MAX_TOLERANCE = 0.5;

    private LittleBand() {}

    /**
     * The ratio's relative standard error on a steady run: {@code users} in a phase of {@code runSeconds}, mean response
     * time {@code r} (s), think times of mean, mean square and mean cube {@code z1}, {@code z2}, {@code z3} (s, s^2,
     * s^3); 0 when unknown (no users, no phase, NaN moments).
     */
    public static double standardError(double users, double runSeconds, double r, double z1, double z2, double z3) {
        if (users <= 0 || runSeconds <= 0 || Double.isNaN(z1) || Double.isNaN(z2) || Double.isNaN(z3)) {
            return 0;
        }
        double m1 = z1 + r;
        double m2 = z2 + 2 * r * z1 + r * r;
        double m3 = z3 + 3 * r * z2 + 3 * r * r * z1 + r * r * r;
        if (m1 <= 0) {
            return 0;
        }
        double var = Math.max(0, m3 / (3 * m1) - (m2 / (2 * m1)) * (m2 / (2 * m1)));
        return Math.sqrt(2 * var / users) / runSeconds;
    }

    /** As {@link #standardError} with TPC-W's exponential think times of mean {@code z} (moments z, 2 z^2, 6 z^3). */
    public static double standardErrorExponential(double users, double runSeconds, double r, double z) {
        return standardError(users, runSeconds, r, z, 2 * z * z, 6 * z * z * z);
    }

    /** How far from 1 the ratio may be: 5 %, or {@link #Z} standard errors when wider. */
    public static double tolerance(double se) {
        return Math.max(1 - LOW, Z * se);
    }

    /** The band's low end, never below 0 (a ratio is not negative). */
    public static double low(double se) {
        return Math.max(0, 1 - tolerance(se));
    }

    public static double high(double se) {
        return 1 + tolerance(se);
    }

    /** Whether the band was widened past 0.95..1.05. */
    public static boolean widened(double se) {
        return Z * se > 1 - LOW;
    }

    /**
     * Why a run phase cannot be judged, or null when it can.
     *
     * @param windows       whole windows of the phase actually run
     * @param windowSeconds their length
     * @param requests      run-phase requests in them
     * @param se            the ratio's standard error, or NaN when there is no ratio (open arrivals)
     */
    public static String notJudgedReason(int windows, double windowSeconds, long requests, double se) {
        if (windows < MIN_WINDOWS) {
            return String.format(
                    Locale.ROOT,
                    "too short: %d whole window%s of %s s, need %d",
                    windows,
                    windows == 1 ? "" : "s",
                    seconds(windowSeconds),
                    MIN_WINDOWS);
        }
        if (requests < MIN_REQUESTS) {
            return String.format(
                    Locale.ROOT,
                    "too few requests: %d in %d windows of %s s, need %d",
                    requests,
                    windows,
                    seconds(windowSeconds),
                    MIN_REQUESTS);
        }
        if (!Double.isNaN(se) && tolerance(se) > MAX_TOLERANCE) {
            return String.format(
                    Locale.ROOT,
                    "too few users for a run phase this short: Little's law's band would be 1 +- %.2f"
                            + " (standard error %.1f %%), need at most +- %.2f",
                    tolerance(se),
                    100 * se,
                    MAX_TOLERANCE);
        }
        return null;
    }

    private static String seconds(double s) {
        return s == Math.rint(s) ? String.valueOf((long) s) : String.valueOf(s);
    }
}
