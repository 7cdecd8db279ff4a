package org.rubis.client.backend;

/**
 * A backend that readies a session's next new connection shortly before its request, off the
 * request's window: at 30 requests/s the socket's creation and options ran cold and took about
 * 120 us of the window that starts at the send mark (docs/DEVELOPING.md). Every execution model asks
 * {@link PrepareAhead} whether and when to call {@link #prepare}.
 */
public interface PreparingBackend extends Backend {

    /** How long before a session's next request this backend wants {@link #prepare} called (positive). */
    long prepareLeadNanos();

    /**
     * Whether {@link #prepare}, called at the lead before a request due at {@code requestNano}
     * ({@link System#nanoTime()}), would do anything for this session: it will have no open connection and
     * nothing prepared, or (dedicated) a connection idle long enough to be checked. A thread per user wakes
     * early for a prepare only then, not once per think time.
     */
    boolean prepares(Session session, long requestNano);

    /**
     * The session's next request is due in about {@link #prepareLeadNanos()}. A backend that would open a new
     * connection for it may now do what does not touch the wire (create the socket, set its options, register
     * it with the loop), so that the request's window holds the connect and the request only. Never connects,
     * never sends; at most one unconnected socket per session, closed by {@link #endSession}. Runs on the
     * session's event loop, on the session's own thread (thread per user), or on the virtual thread that then
     * runs the request.
     */
    void prepare(Session session);
}
