package org.rubis.client.engine;

import org.rubis.client.backend.Backend;
import org.rubis.client.backend.Reply;
import org.rubis.client.workload.UserSession;

/**
 * Runs one session on the calling thread (a platform or virtual thread per user): wait for the
 * intended send instant, send, record, choose the next state, think. The timing path is the
 * backend's, from its send mark to the last byte; records are built after the reply is complete.
 */
final class SessionRunner {

    /** Returned when the run ended during the session. */
    static final long ABORTED = Long.MIN_VALUE;

    private final RunClock clock;
    private final StopSignal stop;
    private final Backend backend;
    private final Recorder recorder;
    private final ActiveSessions active;

    SessionRunner(RunClock clock, StopSignal stop, Backend backend, Recorder recorder, ActiveSessions active) {
        this.clock = clock;
        this.stop = stop;
        this.backend = backend;
        this.recorder = recorder;
        this.active = active;
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
            for (int index = 0; ; index++) {
                if (index > 0 && !stop.awaitUntil(intended, clock.endNano())) {
                    aborted = true;
                    break;
                }
                backend.execute(bs, path, reply); // marks reply.sendNano right before the network call
                long send = reply.sendNano;
                long done = send + reply.responseNs;
                lastDone = done;
                UserSession.Next next = s.onReply(reply.body, reply.failed());
                recorder.request(s, index, intended, send, reply);
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
        recorder.session(s, emulatedUser, intendedStartNano, startNano, lastDone);
        return aborted ? ABORTED : lastDone + clock.scaleThink(s.thinkNanos(), lastDone);
    }
}
