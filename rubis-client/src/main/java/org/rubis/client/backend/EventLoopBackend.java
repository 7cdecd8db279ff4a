package org.rubis.client.backend;

import java.util.concurrent.ScheduledExecutorService;

/**
 * A backend that runs its sessions on its own event loops, with no thread per user (netty): a
 * session is bound to one loop at {@link #startSession}, and its requests, replies and timers all run
 * there, so a session's state needs no locking.
 */
public interface EventLoopBackend extends Backend {

    /** The event loop all of a session's steps and timers run on. */
    ScheduledExecutorService loop(Session session);

    /**
     * Sends {@code GET base+path} without blocking; {@code onReply} runs once the reply is complete
     * (its marks taken as {@link Reply} says), on the session's loop. Called on that loop (a run) or
     * from another thread (then handed to the loop).
     */
    void send(Session session, String path, Reply out, Runnable onReply);

    /**
     * {@link #send}, the caller blocking until the reply is complete: benchmarks and tests, never a run.
     * Never call it on the session's own loop.
     */
    void sendAndWait(Session session, String path, Reply out);
}
