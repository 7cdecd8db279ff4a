package org.rubis.client.report;

import static org.rubis.client.report.SummaryFormat.line;
import static org.rubis.client.report.SummaryFormat.round;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.rubis.format.SessionEnd;

/** The sessions (how they ended, the cap's delays and drops) and the connections the client opened. */
final class SessionsPart implements SummaryPart {

    private final RunResult result;
    private final RunStats stats;
    /** workload_max_error_pages_without_think: ERROR pages in a row before a think time is added. */
    private final int errorPagesWithoutThink;

    SessionsPart(RunResult result, RunStats stats, int errorPagesWithoutThink) {
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
    public void text(JsonNode root, StringBuilder b) {
        long stuck = root.get("sessions_stuck_at_end").asLong();
        long dropped = root.get("sessions_dropped_by_cap").asLong();
        long delayed = root.get("sessions_delayed_by_cap").asLong();
        line(
                b,
                "sessions",
                root.get("sessions_started").asLong() + " started, "
                        + root.get("sessions_completed").asLong() + " completed, "
                        + root.get("sessions_aborted_at_end").asLong() + " cut by the end of the run"
                        + (stuck > 0 ? ", " + stuck + " stuck in a request when the run stopped waiting" : "")
                        + "; mean session " + root.get("mean_session_s").asDouble() + " s"
                        + (dropped > 0 ? "; " + dropped + " dropped by the cap" : "")
                        + (delayed > 0 ? "; " + delayed + " delayed by the cap" : ""));
        JsonNode ep = root.get("error_page_bound");
        if (ep.get("think_times_added").asLong() > 0) {
            line(
                    b,
                    "ERROR pages",
                    ep.get("think_times_added").asLong() + " think times added in "
                            + ep.get("sessions").asLong() + " sessions, after "
                            + ep.get("pages_without_think").asInt()
                            + " ERROR pages in a row sent users back to Home at once (workload_max_error_pages_without_think)");
        }
        long retried = root.path("retried_requests").asLong();
        line(
                b,
                "connections (client)",
                root.get("connections_opened").asLong() + " opened, "
                        + root.get("distinct_connections").asLong() + " distinct"
                        + (retried > 0
                                ? "; " + retried + " requests resent on a new connection (no response on a reused one)"
                                : ""));
    }
}
