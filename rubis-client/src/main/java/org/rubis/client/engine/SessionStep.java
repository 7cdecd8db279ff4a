package org.rubis.client.engine;

import org.rubis.client.backend.Reply;
import org.rubis.client.workload.UserSession;
import org.rubis.format.run.SessionEnd;

/**
 * The session loop's logic, once for every execution model: when the next request is meant to be
 * sent, which path it asks for, what a reply does (record it, choose the next state, think), and
 * how the session ends. It holds no thread and does no waiting: a platform thread per user drives it
 * synchronously ({@link ThreadSessions}), a virtual thread per request between timer-driven think
 * times ({@link VirtualThreadSessions}), the event loops from timers and reply callbacks
 * ({@link EventLoopSessions}). Records are built after the reply is complete, never between the
 * backend's send mark and the last byte.
 */
final class SessionStep {

    /** Returned by {@link #end} when the run ended during the session (or before it started). */
    static final long ABORTED = Long.MIN_VALUE;

    /** A closed-mode user that a load profile may take out of the run (docs/WORKLOAD.md, Load profiles). */
    interface Leaving {
        /**
         * After a reply that ended at {@code doneNano}, the next request meant for {@code nextNano}: the instant the user
         * leaves during this think time, cutting its session there (past the leave policy's deadline), or -1 when it
         * stays.
         */
        long leavesDuring(long doneNano, long nextNano);

        /**
         * The session's last reply ended at {@code doneNano}, the user's next session is meant for {@code nextNano}:
         * the instant it leaves during that think time (the profile lets it go), or -1 when it stays.
         */
        long departsBetweenSessions(long doneNano, long nextNano);

        /** The session ended; its last reply ended at {@code lastDoneNano}. */
        void sessionEnded(long lastDoneNano);
    }

    private final SessionContext ctx;
    private final UserSession s;
    private final int emulatedUser;
    private final long intendedStart;
    /** The user's place in a load profile's population, or null. */
    private final Leaving leaving;

    private long intended;
    private long startNano;
    private long lastDone;
    private int index;
    private boolean started;
    /** Logged (ended, given up or abandoned): guards the one sessions.csv line against a late reply. */
    private boolean closed;

    private String path;

    SessionStep(SessionContext ctx, UserSession s, int emulatedUser, long intendedStartNano) {
        this(ctx, s, emulatedUser, intendedStartNano, null);
    }

    SessionStep(SessionContext ctx, UserSession s, int emulatedUser, long intendedStartNano, Leaving leaving) {
        this.ctx = ctx;
        this.leaving = leaving;
        this.s = s;
        this.emulatedUser = emulatedUser;
        this.intendedStart = intendedStartNano;
        this.intended = intendedStartNano;
    }

    /** The intended send instant of the next request. */
    long intended() {
        return intended;
    }

    boolean started() {
        return started;
    }

    /** The end of the last reply (a past instant once a reply has come). */
    long lastDone() {
        return lastDone;
    }

    /** At the first request's instant: the session is now active; its first path is chosen. */
    void begin() {
        started = true;
        startNano = System.nanoTime();
        lastDone = startNano;
        ctx.active().increment(this);
        path = s.nextPath();
    }

    /** The path of the next request (chosen before the wait, so the send follows the wake-up at once). */
    String path() {
        return path;
    }

    /**
     * A reply is complete: the session takes its next state, the request is recorded, and when
     * the session goes on, the next request's path and intended instant (done + think) are set.
     * Returns false when the session has ended (or the run gave up on it: the late reply is not logged).
     */
    synchronized boolean replied(Reply reply) {
        if (closed) {
            return false;
        }
        long send = reply.sendNano();
        long done = reply.endNano();
        lastDone = done;
        UserSession.Next next = s.onReply(reply.body, reply.failed());
        ctx.recorder().request(s, index++, intended, send, reply);
        reply.body = null; // decoded: a thinking user keeps no copy of its last page (about 1 KB each at 18,000 users)
        if (next == UserSession.Next.END) {
            return false;
        }
        long think = s.thinkNanos();
        long nextSend = ctx.clock().thinkEnd(think, done);
        long leaves = leaving == null ? -1 : leaving.leavesDuring(done, nextSend);
        if (leaves >= 0) {
            ctx.recorder().cutThink(done, leaves - done); // thinking until it left: Z's censored part
            s.left();
            return false;
        }
        intended = nextSend;
        ctx.recorder().think(done, ctx.clock().runPhaseThink(think, done));
        path = s.nextPath();
        return true;
    }

    /**
     * Ends a started session: records it and returns the intended start of the user's next session
     * (after the final think time), or {@link #ABORTED} when the run ended during it. A session that ran to its own
     * end ended with its last reply; one the run cut was active (in a think time) until now, the cut, as the
     * client's count of active sessions has it.
     */
    synchronized long end(boolean aborted) {
        if (!started || closed) {
            return ABORTED;
        }
        closed = true;
        long cut = System.nanoTime();
        ctx.active().decrement(this);
        if (aborted) {
            s.abort();
        }
        long end = aborted ? Math.max(cut, lastDone) : lastDone;
        ctx.recorder().session(s, emulatedUser, intendedStart, startNano, end);
        if (leaving != null) {
            leaving.sessionEnded(end);
        }
        if (aborted) {
            return ABORTED;
        }
        long think = s.thinkNanos();
        long next = ctx.clock().thinkEnd(think, lastDone);
        if (s.endReason() != SessionEnd.LEFT) { // a cut session's think was recorded at its cut (replied)
            long departs = leaving == null ? -1 : leaving.departsBetweenSessions(lastDone, next);
            if (departs >= 0) {
                ctx.recorder().cutThink(lastDone, departs - lastDone);
            } else {
                ctx.recorder().think(lastDone, ctx.clock().runPhaseThink(think, lastDone));
            }
        }
        return next;
    }

    /**
     * The run gives up waiting for this session (still in a request at the end of the end-of-run
     * wait): it is logged now, end reason {@code stuck}; its reply, should one still come, is not.
     * False when it had ended already.
     */
    synchronized boolean giveUp() {
        if (!started || closed) {
            return false;
        }
        closed = true;
        long now = System.nanoTime(); // it was active, in its request, until the run gave up on it
        ctx.active().decrement(this);
        s.stuck();
        long end = Math.max(now, lastDone);
        ctx.recorder().session(s, emulatedUser, intendedStart, startNano, end);
        if (leaving != null) {
            leaving.sessionEnded(end);
        }
        return true;
    }

    /** A session that failed with an exception: no longer active, not recorded. */
    synchronized void abandon() {
        if (started && !closed) {
            closed = true;
            ctx.active().decrement(this);
            started = false;
        }
    }
}
