package org.rubis.e2e;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a burst of requests to the live endpoint did to the run's send lateness, from requests.csv: the p99 of the
 * run phase's lateness in the seconds the burst touched, beside the lowest and highest p99 of its other seconds (the
 * run's own second-to-second spread). A figure to report, never a timed assertion: the machine is shared.
 */
record BurstLateness(
        double burstSeconds, double burstP99Ms, double otherMinP99Ms, double otherMaxP99Ms, int otherSeconds) {

    /**
     * @param rows    requests.csv's rows
     * @param startNs the burst's first instant, epoch ns
     * @param endNs   its last, epoch ns
     */
    static BurstLateness of(List<Map<String, String>> rows, long startNs, long endNs) {
        long firstSecond = startNs / 1_000_000_000L;
        long lastSecond = endNs / 1_000_000_000L;
        List<Long> burst = new ArrayList<>();
        Map<Long, List<Long>> others = new TreeMap<>();
        for (Map<String, String> r : rows) {
            if (!r.get("phase").equals("run")) {
                continue;
            }
            long intended = Long.parseLong(r.get("intended_send_epoch_ns"));
            long late = Math.max(0, Long.parseLong(r.get("send_epoch_ns")) - intended);
            long second = intended / 1_000_000_000L;
            if (second >= firstSecond && second <= lastSecond) {
                burst.add(late);
            } else {
                others.computeIfAbsent(second, s -> new ArrayList<>()).add(late);
            }
        }
        double min = Double.NaN;
        double max = Double.NaN;
        for (List<Long> s : others.values()) {
            double p = p99Ms(s);
            min = Double.isNaN(min) ? p : Math.min(min, p);
            max = Double.isNaN(max) ? p : Math.max(max, p);
        }
        return new BurstLateness(
                (endNs - startNs) / 1e9, burst.isEmpty() ? Double.NaN : p99Ms(burst), min, max, others.size());
    }

    /** The nearest-rank p99 of some lateness values, in ms. */
    private static double p99Ms(List<Long> values) {
        long[] v = values.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(v);
        int rank = (int) Math.ceil(0.99 * v.length);
        return v[Math.max(0, rank - 1)] / 1e6;
    }

    @Override
    public String toString() {
        String during = Double.isNaN(burstP99Ms)
                ? "no run-phase request was due in its seconds"
                : String.format(Locale.ROOT, "send lateness p99 in its seconds %.3f ms", burstP99Ms);
        return String.format(
                Locale.ROOT,
                "burst of %.1f s: %s; in the run phase's %d other seconds %.3f to %.3f ms",
                burstSeconds,
                during,
                otherSeconds,
                otherMinP99Ms,
                otherMaxP99Ms);
    }
}
