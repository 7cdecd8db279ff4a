package org.rubis.client.engine;

import org.rubis.client.backend.BlockingBackend;
import org.rubis.client.backend.EventLoopBackend;
import org.rubis.client.config.ExecutionModel;
import org.rubis.client.workload.UserSession;

/**
 * The one way the engine starts sessions, whatever the execution model: a platform thread per user
 * ({@link ThreadSessions}), a virtual thread per request with think times on a timer
 * ({@link VirtualThreadSessions}), or the backend's event loops ({@link EventLoopSessions}). All
 * drive the same {@link SessionStep}.
 */
interface SessionExecutor extends AutoCloseable {

    /** The sessions one emulated user runs back to back. */
    @FunctionalInterface
    interface Sessions {
        /**
         * The user's session {@code k}, meant to start at {@code atNano} (its first request's instant: the end of the
         * think time after the previous one), or null when the user has no more. The start returned may be later (a
         * user a load profile let go comes back later).
         */
        Start next(long k, long atNano);
    }

    /**
     * A session to run: its first request's intended instant, and the user's place in a load profile's population
     * (null when nothing takes the user out of the run).
     */
    record Start(UserSession session, long atNano, SessionStep.Leaving leaving) {}

    /**
     * Starts a user (closed mode: many sessions; hybrid: one) whose first session is meant to start
     * at {@code firstIntendedNano}; returns at once. {@code onFinished} runs when the user has no
     * more sessions or the run ended. May throw OutOfMemoryError when no thread can be created.
     */
    void start(String name, int emulatedUser, long firstIntendedNano, Sessions sessions, Runnable onFinished);

    /**
     * After the stop: sessions waiting to send end now; requests in flight may finish until
     * {@code graceNano}.
     */
    void drain(long graceNano) throws InterruptedException;

    @Override
    void close();

    /**
     * The executor of the run's execution model ({@code ClientConfig.Execution.model()}, the one place it is decided),
     * driving the backend {@code Backends.create} made for that model.
     */
    static SessionExecutor of(SessionContext ctx, ExecutionModel model, FailureHandler failures) {
        return switch (model) {
            case EVENT_LOOPS -> new EventLoopSessions(ctx, (EventLoopBackend) ctx.backend(), failures);
            case VIRTUAL_THREADS -> new VirtualThreadSessions(ctx, (BlockingBackend) ctx.backend(), failures);
            case PLATFORM_THREADS -> new ThreadSessions(ctx, (BlockingBackend) ctx.backend(), failures);
        };
    }

    /** Where a user that failed with an exception is reported (the run is then invalid). */
    @FunctionalInterface
    interface FailureHandler {
        void failed(String who, Throwable e);
    }
}
