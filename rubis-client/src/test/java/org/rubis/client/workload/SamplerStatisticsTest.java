package org.rubis.client.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rubis.client.TestFiles;

/**
 * Simulates a million transitions with the sampler and navigator, and compares the visit
 * frequency of each state with frequencies computed exactly from the matrix under the same
 * semantics (the original's cumulative walk, "stay" below 1, unreachable mass above 1, the back
 * stack, End of Session), by propagating the distribution over (state, back stack) step by step.
 */
class SamplerStatisticsTest {

    private static final int MAX = 1000; // workload_maximum_number_of_transitions
    private static final int TRANSITIONS = 1_000_000;

    private final TransitionTable table = TransitionTable.parse(TestFiles.shipped("default_transitions.txt"), 27, 29);

    /** Visit frequencies from simulation: sessions back to back, each from Home with an empty stack. */
    private double[] simulate(TransitionMode mode, long seed) {
        TransitionSampler sampler = new TransitionSampler(table, mode);
        SplittableRandom r = new SplittableRandom(seed);
        long[] visits = new long[27];
        long total = 0;
        while (total < TRANSITIONS) {
            Navigator nav = new Navigator(table, sampler);
            for (int req = 0; req < MAX && total < TRANSITIONS; req++) {
                visits[nav.state()]++;
                total++;
                nav.next(r.nextDouble());
                if (nav.ended()) {
                    break;
                }
            }
        }
        double[] f = new double[27];
        for (int i = 0; i < 27; i++) {
            f[i] = visits[i] / (double) total;
        }
        return f;
    }

    /** Effective probabilities of the cumulative walk: row i gets the part of [0,1) it covers. */
    private double[] effective(int from) {
        double[] p = new double[table.rows() + 1]; // last slot: stay
        double cum = 0;
        for (int to = 0; to < table.rows(); to++) {
            double lo = Math.min(cum, 1);
            cum += table.probability(to, from);
            p[to] = Math.min(cum, 1) - lo;
        }
        p[table.rows()] = Math.max(0, 1 - cum);
        return p;
    }

    /** Expected visits per state in one session, by exact propagation over (state, stack). */
    private double[] exactFrequencies() {
        int back = table.backRow();
        int end = table.endRow();
        double[][] eff = new double[27][];
        for (int s = 0; s < 27; s++) {
            eff[s] = effective(s);
        }
        Map<List<Integer>, Double> dist = new HashMap<>();
        dist.put(List.of(0), 1.0); // [state, stack...]
        double[] expected = new double[27];
        double pruned = 0;
        for (int step = 0; step < MAX && !dist.isEmpty(); step++) {
            Map<List<Integer>, Double> next = new HashMap<>();
            for (var e : dist.entrySet()) {
                List<Integer> cfg = e.getKey();
                double mass = e.getValue();
                int s = cfg.get(0);
                expected[s] += mass;
                if (step == MAX - 1) {
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
            for (var e : next.entrySet()) {
                if (e.getValue() < 1e-15) {
                    pruned += e.getValue();
                } else {
                    dist.put(e.getKey(), e.getValue());
                }
            }
        }
        assertTrue(pruned < 1e-6, "pruned mass " + pruned);
        double sum = 0;
        for (double v : expected) {
            sum += v;
        }
        for (int i = 0; i < 27; i++) {
            expected[i] /= sum;
        }
        return expected;
    }

    @Test
    void compatibleModeVisitsStatesAsTheMatrixPredicts() {
        double[] exact = exactFrequencies();
        double[] sim = simulate(TransitionMode.COMPATIBLE, 20260101);
        for (int i = 0; i < 27; i++) {
            // Binomial standard error over a million visits, times 2 for the correlation of
            // consecutive visits within a session (a variance inflation of up to 4), at 5 sigma.
            double tol = 5 * 2 * Math.sqrt(exact[i] * (1 - exact[i]) / TRANSITIONS) + 1e-6;
            assertEquals(
                    exact[i], sim[i], tol, table.stateNames().get(i) + ": exact " + exact[i] + " simulated " + sim[i]);
        }
    }

    @Test
    void theComparisonDetectsOtherSemantics() {
        // Normalize mode redistributes the missing/excess mass: the same check must fail for it,
        // otherwise the test above would prove nothing.
        double[] exact = exactFrequencies();
        double[] sim = simulate(TransitionMode.NORMALIZE, 20260101);
        double worst = 0;
        for (int i = 0; i < 27; i++) {
            double tol = 5 * 2 * Math.sqrt(exact[i] * (1 - exact[i]) / TRANSITIONS) + 1e-6;
            worst = Math.max(worst, Math.abs(exact[i] - sim[i]) / tol);
        }
        assertTrue(worst > 1, "normalize mode should differ from the compatible prediction; worst ratio " + worst);
    }
}
