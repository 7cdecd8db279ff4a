package org.rubis.lab.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.rubis.client.report.SummaryFile;

/**
 * The capacity search names a full heap as the bottleneck when the GC held the client for much of
 * the run with the heap nearly full (figures from the idle-host reproduction's steps), and only then.
 */
class HeapFullTest {

    private static SummaryFile.Health health(long gcPauseMs, long peakMiB, long maxMiB, long elapsedMs) {
        return new SummaryFile.Health(
                2,
                8,
                0.8,
                1600,
                111.5,
                6009,
                peakMiB << 20,
                0.002,
                0.0007,
                1606,
                gcPauseMs,
                maxMiB << 20,
                elapsedMs,
                -1);
    }

    @Test
    void aThreadPerUserIn64MbAt6000UsersIsHeapBound() {
        // paper-default, thread per user, 6,000 users: 7,173 ms of pauses in a 15 s run, peak 58 of 61 MiB
        String s = CapacityCommand.heapFull(health(7173, 58, 61, 15_000));
        assertTrue(s.startsWith("heap full (GC paused 48 % of the run, peak heap 58 of 61 MiB)"), s);
    }

    @Test
    void aLargeHeapOrShortPausesAreNotTheLimit() {
        assertEquals("", CapacityCommand.heapFull(health(129, 236, 512, 15_000))); // paper-tuned at 6,000
        assertEquals("", CapacityCommand.heapFull(health(83, 45, 61, 15_000))); // event loop in 64 MB at 6,000
        assertEquals(
                "",
                CapacityCommand.heapFull(
                        health(7173, 30, 61, 15_000))); // long pauses with room left: not the heap's size
        assertEquals("", CapacityCommand.heapFull(health(7173, 58, 0, 0))); // unknown maximum: no claim
    }
}
