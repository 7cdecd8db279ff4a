package org.rubis.client.engine;

import org.rubis.client.backend.Reply;
import org.rubis.client.config.ShardPlan;
import org.rubis.client.log.KernelMarks;
import org.rubis.client.log.RequestRecord;
import org.rubis.client.log.RunLog;
import org.rubis.client.log.SessionRecord;
import org.rubis.client.report.RunStats;
import org.rubis.client.workload.UserSession;
import org.rubis.format.run.ErrorClass;
import org.rubis.format.run.Phase;
import org.rubis.format.run.SessionEnd;

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
    private final ShardPlan shard;

    Recorder(RunClock clock, RunLog log, RunStats stats, TargetWatch watch, String backend, ShardPlan shard) {
        this.clock = clock;
        this.log = log;
        this.stats = stats;
        this.watch = watch;
        this.backend = backend;
        this.shard = shard;
    }

    /**
     * requests.csv's {@code connection_id} of the backend's connection serial (0: none, ""): the serial itself, or
     * in shard i of N the serial's place among every shard's, {@code (serial - 1) * N + i + 1}, so that the shards'
     * ids stay apart when their logs are merged.
     */
    String connectionId(long serial) {
        if (serial == 0) {
            return "";
        }
        return Long.toString(shard.count() <= 1 ? serial : (serial - 1) * shard.count() + shard.index() + 1);
    }

    /**
     * The error class of a reply the session has just processed (null when none): the backend's, else an HTTP error
     * status ({@link ErrorClass#HTTP_STATUS}, the status itself is the record's), else a RUBiS error page
     * that reports the target's stored state ({@link ErrorClass#TARGET_STATE}), else any other RUBiS error page.
     */
    static ErrorClass errorOf(Reply reply, UserSession s) {
        ErrorClass backend = reply.error();
        return backend != null
                ? backend
                : reply.status >= 400
                        ? ErrorClass.HTTP_STATUS
                        : s.lastReplyWasTargetState()
                                ? ErrorClass.TARGET_STATE
                                : s.lastReplyWasError() ? ErrorClass.ERROR_PAGE : null;
    }

    void request(UserSession s, int index, long intendedNano, long sendNano, Reply reply) {
        ErrorClass error = errorOf(reply, s);
        boolean image = error != null && reply.imageError();
        stats.users().countLive(error != null);
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
                connectionId(reply.connection),
                reply.newConnection,
                backend,
                reply.images,
                reply.imageBytes,
                reply.retries(),
                clock.interval(sendNano),
                reply.localAddress,
                kernelMarks(reply)));
    }

    /** The kernel backend's marks of {@code reply} on the run's clock, or null for a reply that has none. */
    private KernelMarks kernelMarks(Reply reply) {
        if (reply.rxLastNano() == 0 && reply.txFirstNano() == 0 && !reply.kernelPublished()) {
            return null;
        }
        return new KernelMarks(
                reply.kernelPublished(),
                clock.epochNs(reply.userSendNano()),
                reply.userTtfbNs(),
                reply.userResponseNs(),
                epochOrZero(reply.txFirstNano()),
                epochOrZero(reply.txLastNano()),
                epochOrZero(reply.rxFirstNano()),
                epochOrZero(reply.rxLastNano()));
    }

    private long epochOrZero(long nano) {
        return nano == 0 ? 0 : clock.epochNs(nano);
    }

    void session(UserSession s, int emulatedUser, long intendedStartNano, long startNano, long endNano) {
        stats.users().errorPageThinks(s.errorPageThinks());
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
            stats.users().runThink(clock.interval(fromNano), ns);
        }
    }

    /**
     * A think time starting at {@code fromNano} that the user's departure cut after {@code elapsedNs}: right-censored,
     * its elapsed part counts in the thinking time but not as a think time that ended (the maximum-likelihood mean of
     * exponential think times, as the log estimate has it).
     */
    void cutThink(long fromNano, long elapsedNs) {
        if (clock.phase(fromNano) == Phase.RUN) {
            stats.users().runThinkCut(clock.interval(fromNano), elapsedNs);
        }
    }

    void dropped(long sessionId, long intendedNano) {
        log.add(new SessionRecord(sessionId, -1, "", clock.epochNs(intendedNano), 0, 0, 0, 0, SessionEnd.DROPPED));
    }
}
