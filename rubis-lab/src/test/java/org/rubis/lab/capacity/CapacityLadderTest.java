package org.rubis.lab.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The capacity search's steps: where it stops, what it calls the largest sustained N, and the reason it gives. */
class CapacityLadderTest {

    private static final String LATE = "bottleneck: p99 lateness 8.3 ms";
    private static final String HEAP =
            "bottleneck: heap full (GC paused 46 % of the run, peak heap 59 of 61 MiB), p99 lateness 93.9 ms";

    @Test
    void byDefaultTheFirstBottleneckEndsTheSearch() {
        CapacityLadder l = new CapacityLadder(false);
        assertTrue(l.step(1000, "sustained", false));
        assertFalse(l.step(3000, LATE, false));
        assertEquals(1000, l.sustained());
        assertEquals("N=3000: " + LATE, l.stopReason());
    }

    @Test
    void untilHeapGoesOnPastLatenessToTheHeapsLimitAndKeepsTheLargestSustainedBeforeTheFirstBottleneck() {
        CapacityLadder l = new CapacityLadder(true);
        assertTrue(l.step(1000, "sustained", false));
        assertTrue(l.step(3000, LATE, false), "a lateness bottleneck does not end the search for the heap's limit");
        assertTrue(l.step(4000, "sustained", false));
        assertFalse(l.step(6000, HEAP, false), "a full heap ends it");
        assertEquals(1000, l.sustained(), "a step sustained after the first bottleneck does not count");
        assertEquals("N=3000: " + LATE + "; then N=6000: " + HEAP, l.stopReason());
        assertTrue(l.stopReason().contains("heap full"), "what the heap-capacity finding looks for");
    }

    @Test
    void untilHeapStopsAtAFailedStep() {
        CapacityLadder l = new CapacityLadder(true);
        assertTrue(l.step(1000, LATE, false));
        assertFalse(l.step(3000, "FAILED: out of memory", true));
        assertEquals(0, l.sustained());
        assertEquals("N=1000: " + LATE + "; then N=3000: FAILED: out of memory", l.stopReason());
    }

    @Test
    void allStepsSustained() {
        CapacityLadder l = new CapacityLadder(true);
        assertTrue(l.step(1000, "sustained", false));
        assertTrue(l.step(6000, "sustained", false));
        assertEquals(6000, l.sustained());
        assertEquals("all steps sustained", l.stopReason());
    }
}
