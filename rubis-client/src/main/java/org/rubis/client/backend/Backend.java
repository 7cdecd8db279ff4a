package org.rubis.client.backend;

import java.util.concurrent.ScheduledExecutorService;

/**
 * A connection policy: how an emulated user's requests reach the server. The policies differ only
 * in which connection carries a request (the JDK's keep-alive cache, a shared pool, one connection
 * per session, one connection per session on an event loop); they are the switch that reproduces
 * the connection-sharing pitfall. Every backend builds its requests from {@link RequestHeaders}.
 *
 * <p>Blocking backends are driven through {@link #execute} by a platform thread per user, or by a
 * virtual thread per request (a session's requests then run on different threads, one at a time,
 * with the same {@link Session}); an event-loop
 * backend ({@link #eventLoops()} true) is driven through {@link #send} and {@link #loop}, with no
 * thread per user. Both are driven by the same session logic (the engine's SessionStep).
 */
public interface Backend extends AutoCloseable {

    /** Name written in the request log and summary. */
    String name();

    /** Per-session connection state ({@link #endSession} releases it). */
    interface Session {}

    /**
     * Called when a session is created: on the thread of its first request for a blocking backend, before the
     * session's first timer for an event-loop backend.
     */
    Session startSession();

    /**
     * Sends {@code GET base+path} and reads the whole reply into {@code out}; never throws for
     * network failures (they are recorded as the reply's {@link Reply#error()}). The reply's marks
     * are taken as {@link Reply} says (the send after the request is built, the last byte before the
     * page is decoded).
     * An event-loop backend blocks the caller until the reply is complete (benchmarks, tests);
     * never call it on the session's own event loop.
     */
    void execute(Session session, String path, Reply out);

    /**
     * Sends without blocking: like {@link #execute}, then {@code onReply} runs once the reply is
     * complete, on the session's event loop. Blocking backends run {@code onReply} on the caller.
     */
    default void send(Session session, String path, Reply out, Runnable onReply) {
        execute(session, path, out);
        onReply.run();
    }

    /** True when sessions run on this backend's event loops (driven by {@link #send}). */
    default boolean eventLoops() {
        return false;
    }

    /** The event loop all of a session's steps and timers run on (event-loop backends only). */
    default ScheduledExecutorService loop(Session session) {
        throw new UnsupportedOperationException(name() + " is a blocking backend");
    }

    /**
     * How long before a session's next request this backend wants {@link #prepare} called; 0 (the default): never.
     * Asked by each execution model (event-loop sessions, a thread per user, a virtual thread per request), and only
     * when the request is due later than twice this.
     */
    default long prepareLeadNanos() {
        return 0;
    }

    /**
     * The lead of netty's prepare: 1 ms is far beyond the prepare's own time (60-120 us cold) and the timer's or the
     * wake-up's lateness, and short enough that the socket is not kept through a think time. Dedicated takes 2 ms
     * ({@code DedicatedBackend.LEAD_NANOS}): its prepare may first check an idle connection, a read of up to 1 ms.
     */
    long PREPARE_LEAD_NANOS = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(1);

    /**
     * Whether {@link #prepare}, called at the lead before a request due at {@code requestNano} ({@link System#nanoTime()}),
     * would do anything for this session: it will have no open connection and nothing prepared, or (dedicated) a
     * connection idle long enough to be checked. A thread per user wakes early for a prepare only then, not once per
     * think time.
     */
    default boolean prepares(Session session, long requestNano) {
        return prepareLeadNanos() > 0;
    }

    /**
     * The one rule every execution model follows: call {@link #prepare} {@link #prepareLeadNanos()} before a request due
     * in {@code dueInNanos} when this backend prepares, the request is due later than twice the lead, and the session
     * has something to prepare ({@link #prepares}; a session not created yet, {@code null}, has: its first request
     * opens a connection).
     */
    default boolean preparesAhead(Session session, long dueInNanos) {
        long lead = prepareLeadNanos();
        return lead > 0 && dueInNanos > 2 * lead && (session == null || prepares(session, System.nanoTime() + dueInNanos));
    }

    /**
     * The session's next request is due in about {@link #prepareLeadNanos()}. A backend that would open a new connection
     * for it may now do what does not touch the wire (create the socket, set its options, register it with the loop), so
     * that the request's window, which starts at its send mark, holds the connect and the request only: at 30 requests/s
     * that work runs cold and took about 120 us of the window (docs/DEVELOPING.md). Never connects, never sends; at most
     * one unconnected socket per session, closed by {@link #endSession}. Runs on the session's event loop, on the
     * session's own thread (thread per user), or on the virtual thread that then runs the request.
     */
    default void prepare(Session session) {}

    /**
     * The run is stopping early (Ctrl-C, a fatal error): ends every request in flight at once, each
     * reported as {@link ErrorClass#ABORTED}, instead of letting it wait out the request timeout.
     */
    default void abortInFlight() {}

    /** Called when the session ends (dedicated connections are closed here). */
    void endSession(Session session);

    @Override
    void close();
}
