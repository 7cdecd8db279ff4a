package org.rubis.analysis.stats;

/** Streaming mean and variance (Welford), for the coefficient of variation of inter-arrival times. */
public final class Moments {
    private long n;
    private double mean;
    private double m2;

    public void add(double x) {
        n++;
        double d = x - mean;
        mean += d / n;
        m2 += d * (x - mean);
    }

    public long count() {
        return n;
    }

    public double mean() {
        return mean;
    }

    public double std() {
        return n < 2 ? 0 : Math.sqrt(m2 / (n - 1));
    }
    /** std / mean; 0 when there are fewer than two values. */
    public double cov() {
        return n < 2 || mean == 0 ? 0 : std() / mean;
    }
}
