package org.rubis.client.backend;

import org.rubis.format.run.ErrorClass;

/**
 * A connection policy: how an emulated user's requests reach the server. The policies differ only
 * in which connection carries a request (the JDK's keep-alive cache, a shared pool, one connection
 * per session, one connection per session on an event loop); they are the switch that reproduces
 * the connection-sharing pitfall. Every backend builds its requests from {@link RequestHeaders} and
 * takes its marks as {@link Reply} says.
 *
 * <p>This is what every backend has: sessions and a lifecycle. How requests are sent depends on the
 * protocol it speaks to the engine: a {@link BlockingBackend} is driven by a thread per user or a
 * virtual thread per request, an {@link EventLoopBackend} by timers and callbacks on its own loops;
 * either may also be a {@link PreparingBackend}. Which one a run drives is decided once, by
 * {@code ExecutionModel} from the configuration; {@link Backends#create} makes the matching kind.
 */
public interface Backend extends AutoCloseable {

    /**
     * The largest page a backend reads, in bytes (64 MiB, the embedded server's largest {@code large} fault): a reply
     * that announces a longer body, or whose body grows past it, fails as {@link ErrorClass#TOO_LARGE} and is not
     * read further, so that an endless or huge reply cannot take the client's heap.
     */
    int MAX_PAGE_BYTES = 64 << 20;

    /** Name written in the request log and summary. */
    String name();

    /** Per-session connection state ({@link #endSession} releases it). */
    interface Session {}

    /**
     * Called when a session is created: on the thread of its first request (or of its prepare) for a
     * blocking backend, before the session's first timer for an event-loop backend.
     */
    Session startSession();

    /** Called when the session ends (its own connection, and a prepared one it did not use, are closed here). */
    void endSession(Session session);

    /**
     * The run is stopping early (Ctrl-C, a fatal error): ends every request in flight at once, each
     * reported as {@link ErrorClass#ABORTED}, instead of letting it wait out the request timeout.
     */
    void abortInFlight();

    @Override
    void close();
}
