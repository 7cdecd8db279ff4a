package org.rubis.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import org.rubis.format.run.Phase;

/**
 * The run (measured) phase as actually run: its length, where that comes from, and its epoch bounds. Every rate
 * of a report divides by {@link #seconds}: a stopped run's phase is shorter than planned.
 *
 * @param seconds the run phase's length as run
 * @param source  where {@code seconds} comes from, in words
 * @param startNs its start, epoch ns (0 when unknown)
 * @param endNs   its end, epoch ns (0 when unknown)
 */
public record RunWindow(double seconds, String source, long startNs, long endNs) {

    /**
     * summary.json's run_seconds (a stopped run's is shorter than planned), the planned length from an older summary of
     * a
     * complete run, else the span of the run-phase requests in the logs.
     *
     * @param runRequests the run-phase requests in the log
     * @param firstSend   the first run-phase request's send instant (epoch ns), {@code Long.MAX_VALUE} when none
     * @param lastSend    the last one's, {@code Long.MIN_VALUE} when none
     */
    static RunWindow of(JsonNode summary, long runRequests, long firstSend, long lastSend) {
        boolean fromLogs = firstSend <= lastSend;
        double seconds;
        String source;
        if (summary != null && summary.has("run_seconds")) {
            seconds = summary.path("run_seconds").asDouble();
            source = "summary.json run_seconds (the run phase as run)";
        } else if (summary != null
                && summary.has("phases_ms")
                && !summary.path("partial").asBoolean(false)) {
            seconds = summary.path("phases_ms").path(Phase.RUN.label()).asDouble() / 1000;
            source = "summary.json phases_ms.run (planned; the run was complete)";
        } else if (fromLogs) {
            // n sends span n - 1 gaps: the span alone would put one request too many in it (a rate too high by n / (n -
            // 1))
            seconds = (lastSend - firstSend) / 1e9 * (runRequests > 1 ? (double) runRequests / (runRequests - 1) : 1);
            source = "the logs: first to last run-phase request sent, times n / (n - 1) for the gap after the last";
        } else {
            seconds = 0;
            source = "no run-phase request";
        }
        JsonNode clock = summary == null ? null : summary.path("clock");
        long start = clock != null && clock.path("run_start_epoch_ns").asLong(0) > 0
                ? clock.path("run_start_epoch_ns").asLong()
                : fromLogs ? firstSend : 0;
        return new RunWindow(seconds, source, start, start == 0 ? 0 : start + (long) (seconds * 1e9));
    }
}
