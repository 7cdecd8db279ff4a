package org.rubis.analysis;

import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;

/** Counts of intervals (connections, sessions) open at each whole second. */
final class Intervals {

    private Intervals() {}

    /** Number of intervals {start, end} (epoch ns) open at each whole second (epoch second -> count). */
    static NavigableMap<Long, Integer> openPerSecond(List<long[]> intervals) {
        NavigableMap<Long, Integer> out = new TreeMap<>();
        if (intervals.isEmpty()) {
            return out;
        }
        long[] opens = intervals.stream().mapToLong(x -> x[0]).sorted().toArray();
        long[] closes = intervals.stream().mapToLong(x -> x[1]).sorted().toArray();
        long from = opens[0] / 1_000_000_000L;
        long to = closes[closes.length - 1] / 1_000_000_000L + 1;
        int i = 0;
        int j = 0;
        for (long sec = from; sec <= to; sec++) {
            long t = sec * 1_000_000_000L;
            while (i < opens.length && opens[i] <= t) {
                i++;
            }
            while (j < closes.length && closes[j] <= t) {
                j++;
            }
            out.put(sec, i - j);
        }
        return out;
    }
}
