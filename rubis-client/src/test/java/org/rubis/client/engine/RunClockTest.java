package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rubis.client.config.ConfigLoader;
import org.rubis.client.config.Limits;

/** Think times across phase boundaries in both ramp modes (10 s up ramp x2, 40 s run, 10 s down ramp x3). */
class RunClockTest {

    private static final long S = 1_000_000_000L;

    private static RunClock clock(String mode) {
        return new RunClock(ConfigLoader.load(
                (Path) null,
                Map.of(
                        "workload_up_ramp_time_in_ms",
                        "10000",
                        "workload_up_ramp_slowdown_factor",
                        "2",
                        "workload_session_run_time_in_ms",
                        "40000",
                        "workload_down_ramp_time_in_ms",
                        "10000",
                        "workload_down_ramp_slowdown_factor",
                        "3",
                        "workload_ramp_mode",
                        mode)));
    }

    @Test
    void stationaryRampsSlowTheThinkClockOnlyWhileTheyLast() {
        RunClock c = clock("stationary");
        long t0 = c.startNano();
        assertEquals(t0 + 4 * S, c.thinkEnd(2 * S, t0), "inside the up ramp: x2");
        // 8 s into the ramp, 7 s think: 2 s of ramp use 1 s of it, the other 6 s run at full speed.
        assertEquals(t0 + 16 * S, c.thinkEnd(7 * S, t0 + 8 * S));
        assertEquals(t0 + 17 * S, c.thinkEnd(7 * S, t0 + 10 * S), "in the run phase: x1");
        // 48 s: 2 s of run left, the remaining 5 s at x3 in the down ramp.
        assertEquals(t0 + 65 * S, c.thinkEnd(7 * S, t0 + 48 * S));
        // A 30 s think started at 0 (60 s in the original): 5 s of it pass in the ramp, 25 s in the run phase.
        assertEquals(c.upEndNano() + 25 * S, c.thinkEnd(30 * S, t0));
        // A 70 s think: 5 s in the ramp, 40 s in the run phase, the last 25 s at x3.
        assertEquals(c.runEndNano() + 75 * S, c.thinkEnd(70 * S, t0));
    }

    @Test
    void originalModeKeepsTheFactorOfThePhaseTheThinkStartsIn() {
        RunClock c = clock("original");
        long t0 = c.startNano();
        assertEquals(t0 + 8 * S + 14 * S, c.thinkEnd(7 * S, t0 + 8 * S));
        assertEquals(t0 + 140 * S, c.thinkEnd(70 * S, t0), "the issue's 140 s first wait");
        assertEquals(t0 + 48 * S + 7 * S, c.thinkEnd(7 * S, t0 + 48 * S));
    }

    /** At the largest think scale the configuration accepts, the longest think time ends 30 days later, never before it started. */
    @Test
    void theLargestAcceptedScaleDoesNotWrap() {
        String most = String.valueOf(Limits.MAX_DURATION_MS / 70_000.0 * 0.9999999);
        for (String mode : new String[] {"stationary", "original"}) {
            RunClock c = new RunClock(ConfigLoader.load(
                    (Path) null,
                    Map.of(
                            "workload_up_ramp_time_in_ms",
                            "10000",
                            "workload_session_run_time_in_ms",
                            "40000",
                            "workload_ramp_mode",
                            mode,
                            "workload_think_scale",
                            most,
                            "workload_up_ramp_slowdown_factor",
                            "1",
                            "workload_down_ramp_slowdown_factor",
                            "1")));
            long from = c.startNano() + S;
            long end = c.thinkEnd(70 * S, from);
            assertTrue(end > from && end - from <= Limits.MAX_DURATION_MS * 1_000_000L, mode + ": " + (end - from));
        }
    }
}
