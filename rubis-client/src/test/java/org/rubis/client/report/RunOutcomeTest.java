package org.rubis.client.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ConfigLoader;
import org.rubis.client.config.ExecutionModel;
import org.rubis.client.config.ShardPlan;
import org.rubis.format.run.RunStatus;
import org.rubis.format.run.StopCause;
import org.rubis.format.run.StopCause.Kind;

/** The status rule, case by case: the stop's kind and the counts decide, never the stop reason's words. */
class RunOutcomeTest {

    private static final ClientConfig CONFIG =
            ConfigLoader.load((Path) null, Map.of("workload_number_of_clients_per_node", "4"));

    private static RunResult result(StopCause stop, boolean invalid, long sessionsStarted) {
        return new RunResult(
                Path.of("run"),
                "netty",
                ExecutionModel.EVENT_LOOPS,
                stop,
                invalid,
                "4 users",
                sessionsStarted,
                0,
                0,
                4,
                4,
                0,
                0,
                0,
                1.0,
                ShardPlan.SINGLE,
                0,
                0,
                0,
                List.of(),
                new long[0]);
    }

    private static RunOutcome outcome(StopCause stop, long requests, long served, long sessions) {
        return RunOutcome.of(
                CONFIG,
                result(stop, stop != null && stop.kind().invalidates(), sessions),
                requests,
                served,
                requests,
                served);
    }

    @Test
    void aRunThatEndedAndServedRequestsIsComplete() {
        RunOutcome o = outcome(StopCause.END, 100, 99, 10);
        assertEquals(RunStatus.COMPLETE, o.status());
        assertEquals("complete", o.stopReason());
        assertTrue(!o.partial());
    }

    @Test
    void aRunStoppedEarlyIsPartialWithItsReason() {
        RunOutcome o = outcome(new StopCause(Kind.INTERRUPTED, "interrupted (SIGINT/SIGTERM)"), 100, 99, 10);
        assertEquals(RunStatus.PARTIAL, o.status());
        assertEquals("interrupted (SIGINT/SIGTERM)", o.stopReason());
    }

    /** The kind decides: words that merely begin like a dead target's are not one. */
    @Test
    void aDeadTargetIsToldByItsKindNotItsWords() {
        assertEquals(
                RunStatus.TARGET_DIED,
                outcome(new StopCause(Kind.TARGET_DIED, "it stopped answering"), 100, 0, 10)
                        .status());
        assertEquals(
                RunStatus.INVALID,
                outcome(new StopCause(Kind.CLIENT_FAILED, "target died: a user's own words"), 100, 50, 10)
                        .status());
    }

    @Test
    void anInvalidRunIsInvalidEvenWhenNothingSucceeded() {
        RunOutcome o = outcome(new StopCause(Kind.TARGET_UNREACHABLE, "target unreachable"), 10, 0, 10);
        assertEquals(RunStatus.INVALID, o.status());
        assertEquals("no request succeeded (10 requests, all errors); target unreachable", o.stopReason());
    }

    @Test
    void aRunInWhichNoRequestSucceededFailed() {
        RunOutcome o = outcome(StopCause.END, 50, 0, 10);
        assertEquals(RunStatus.FAILED, o.status());
        assertEquals("no request succeeded (50 requests, all errors)", o.stopReason());
        RunOutcome stuck = outcome(StopCause.END, 0, 0, 3);
        assertEquals(RunStatus.FAILED, stuck.status());
        assertEquals("no request succeeded (none finished; 3 sessions began)", stuck.stopReason());
    }

    @Test
    void aRunThatSentNothingFailedAndSaysWhy() {
        RunOutcome o = outcome(StopCause.END, 0, 0, 0);
        assertEquals(RunStatus.FAILED, o.status());
        assertTrue(
                o.stopReason()
                        .startsWith(
                                "no request was sent: no session began before the run's end (4 users, each waiting"),
                o.stopReason());
        // stopped before anything was sent (Ctrl-C while waiting for the start instant): partial, not failed
        assertEquals(
                RunStatus.PARTIAL,
                outcome(new StopCause(Kind.INTERRUPTED, "interrupted"), 0, 0, 0).status());
    }

    /** A run that ended, then failed to finish in a way that invalidates it, is invalid, its reason saying both. */
    @Test
    void aLaterInvalidatingStopMakesACompleteRunInvalid() {
        RunOutcome o = RunOutcome.of(
                CONFIG, result(new StopCause(Kind.END, "complete; then out of memory"), true, 10), 100, 100, 100, 100);
        assertEquals(RunStatus.INVALID, o.status());
        assertEquals("complete; then out of memory", o.stopReason());
    }

    /**
     * {@code --duration 1ms}: the ramps sent requests, the run phase none; the measurement is empty, so the run failed
     * (it once said complete, exit 0). A run stopped early with none stays partial: the stop is what the user did.
     */
    @Test
    void aRunWithNoRunPhaseRequestFailed() {
        RunOutcome o = RunOutcome.of(CONFIG, result(StopCause.END, false, 4), 12, 12, 0, 0);
        assertEquals(RunStatus.FAILED, o.status());
        assertTrue(
                o.stopReason().startsWith("no request in the run phase, the measurement (12 requests in the ramps"),
                o.stopReason());
        assertEquals(
                RunStatus.PARTIAL,
                RunOutcome.of(CONFIG, result(new StopCause(Kind.INTERRUPTED, "interrupted"), false, 4), 12, 12, 0, 0)
                        .status());
        assertEquals(
                RunStatus.COMPLETE,
                RunOutcome.of(CONFIG, result(StopCause.END, false, 4), 12, 12, 1, 1)
                        .status());
    }

    /**
     * The up ramp served requests, then the target answered only errors: every run-phase request failed, so the run
     * measured nothing (it once said complete, exit 0, because the ramp's successes counted). Stopped early, the same
     * run stays partial: the stop is what the user did.
     */
    @Test
    void aRunPhaseOfNothingButErrorsFailed() {
        RunOutcome o = RunOutcome.of(CONFIG, result(StopCause.END, false, 10), 80, 27, 53, 0);
        assertEquals(RunStatus.FAILED, o.status());
        assertEquals(
                "no request succeeded in the run phase, the measurement (53 of 53 run-phase requests were errors; "
                        + "the ramps' 27 successes are no measurement)",
                o.stopReason());
        assertEquals(
                RunStatus.PARTIAL,
                RunOutcome.of(CONFIG, result(new StopCause(Kind.INTERRUPTED, "interrupted"), false, 10), 80, 27, 53, 0)
                        .status());
        assertEquals(
                RunStatus.COMPLETE,
                RunOutcome.of(CONFIG, result(StopCause.END, false, 10), 80, 28, 53, 1)
                        .status());
    }

    /**
     * Ctrl-C 1.5 s into a 3 s up ramp: the only requests were in flight, aborted by the stop. The run is partial, as
     * any stop (it once said failed, exit 2, "no request succeeded"); aborted requests among refused ones still fail.
     */
    @Test
    void aStopWhoseOnlyRequestsWereAbortedIsPartial() {
        StopCause ctrlC = new StopCause(Kind.INTERRUPTED, "interrupted");
        RunOutcome o = RunOutcome.of(CONFIG, result(ctrlC, false, 4), 4, 0, 0, 0, 4);
        assertEquals(RunStatus.PARTIAL, o.status());
        assertEquals("interrupted", o.stopReason());
        assertEquals(
                RunStatus.FAILED,
                RunOutcome.of(CONFIG, result(ctrlC, false, 4), 10, 0, 0, 0, 4).status(),
                "6 refused, 4 aborted: nothing succeeded before the stop");
        assertEquals(
                RunStatus.FAILED,
                RunOutcome.of(CONFIG, result(StopCause.END, false, 4), 4, 0, 4, 0, 4)
                        .status(),
                "an end, not a stop: the aborted requests count as errors");
    }
}
