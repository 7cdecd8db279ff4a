package org.rubis.client.workload;

/**
 * Draws the next row of a transition table from a uniform number, in one of the two modes.
 * Precomputes each column's cumulative sums, so a draw is a short scan with no allocation.
 */
public final class TransitionSampler {

    /** Returned when the draw reaches no row (compatible mode, column sum below 1): stay. */
    public static final int STAY = -1;

    private final double[][] cumulative; // [from][to]
    private final int rows;

    public TransitionSampler(TransitionTable table, TransitionMode mode) {
        this.rows = table.rows();
        this.cumulative = new double[table.columns()][rows];
        for (int from = 0; from < table.columns(); from++) {
            double scale = 1.0;
            if (mode == TransitionMode.NORMALIZE) {
                double sum = table.columnSum(from);
                scale = sum > 0 ? 1.0 / sum : 1.0;
            }
            double c = 0;
            for (int to = 0; to < rows; to++) {
                c += table.probability(to, from) * scale;
                cumulative[from][to] = c;
            }
            if (mode == TransitionMode.NORMALIZE && c > 0) {
                // Rounding must not create a "stay" in normalize mode: the last reachable row takes the rest.
                for (int to = rows - 1; to >= 0; to--) {
                    if (table.probability(to, from) > 0) {
                        cumulative[from][to] = Double.POSITIVE_INFINITY;
                        break;
                    }
                }
            }
        }
    }

    /**
     * The row reached from column {@code from} for uniform {@code u} in [0,1): the first row whose
     * cumulative probability exceeds {@code u}, or {@link #STAY}.
     */
    public int next(int from, double u) {
        double[] cum = cumulative[from];
        for (int to = 0; to < rows; to++) {
            if (u < cum[to]) {
                return to;
            }
        }
        return STAY;
    }
}
