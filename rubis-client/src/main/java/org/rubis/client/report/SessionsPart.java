package org.rubis.client.report;

import static org.rubis.client.report.SummaryFormat.line;
import static org.rubis.client.report.SummaryFormat.round;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.rubis.format.run.SessionEnd;
import org.rubis.format.schema.ErrorPageBound;
import org.rubis.format.schema.SummaryJson;

/** The sessions (how they ended, the cap's delays and drops) and the connections the client opened. */
final class SessionsPart implements SummaryPart {

    private final RunResult result;
    private final RunTotals stats;
    /** workload_max_error_pages_without_think: ERROR pages in a row before a think time is added. */
    private final int errorPagesWithoutThink;

    SessionsPart(RunResult result, RunTotals stats, int errorPagesWithoutThink) {
        this.result = result;
        this.stats = stats;
        this.errorPagesWithoutThink = errorPagesWithoutThink;
    }

    @Override
    public void json(ObjectNode root) {
        root.put("sessions_started", result.sessionsStarted());
        root.put("sessions_completed", stats.sessionsEnded(SessionEnd::completed));
        root.put("sessions_aborted_at_end", stats.sessionsEnded(e -> e == SessionEnd.RUN_ENDED));
        root.put("sessions_stuck_at_end", stats.sessionsEnded(e -> e == SessionEnd.STUCK));
        // Every session that began has one line in sessions.csv: the end reasons sum to sessions_started.
        root.put("sessions_logged", stats.sessionsEnded(SessionEnd::began));
        root.put("sessions_delayed_by_cap", result.sessionsDelayed());
        root.put("sessions_dropped_by_cap", result.sessionsDropped());
        root.put("peak_active_sessions", result.peakActive());
        root.put("mean_session_s", round(stats.meanSessionSeconds(), 3));
        root.put("connections_opened", stats.newConnections());
        root.put("retried_requests", stats.retried());
        ObjectNode ep = root.putObject("error_page_bound");
        ep.put("pages_without_think", errorPagesWithoutThink);
        ep.put("think_times_added", stats.errorPageThinks());
        ep.put("sessions", stats.errorPageThinkSessions());
        root.put("distinct_connections", stats.distinctConnections());
        root.put("requests_without_connection_id", stats.requestsWithoutConnectionId());
        root.put("image_requests", stats.imageRequests());
    }

    @Override
    public void text(SummaryJson s, StringBuilder b) {
        long stuck = s.sessionsStuckAtEnd();
        long dropped = s.sessionsDroppedByCap();
        long delayed = s.sessionsDelayedByCap();
        line(
                b,
                "sessions",
                s.sessionsStarted() + " started, "
                        + s.sessionsCompleted() + " completed, "
                        + s.sessionsAbortedAtEnd() + " cut by the end of the run"
                        + (stuck > 0 ? ", " + stuck + " stuck in a request when the run stopped waiting" : "")
                        + "; mean session " + s.meanSessionS() + " s"
                        + (dropped > 0 ? "; " + dropped + " dropped by the cap" : "")
                        + (delayed > 0 ? "; " + delayed + " delayed by the cap" : ""));
        ErrorPageBound ep = s.errorPageBound();
        if (ep.thinkTimesAdded() > 0) {
            line(
                    b,
                    "ERROR pages",
                    ep.thinkTimesAdded() + " think times added in "
                            + ep.sessions() + " sessions, after "
                            + ep.pagesWithoutThink()
                            + " ERROR pages in a row sent users back to Home at once (workload_max_error_pages_without_think)");
        }
        long retried = s.retriedRequests();
        line(
                b,
                "connections (client)",
                s.connectionsOpened() + " opened, "
                        + s.distinctConnections() + " distinct"
                        + (retried > 0
                                ? "; " + retried + " requests resent on a new connection (no response on a reused one)"
                                : ""));
    }
}
