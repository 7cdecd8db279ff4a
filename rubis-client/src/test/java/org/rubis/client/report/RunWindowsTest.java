package org.rubis.client.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.rubis.client.log.RequestRecord;
import org.rubis.client.workload.Interaction;
import org.rubis.format.run.Phase;
import org.rubis.format.stats.Stationarity;

/** The run phase's per-window request counts that the stationarity check reads. */
class RunWindowsTest {

    private static final long S = 1_000_000_000L;

    private static RequestRecord sent(long sendEpochNs, String phase) {
        return new RequestRecord(
                1,
                "user1",
                0,
                Interaction.HOME,
                "/PHP/index.html",
                Phase.parse(phase),
                sendEpochNs,
                sendEpochNs,
                1,
                2,
                3,
                200,
                null,
                false,
                "127.0.0.1:1",
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
    void requestsAreCountedInTheSecondOfTheRunPhaseTheyWereSentIn() {
        RunStats st = new RunStats();
        long start = 1_000 * S;
        st.runPhase(start, 4.5); // four whole windows; the last half second is not counted
        for (long at :
                new long[] {start, start + S / 2, start + 2 * S, start + 3 * S + 1, start + 4 * S + 1, start + 5 * S}) {
            st.accept(sent(at, "run"));
        }
        st.accept(sent(start + S, "up")); // another phase: not the run phase's
        assertEquals(1.0, st.totals().runWindowSeconds());
        assertArrayEquals(new long[] {2, 0, 1, 1}, st.totals().runWindows());
    }

    @Test
    void aRunPhaseOfDaysGetsLongerWindowsNotMillionsOfThem() {
        RunStats st = new RunStats();
        st.runPhase(0, 7 * 86_400);
        assertEquals(
                61.0, st.totals().runWindowSeconds(), "whole seconds, at most " + RunTotals.MAX_WINDOWS + " windows");
        assertEquals(9_914, st.totals().runWindows().length);
        st.accept(sent(125 * S, "run"));
        assertEquals(1, st.totals().runWindows()[2], "second 125 is in the third 61 s window");
        st.runPhase(0, 40);
        assertTrue(
                st.totals().runWindows().length == 40 && st.totals().runWindowSeconds() == 1.0,
                "the default run phase: 40 windows of 1 s");
    }

    @Test
    void aRunStoppedEarlyIsJudgedOnTheWindowsItRan() {
        // Ctrl-C 6.554 s into a 30 s run phase: the 24 planned windows after the stop are not empty seconds of the run.
        RunStats st = new RunStats();
        long start = 1_000 * S;
        st.runPhase(start, 30);
        for (int i = 0; i < 7; i++) {
            for (int k = 0; k < 30; k++) {
                st.accept(sent(start + i * S + k * (S / 40), "run"));
            }
        }
        assertEquals(30, st.totals().runWindows().length);
        long[] ran = st.totals().runWindows(6.554);
        assertArrayEquals(
                new long[] {30, 30, 30, 30, 30, 30}, ran, "the six whole seconds run, not the partial seventh");
        assertEquals(30, st.totals().runWindows(30).length, "a complete run: every window");
        assertEquals(30, st.totals().runWindows(99).length, "never past the planned phase");
        assertEquals(0, st.totals().runWindows(0.4).length);
        Stationarity s = Stationarity.of(100, ran, 1, 0.01, 100 / 30.0 - 0.01);
        assertEquals(30.0, s.meanRps(), 1e-9, "throughput over the time run, not diluted by the planned rest");
        assertEquals(1.0, s.littleRatio(), 1e-9);
        assertEquals(
                Stationarity.Judgement.NOT_JUDGED, s.judgement(), "six seconds are too few to judge: " + s.describe());
    }
}
