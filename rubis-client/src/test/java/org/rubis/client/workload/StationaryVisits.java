package org.rubis.client.workload;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The share of requests each state of a transition table gets over sessions run back to back, computed exactly from
 * the matrix under the compatible mode's semantics (the original's cumulative walk, "stay" below 1, unreachable mass
 * above 1, the back stack, End of Session, at most {@code maxTransitions} requests a session): the stationary
 * distribution of the walk restarted at Home, found by power iteration over (state, back stack) from Home with an
 * empty stack, one step per request, summing the mass on each state until none is left (renewal: a state's share is
 * its expected visits in a session over the session's expected length).
 */
public final class StationaryVisits {

    private StationaryVisits() {}

    /** Each state's share of the requests (column order of the table), summing to 1. */
    public static double[] of(TransitionTable table, int maxTransitions) {
        int states = table.columns();
        int back = table.backRow();
        int end = table.endRow();
        double[][] eff = new double[states][];
        for (int s = 0; s < states; s++) {
            eff[s] = effective(table, s);
        }
        Map<List<Integer>, Double> dist = new HashMap<>();
        dist.put(List.of(0), 1.0); // [state, stack...]
        double[] expected = new double[states];
        double pruned = 0;
        for (int step = 0; step < maxTransitions && !dist.isEmpty(); step++) {
            Map<List<Integer>, Double> next = new HashMap<>();
            for (Map.Entry<List<Integer>, Double> e : dist.entrySet()) {
                List<Integer> cfg = e.getKey();
                double mass = e.getValue();
                int s = cfg.get(0);
                expected[s] += mass;
                if (step == maxTransitions - 1) {
                    continue;
                }
                double[] p = eff[s];
                for (int to = 0; to <= table.rows(); to++) {
                    double q = p[to] * mass;
                    if (q == 0 || to == end) {
                        continue;
                    }
                    List<Integer> n;
                    if (to == back && cfg.size() > 1) {
                        n = new ArrayList<>(cfg.subList(1, cfg.size())); // pop: the top becomes the state
                    } else {
                        int target = (to == back || to == table.rows()) ? s : to; // empty back or stay: same state
                        n = new ArrayList<>();
                        n.add(target);
                        if (table.probability(back, target) != 0) {
                            n.add(s);
                            n.addAll(cfg.subList(1, cfg.size()));
                        }
                    }
                    next.merge(n, q, Double::sum);
                }
            }
            dist = new HashMap<>();
            for (Map.Entry<List<Integer>, Double> e : next.entrySet()) {
                if (e.getValue() < 1e-15) {
                    pruned += e.getValue();
                } else {
                    dist.put(e.getKey(), e.getValue());
                }
            }
        }
        if (pruned > 1e-6) {
            throw new IllegalStateException("pruned mass " + pruned + ": the shares are not exact");
        }
        double sum = 0;
        for (double v : expected) {
            sum += v;
        }
        for (int i = 0; i < states; i++) {
            expected[i] /= sum;
        }
        return expected;
    }

    /** Effective probabilities of the cumulative walk: row i gets the part of [0,1) it covers; the last slot: stay. */
    private static double[] effective(TransitionTable table, int from) {
        double[] p = new double[table.rows() + 1];
        double cum = 0;
        for (int to = 0; to < table.rows(); to++) {
            double lo = Math.min(cum, 1);
            cum += table.probability(to, from);
            p[to] = Math.min(cum, 1) - lo;
        }
        p[table.rows()] = Math.max(0, 1 - cum);
        return p;
    }
}
