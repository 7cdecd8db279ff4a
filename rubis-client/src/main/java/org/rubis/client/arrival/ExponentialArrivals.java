package org.rubis.client.arrival;

import java.util.Locale;
import java.util.SplittableRandom;

/** Poisson arrivals: exponential inter-arrival times with mean 1/rate, from the run seed. */
public final class ExponentialArrivals implements SessionArrivals {

    private final double meanNs;
    private final SplittableRandom random;
    private double t;

    public ExponentialArrivals(double ratePerSecond, long seed) {
        this.meanNs = 1e9 / ratePerSecond;
        this.random = new SplittableRandom(seed ^ 0x5DEECE66DL);
    }

    @Override
    public long next() {
        t += -Math.log(1.0 - random.nextDouble()) * meanNs;
        return (long) t;
    }

    @Override
    public String describe() {
        return String.format(
                Locale.ROOT, "exponential inter-arrivals, mean %.3f ms (%.3f sessions/s)", meanNs / 1e6, 1e9 / meanNs);
    }
}
