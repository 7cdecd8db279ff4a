package org.rubis.client.workload;

import java.util.random.RandomGenerator;

/**
 * Think time between a reply and the next request: TPC-W negative exponential (mean 7 s,
 * truncated at 70 s), or the table's per-state waiting time. Values are unscaled nanoseconds;
 * the engine multiplies them by the phase slowdown factor and the think-scale.
 */
public final class ThinkTime {

    public static final long TPCW_MEAN_NS = 7_000_000_000L;
    public static final long TPCW_MAX_NS = 70_000_000_000L;

    private final boolean tpcw;
    private final TransitionTable table;

    public ThinkTime(boolean tpcw, TransitionTable table) {
        this.tpcw = tpcw;
        this.table = table;
    }

    public boolean isTpcw() {
        return tpcw;
    }

    /** The think time before the request of {@code row} (a state, the Back row or End row). */
    public long nanos(int row, RandomGenerator random) {
        if (tpcw) {
            return tpcw(random);
        }
        return table.waitingTimeMs(row) * 1_000_000L;
    }

    /** Negative exponential with mean 7 s, capped at 70 s. */
    public static long tpcw(RandomGenerator random) {
        double u = 1.0 - random.nextDouble(); // (0, 1]: log is finite
        double ns = -Math.log(u) * TPCW_MEAN_NS;
        return ns >= TPCW_MAX_NS ? TPCW_MAX_NS : (long) ns;
    }
}
