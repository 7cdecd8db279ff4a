package org.rubis.client.report;

import java.util.Locale;

/**
 * Is the run (measured) phase steady? Two independent checks, both needed because a closed
 * workload still filling up (the original's up ramp) shows both symptoms:
 * <ul>
 * <li>Little's law for a closed system, N = X (R + Z): the ratio N / (X (R + Z)) of users to the
 * population the measured throughput, response time and think time account for must lie within
 * 0.95..1.05. Above 1, users were missing from the run phase (still arriving, or the client was
 * late); below 1, the figures do not describe the same population.</li>
 * <li>No trend in throughput: the least-squares slope of the per-window request counts over the
 * run phase, with its 95 % confidence interval. A trend is flagged when the interval excludes 0
 * and the fitted change over the run phase exceeds 10 % of the mean (a significant but tiny slope
 * at a high rate is not a trend that matters).</li>
 * </ul>
 *
 * @param littleRatio  N / (X (R + Z)); NaN when not applicable (hybrid arrivals, no requests)
 * @param slopePerS    fitted change of throughput per second of run phase (requests/s per s)
 * @param slopeLow     95 % confidence interval of the slope, low end
 * @param slopeHigh    high end
 * @param firstHalfRps throughput in the first half of the run phase
 * @param secondHalfRps throughput in the second half
 * @param windows      windows used for the slope
 */
public record Stationarity(double littleRatio, double slopePerS, double slopeLow, double slopeHigh,
                           double firstHalfRps, double secondHalfRps, int windows, double windowSeconds, double meanRps) {

    public static final double LITTLE_LOW = 0.95;
    public static final double LITTLE_HIGH = 1.05;
    /** A trend counts when its fitted change over the run phase exceeds this share of the mean. */
    public static final double TREND_SHARE = 0.10;

    /**
     * @param users      closed population N, or 0 for open/hybrid arrivals (Little's law not checked)
     * @param counts     requests sent in each window of the run phase (the last may be partial: give whole windows only)
     * @param windowS    window length in seconds
     * @param meanRespS  mean response time R in the run phase, seconds
     * @param meanThinkS mean think time Z started in the run phase, seconds
     */
    public static Stationarity of(int users, long[] counts, double windowS, double meanRespS, double meanThinkS) {
        int k = counts.length;
        double total = 0;
        for (long c : counts) {
            total += c;
        }
        double x = k == 0 ? 0 : total / (k * windowS);
        double little = users > 0 && x > 0 && meanRespS + meanThinkS > 0 ? users / (x * (meanRespS + meanThinkS)) : Double.NaN;
        double slope = 0, low = 0, high = 0;
        if (k >= 3) {
            double mx = (k - 1) / 2.0, my = total / k, sxx = 0, sxy = 0;
            for (int i = 0; i < k; i++) {
                sxx += (i - mx) * (i - mx);
                sxy += (i - mx) * (counts[i] - my);
            }
            double b = sxy / sxx;
            double sse = 0;
            for (int i = 0; i < k; i++) {
                double e = counts[i] - (my + b * (i - mx));
                sse += e * e;
            }
            double se = Math.sqrt(sse / (k - 2) / sxx);
            double t = studentT975(k - 2);
            double perS = 1 / (windowS * windowS); // counts per window per window -> requests/s per s
            slope = b * perS;
            low = (b - t * se) * perS;
            high = (b + t * se) * perS;
        }
        int h = k / 2;
        double first = 0, second = 0;
        for (int i = 0; i < k; i++) {
            if (i < h) {
                first += counts[i];
            } else if (i >= k - h) {
                second += counts[i];
            }
        }
        return new Stationarity(little, slope, low, high, h == 0 ? 0 : first / (h * windowS), h == 0 ? 0 : second / (h * windowS), k, windowS, x);
    }

    public boolean littleOk() {
        return Double.isNaN(littleRatio) || littleRatio >= LITTLE_LOW && littleRatio <= LITTLE_HIGH;
    }

    public boolean trend() {
        boolean significant = windows >= 3 && (slopeLow > 0 || slopeHigh < 0);
        double change = Math.abs(slopePerS) * windows * windowSeconds;
        return significant && meanRps > 0 && change > TREND_SHARE * meanRps;
    }

    public boolean steady() {
        return littleOk() && !trend();
    }

    /** The figures in one line. */
    public String describe() {
        String l = Double.isNaN(littleRatio) ? "Little's law n/a (open arrivals)"
                : String.format(Locale.ROOT, "Little's law N/(X(R+Z)) = %.3f (steady: %.2f..%.2f)", littleRatio, LITTLE_LOW, LITTLE_HIGH);
        return l + String.format(Locale.ROOT, "; throughput trend %+.3f req/s per s (95%% CI %+.3f..%+.3f, %d windows of %.0f s), first half %.1f, second half %.1f req/s",
                slopePerS, slopeLow, slopeHigh, windows, windowSeconds, firstHalfRps, secondHalfRps);
    }

    /** The warning when not steady, else null. */
    public String warning() {
        if (steady()) {
            return null;
        }
        StringBuilder b = new StringBuilder("NOT STEADY: the run phase ");
        if (!littleOk()) {
            b.append(littleRatio > LITTLE_HIGH ? "had fewer users at work than configured" : "does not satisfy Little's law");
        }
        if (trend()) {
            b.append(littleOk() ? "" : " and ").append("has a throughput trend");
        }
        return b.append(" (").append(describe()).append("); its averages describe no single load level. ")
                .append("Lengthen the up ramp or use --ramp-mode stationary.").toString();
    }

    /** Two-sided 95 % Student t quantile (Cornish-Fisher expansion, exact enough from 1 degree of freedom up for this use). */
    static double studentT975(int df) {
        if (df <= 0) {
            return Double.POSITIVE_INFINITY;
        }
        double[] small = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228};
        if (df <= small.length) {
            return small[df - 1];
        }
        double z = 1.959964;
        return z + (z * z * z + z) / (4 * df) + (5 * Math.pow(z, 5) + 16 * z * z * z + 3 * z) / (96.0 * df * df);
    }
}
