package org.rubis.client.engine;

import org.rubis.client.backend.ErrorClass;
import org.rubis.client.backend.Reply;
import org.rubis.client.log.RequestRecord;
import org.rubis.client.log.RunLog;
import org.rubis.client.log.SessionRecord;
import org.rubis.client.report.RunStats;
import org.rubis.client.workload.UserSession;

/**
 * Turns a finished request or session into log records, live counters and the unreachable-target
 * check; shared by the thread-per-user runner and the event-loop driver. Called after the reply
 * is complete, never between the send instant and the reply.
 */
final class Recorder {

    private final RunClock clock;
    private final RunLog log;
    private final RunStats stats;
    private final TargetWatch watch;
    private final String backend;

    Recorder(RunClock clock, RunLog log, RunStats stats, TargetWatch watch, String backend) {
        this.clock = clock;
        this.log = log;
        this.stats = stats;
        this.watch = watch;
        this.backend = backend;
    }

    /** The error class of a reply the session has just processed ("" when none). */
    static String errorOf(Reply reply, UserSession s) {
        return !reply.error.isEmpty() ? reply.error
                : reply.status >= 400 ? ErrorClass.http(reply.status)
                : s.lastReplyWasError() ? ErrorClass.ERROR_PAGE.label() : "";
    }

    void request(UserSession s, int index, long intendedNano, long sendNano, Reply reply) {
        String error = errorOf(reply, s);
        stats.countLive(!error.isEmpty());
        watch.observe(error);
        log.add(new RequestRecord(s.id(), s.nickname(), index, s.pendingState().label(), s.lastPath(), clock.phase(sendNano).label(),
                clock.epochNs(intendedNano), clock.epochNs(sendNano), reply.ttfbNs, reply.responseNs, reply.bytes, reply.status, error,
                reply.connectionId, reply.newConnection, backend, reply.images, reply.imageBytes, reply.retries));
    }

    void session(UserSession s, int emulatedUser, long intendedStartNano, long startNano, long endNano) {
        stats.errorPageThinks(s.errorPageThinks());
        log.add(new SessionRecord(s.id(), emulatedUser, s.nickname(), clock.epochNs(intendedStartNano), clock.epochNs(startNano),
                clock.epochNs(endNano), s.requests(), s.errors(), s.endReason().name().toLowerCase(java.util.Locale.ROOT)));
    }

    /** A think time of {@code ns} starting at {@code fromNano} (the stationarity check's Z). */
    void think(long fromNano, long ns) {
        if (clock.phase(fromNano) == org.rubis.format.Phase.RUN) {
            stats.runThink(ns);
        }
    }

    void dropped(long sessionId, long intendedNano) {
        log.add(new SessionRecord(sessionId, -1, "", clock.epochNs(intendedNano), 0, 0, 0, 0, "dropped"));
    }
}
