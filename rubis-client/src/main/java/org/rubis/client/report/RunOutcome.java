package org.rubis.client.report;

import org.rubis.client.config.Arrivals;
import org.rubis.client.config.ClientConfig;
import org.rubis.format.run.RunStatus;
import org.rubis.format.run.StopCause;

/**
 * The rule that gives a run its status, in one place: a run whose target died, a run made invalid (out of memory,
 * an unreachable target, a failure of the client), a run in which no request succeeded, and a run stopped early
 * are told apart, in that order, from one that ran to its end and measured something. A run that ran to its end
 * with no request in its run phase measured nothing either ({@code --duration 1ms}, or a run phase shorter than
 * the think times): it failed, whatever its ramps sent; so did one whose run phase sent requests that were all
 * errors: the up ramp's successes are no measurement of the run phase. The stop reason is the engine's, or says why
 * nothing was measured.
 *
 * @param status     summary.json's {@code status}
 * @param stopReason summary.json's {@code stop_reason}: "complete", or why the run stopped or measured nothing
 */
record RunOutcome(RunStatus status, String stopReason) {

    /**
     * The outcome of a run that logged {@code requests} requests, {@code served} of them without an error, and
     * {@code runRequests} in its run phase (the measurement), {@code runServed} of those without an error.
     */
    static RunOutcome of(
            ClientConfig config, RunResult result, long requests, long served, long runRequests, long runServed) {
        return of(config, result, requests, served, runRequests, runServed, 0);
    }

    /**
     * As {@link #of(ClientConfig, RunResult, long, long, long, long)}; {@code aborted} of the requests were cut by a
     * stop. A run stopped (Ctrl-C, SIGTERM) while its only requests were in flight is {@code partial}, as any stop:
     * those requests were aborted by the stop, not refused by the target, so they say nothing of whether it serves.
     */
    static RunOutcome of(
            ClientConfig config,
            RunResult result,
            long requests,
            long served,
            long runRequests,
            long runServed,
            long aborted) {
        String stopReason = result.stopReason();
        boolean died = result.targetDied();
        // A run in which no request succeeded measured nothing, whatever else it says.
        // (Sessions that began but none of whose requests finished, e.g. all stuck in a request at the end, count too.)
        // So did one that ran to its end without sending any: no session began (a run shorter than the users' first
        // think
        // time, or arrivals too rare for its length).
        boolean nothingSent = requests == 0 && result.sessionsStarted() == 0 && result.complete();
        boolean stopped = result.stop() != null && result.stop().kind() == StopCause.Kind.INTERRUPTED;
        boolean onlyAborted = stopped && requests > 0 && aborted == requests;
        boolean failed =
                !died && !onlyAborted && served == 0 && (requests > 0 || result.sessionsStarted() > 0 || nothingSent);
        if (failed && nothingSent) {
            stopReason = nothingSent(config);
        } else if (failed) {
            stopReason = "no request succeeded ("
                    + (requests > 0
                            ? requests + " requests, all errors"
                            : "none finished; " + result.sessionsStarted() + " sessions began")
                    + ")"
                    + (stopReason == null || result.complete() ? "" : "; " + stopReason);
        }
        if (!died && !failed && !result.invalid() && result.complete() && runRequests == 0) {
            failed = true;
            stopReason = noRunPhaseRequest(config, requests);
        } else if (!died && !failed && !result.invalid() && result.complete() && runServed == 0) {
            failed = true;
            stopReason = "no request succeeded in the run phase, the measurement (" + runRequests + " of "
                    + runRequests + " run-phase requests were errors; the ramps' " + served
                    + " successes are no measurement)";
        }
        RunStatus status = died
                ? RunStatus.TARGET_DIED
                : result.invalid()
                        ? RunStatus.INVALID
                        : failed ? RunStatus.FAILED : result.complete() ? RunStatus.COMPLETE : RunStatus.PARTIAL;
        return new RunOutcome(status, stopReason == null ? StopCause.END.reason() : stopReason);
    }

    private static String nothingSent(ClientConfig config) {
        String who = config.arrivals() == Arrivals.CLOSED
                ? (config.users() == 1 ? "1 user, waiting" : config.users() + " users, each waiting")
                        + " a think time before its first session"
                : "no session arrived in time";
        return "no request was sent: no session began before the run's end (" + who
                + "): lengthen the run (--duration, --ramp-up), " + "or add users or arrivals";
    }

    private static String noRunPhaseRequest(ClientConfig config, long requests) {
        return "no request in the run phase, the measurement (" + requests + " requests in the ramps, none sent in the "
                + config.runMs() + " ms run phase): lengthen the run phase (--duration), or shorten the think times "
                + "(--think-scale)";
    }

    /** Whether summary.json says {@code partial}: every status but {@code complete}. */
    boolean partial() {
        return status != RunStatus.COMPLETE;
    }
}
