package org.rubis.lab.reproduce;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Principle B's verdict judges the CoV where the paper's did: from about 50 users on, not below. */
class PrinciplesABVerdictTest {

    @Test
    void aBurstyStreamOfFewUsersDoesNotCount() {
        // the idle-host run's open arrivals: 1.82 at N=5 (few live sessions), near 1 from N=25 on
        assertTrue(PrinciplesAB.nearOneFrom(
                List.of(new double[] {5, 1.82}, new double[] {25, 1.13}, new double[] {100, 1.04}, new double[] {
                    200, 0.98
                }),
                PrinciplesAB.SETTLED_FROM));
    }

    @Test
    void anyUnsettledPointFromFiftyOnFails() {
        assertFalse(PrinciplesAB.nearOneFrom(
                List.of(new double[] {5, 1.0}, new double[] {100, 1.37}, new double[] {200, 1.2}),
                PrinciplesAB.SETTLED_FROM));
        assertFalse(PrinciplesAB.nearOneFrom(List.of(new double[] {50, 0.6}), PrinciplesAB.SETTLED_FROM));
    }

    @Test
    void noPointFromFiftyOnIsNotAVerdict() {
        assertFalse(PrinciplesAB.nearOneFrom(
                List.of(new double[] {5, 1.0}, new double[] {25, 1.0}), PrinciplesAB.SETTLED_FROM));
    }
}
