package org.rubis.client.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.rubis.client.log.RequestRecord;
import org.rubis.client.workload.Interaction;
import org.rubis.format.run.Phase;
import org.rubis.format.stats.Percentiles;

/**
 * The run phase's send lateness is clamped to its own largest value: clamped to the whole run's (an up ramp's late
 * send is larger), its p99 was the top of the bucket its largest value fell in, above anything the run phase had.
 */
class RunLatenessTest {

    private static RequestRecord sent(String phase, long latenessNs) {
        long intended = 1_000_000_000_000L;
        return new RequestRecord(
                1,
                "u",
                0,
                Interaction.HOME,
                "/PHP/index.html",
                Phase.parse(phase),
                intended,
                intended + latenessNs,
                1_000,
                2_000,
                100,
                200,
                null,
                false,
                "c1",
                false,
                "netty",
                0,
                0,
                0,
                -1,
                "",
                null);
    }

    @Test
    void runPhasePercentilesAreClampedToTheRunPhasesOwnMax() {
        RunStats stats = new RunStats();
        stats.accept(sent("up", 200_000_000L)); // larger than anything in the run phase
        for (int i = 0; i < 99; i++) {
            stats.accept(sent("run", 458_000L));
        }
        stats.accept(sent("run", 145_766_000L)); // its bucket tops out above it
        assertEquals(145_766_000L, stats.totals().runMaxLatenessNs());
        assertEquals(200_000_000L, stats.totals().maxLatenessNs());
        assertTrue(
                stats.totals().runLateness().getValueAtPercentile(100) > 145_766_000L,
                "the bucket's top is above the value (the case this guards)");
        assertEquals(
                145.766, stats.totals().judgedLatenessMs(100), 1e-9, "the verdict's reading: the run phase's own max");
        assertTrue(
                Percentiles.valueAtMs(
                                stats.totals().runLateness(),
                                100,
                                0,
                                stats.totals().maxLatenessNs())
                        > 145.766,
                "clamped to the whole run's max, the run phase's top percentile exceeded its largest value");
    }

    @Test
    void aRunWithoutARunPhaseIsJudgedOnTheWholeRun() {
        RunStats stats = new RunStats();
        stats.accept(sent("up", 7_000_000L));
        assertEquals(7.0, stats.totals().judgedLatenessMs(99), 1e-9);
    }
}
