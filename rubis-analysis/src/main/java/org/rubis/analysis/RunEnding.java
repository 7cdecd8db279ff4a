package org.rubis.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import org.rubis.format.run.RunStatus;

/**
 * How a run ended, as its summary.json says (read once, typed): a report and a comparison say it beside the
 * figures, and a run that did not complete is not compared like for like.
 *
 * @param status     the summary's status, null when it has none this analysis knows (or no summary)
 * @param label      the word to show: the summary's status as written, {@code incomplete} without a summary
 *                   (killed, or unreadable), {@code unknown} for a summary without a status
 * @param partial    the run stopped early or measured nothing (every status but {@code complete})
 * @param stopReason why, in the client's words (or why the summary is missing)
 * @param incomplete there is no readable summary: the figures come from the logs alone
 */
public record RunEnding(RunStatus status, String label, boolean partial, String stopReason, boolean incomplete) {

    /** The label of a run without a readable summary. */
    static final String INCOMPLETE = "incomplete";

    /** @param summaryProblem why summary.json could not be read, or null when it is missing or was read */
    static RunEnding of(JsonNode summary, String summaryProblem) {
        if (summary == null) {
            return new RunEnding(
                    null,
                    INCOMPLETE,
                    true,
                    summaryProblem != null
                            ? summaryProblem
                            : "summary.json is missing: the run was killed before its end (or is still running);"
                                    + " figures come from the logs alone",
                    true);
        }
        String label = summary.path("status").asText("unknown");
        RunStatus status = RunStatus.parse(label);
        boolean partial = summary.path("partial").asBoolean(status != RunStatus.COMPLETE);
        return new RunEnding(status, label, partial, summary.path("stop_reason").asText(label), false);
    }
}
