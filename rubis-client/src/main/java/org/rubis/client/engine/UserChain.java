package org.rubis.client.engine;

import java.util.function.LongConsumer;
import org.rubis.client.engine.SessionExecutor.FailureHandler;
import org.rubis.client.engine.SessionExecutor.Sessions;

/**
 * One emulated user's sessions, one after the other, in the models with no thread per user (event loops, virtual
 * threads): a session's end starts the next, meant at the instant the ended one computed; an aborted session, the
 * sessions running out, or a failure to build the next one finishes the user. The model only says how a session runs
 * ({@link SessionRunner}); a thread per user runs the same chain as a loop on its own thread.
 */
final class UserChain {

    /** Runs one session's steps; calls {@code onEnd} with the next session's intended instant (or {@link SessionStep#ABORTED}). */
    interface SessionRunner {
        void run(UserChain user, SessionStep step, LongConsumer onEnd);
    }

    final String name;
    private final int emulatedUser;
    private final SessionContext ctx;
    private final Sessions sessions;
    private final FailureHandler failures;
    private final Runnable onFinished;
    private final SessionRunner runner;

    UserChain(
            String name,
            int emulatedUser,
            SessionContext ctx,
            Sessions sessions,
            FailureHandler failures,
            Runnable onFinished,
            SessionRunner runner) {
        this.name = name;
        this.emulatedUser = emulatedUser;
        this.ctx = ctx;
        this.sessions = sessions;
        this.failures = failures;
        this.onFinished = onFinished;
        this.runner = runner;
    }

    /** Starts session {@code k}, meant to begin at {@code at}; with none (or after an aborted one), the user is finished. */
    void next(long k, long at) {
        SessionExecutor.Start s;
        try {
            s = at == SessionStep.ABORTED ? null : sessions.next(k, at);
        } catch (OutOfMemoryError | RuntimeException e) {
            failed(e);
            return;
        }
        if (s == null) {
            onFinished.run();
            return;
        }
        runner.run(this, new SessionStep(ctx, s.session(), emulatedUser, s.atNano(), s.leaving()), n -> next(k + 1, n));
    }

    /** A session of this user failed with an exception: the run is told, and the user is finished. */
    void failed(Throwable e) {
        try {
            failures.failed(name, e);
        } finally {
            onFinished.run();
        }
    }
}
