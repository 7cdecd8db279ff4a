package org.rubis.analysis.wire;

import java.util.Arrays;

/** Mean, percentiles and extremes of signed differences (ns), kept exact: a wire check holds one value per request. */
public final class DiffStats {
    private long[] values = new long[64];
    private int n;
    private boolean sorted = true;

    public void add(long ns) {
        if (n == values.length) {
            values = Arrays.copyOf(values, n * 2);
        }
        values[n++] = ns;
        sorted = false;
    }

    public int count() {
        return n;
    }

    private long[] sortedValues() {
        if (!sorted) {
            Arrays.sort(values, 0, n);
            sorted = true;
        }
        return values;
    }

    public double meanUs() {
        if (n == 0) return 0;
        double s = 0;
        for (int i = 0; i < n; i++) s += values[i];
        return s / n / 1e3;
    }

    /** Nearest-rank percentile, microseconds. */
    public double percentileUs(double p) {
        if (n == 0) return 0;
        long[] v = sortedValues();
        int rank = (int) Math.ceil(p / 100.0 * n);
        return v[Math.max(0, Math.min(n - 1, rank - 1))] / 1e3;
    }

    public double minUs() {
        return n == 0 ? 0 : sortedValues()[0] / 1e3;
    }

    public double maxUs() {
        return n == 0 ? 0 : sortedValues()[n - 1] / 1e3;
    }

    /** The sorted values (ns), for a CDF. */
    public long[] sorted() {
        return Arrays.copyOf(sortedValues(), n);
    }
}
