package org.rubis.client.engine;

import org.rubis.client.backend.Backend;
import org.rubis.client.backend.Reply;
import org.rubis.client.log.RequestRecord;
import org.rubis.client.log.RunLog;
import org.rubis.client.log.SessionRecord;
import org.rubis.client.report.RunStats;
import org.rubis.client.workload.UserSession;

/**
 * Runs one session on the calling thread: wait for the intended send instant, send, record,
 * choose the next state, think. The timing path is {@code nanoTime -> backend.execute}; records
 * are built after the reply is complete and handed to the log writer.
 */
final class SessionRunner {

    /** What the session left for the next one (closed mode): when the next session should start. */
    static final long ABORTED = Long.MIN_VALUE;

    private final RunClock clock;
    private final StopSignal stop;
    private final Backend backend;
    private final RunLog log;
    private final RunStats stats;
    private final TargetWatch watch;
    private final ActiveSessions active;

    SessionRunner(RunClock clock, StopSignal stop, Backend backend, RunLog log, RunStats stats, TargetWatch watch, ActiveSessions active) {
        this.clock = clock;
        this.stop = stop;
        this.backend = backend;
        this.log = log;
        this.stats = stats;
        this.watch = watch;
        this.active = active;
    }

    /** Logs a hybrid session that the concurrency cap dropped. */
    void logDropped(long sessionId, long intendedNano) {
        log.add(RunEngine.dropped(sessionId, clock.epochNs(intendedNano)));
    }

    /**
     * Runs {@code s}, first request at {@code intendedStartNano}. Returns the intended start of
     * the user's next session (after the final think time), or {@link #ABORTED} when the run ended.
     */
    long run(UserSession s, int emulatedUser, long intendedStartNano, Reply reply) {
        if (!stop.awaitUntil(intendedStartNano, clock.endNano())) {
            return ABORTED;
        }
        long startNano = System.nanoTime();
        active.increment();
        Backend.Session bs = backend.startSession();
        long intended = intendedStartNano;
        long lastDone = startNano;
        boolean aborted = false;
        try {
            String path = s.nextPath();
            int index = 0;
            while (true) {
                if (index > 0 && !stop.awaitUntil(intended, clock.endNano())) {
                    aborted = true;
                    break;
                }
                long send = System.nanoTime();
                backend.execute(bs, path, send, reply);
                long done = send + reply.responseNs;
                lastDone = done;
                UserSession.Next next = s.onReply(reply.body, reply.failed());
                String error = !reply.error.isEmpty() ? reply.error
                        : s.lastReplyWasError() ? "error-page"
                        : reply.status >= 400 ? "http-" + reply.status : "";
                stats.countLive(!error.isEmpty());
                watch.observe(error);
                log.add(new RequestRecord(s.id(), s.nickname(), index, s.pendingState().label(), path, clock.phase(send),
                        clock.epochNs(intended), clock.epochNs(send), reply.ttfbNs, reply.responseNs, reply.bytes, reply.status, error,
                        reply.connectionId, reply.newConnection, backend.name(), reply.images, reply.imageBytes));
                index++;
                if (next == UserSession.Next.END) {
                    break;
                }
                intended = done + clock.scaleThink(s.thinkNanos(), done);
                path = s.nextPath();
            }
        } finally {
            backend.endSession(bs);
            active.decrement();
        }
        if (aborted) {
            s.abort();
        }
        log.add(new SessionRecord(s.id(), emulatedUser, s.nickname(), clock.epochNs(intendedStartNano), clock.epochNs(startNano),
                clock.epochNs(lastDone), s.requests(), s.errors(), s.endReason().name().toLowerCase(java.util.Locale.ROOT)));
        return aborted ? ABORTED : lastDone + clock.scaleThink(s.thinkNanos(), lastDone);
    }
}
