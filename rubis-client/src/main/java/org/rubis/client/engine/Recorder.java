package org.rubis.client.engine;

import org.rubis.client.backend.Reply;
import org.rubis.client.log.RequestRecord;
import org.rubis.client.log.RunLog;
import org.rubis.client.log.SessionRecord;
import org.rubis.client.report.RunStats;
import org.rubis.client.workload.UserSession;
import org.rubis.format.ErrorClass;
import org.rubis.format.Phase;
import org.rubis.format.SessionEnd;

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

    /**
     * The error class of a reply the session has just processed (null when none): the backend's, else an HTTP error
     * status ({@link ErrorClass#HTTP_STATUS}, the status itself is the record's), else a RUBiS error page.
     */
    static ErrorClass errorOf(Reply reply, UserSession s) {
        ErrorClass backend = reply.error();
        return backend != null
                ? backend
                : reply.status >= 400 ? ErrorClass.HTTP_STATUS : s.lastReplyWasError() ? ErrorClass.ERROR_PAGE : null;
    }

    void request(UserSession s, int index, long intendedNano, long sendNano, Reply reply) {
        ErrorClass error = errorOf(reply, s);
        boolean image = error != null && reply.imageError();
        stats.countLive(error != null);
        watch.observe(error, image);
        log.add(new RequestRecord(
                s.id(),
                s.nickname(),
                index,
                s.pendingState(),
                s.lastPath(),
                clock.phase(sendNano),
                clock.epochNs(intendedNano),
                clock.epochNs(sendNano),
                reply.ttfbNs(),
                reply.responseNs(),
                reply.bytes,
                reply.status,
                error,
                image,
                reply.connectionId,
                reply.newConnection,
                backend,
                reply.images,
                reply.imageBytes,
                reply.retries(),
                clock.interval(sendNano)));
    }

    void session(UserSession s, int emulatedUser, long intendedStartNano, long startNano, long endNano) {
        stats.errorPageThinks(s.errorPageThinks());
        log.add(new SessionRecord(
                s.id(),
                emulatedUser,
                s.nickname(),
                clock.epochNs(intendedStartNano),
                clock.epochNs(startNano),
                clock.epochNs(endNano),
                s.requests(),
                s.errors(),
                s.endReason()));
    }

    /** A think time of {@code ns} starting at {@code fromNano} (the stationarity check's Z, the run phase's and its interval's). */
    void think(long fromNano, long ns) {
        if (clock.phase(fromNano) == Phase.RUN) {
            stats.runThink(ns);
            stats.intervalThink(clock.interval(fromNano), ns);
        }
    }

    void dropped(long sessionId, long intendedNano) {
        log.add(new SessionRecord(sessionId, -1, "", clock.epochNs(intendedNano), 0, 0, 0, 0, SessionEnd.DROPPED));
    }
}
