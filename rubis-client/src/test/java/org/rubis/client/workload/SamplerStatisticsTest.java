package org.rubis.client.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rubis.client.TestFiles;

/**
 * Simulates a million transitions with the sampler and navigator, and compares the visit
 * frequency of each state with frequencies computed exactly from the matrix under the same
 * semantics ({@link StationaryVisits}).
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

    @Test
    void compatibleModeVisitsStatesAsTheMatrixPredicts() {
        double[] exact = StationaryVisits.of(table, MAX);
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
        double[] exact = StationaryVisits.of(table, MAX);
        double[] sim = simulate(TransitionMode.NORMALIZE, 20260101);
        double worst = 0;
        for (int i = 0; i < 27; i++) {
            double tol = 5 * 2 * Math.sqrt(exact[i] * (1 - exact[i]) / TRANSITIONS) + 1e-6;
            worst = Math.max(worst, Math.abs(exact[i] - sim[i]) / tol);
        }
        assertTrue(worst > 1, "normalize mode should differ from the compatible prediction; worst ratio " + worst);
    }
}
