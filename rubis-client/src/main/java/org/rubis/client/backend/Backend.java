package org.rubis.client.backend;

/**
 * A connection policy: how an emulated user's requests reach the server. The policies differ only
 * in which connection carries a request (the JDK's keep-alive cache, a shared pool, one connection
 * per session); they are the switch that reproduces the connection-sharing pitfall.
 */
public interface Backend extends AutoCloseable {

    /** Name written in the request log and summary. */
    String name();

    /** Per-session connection state ({@link #endSession} releases it). */
    interface Session {}

    /** Called at the start of a session, on the user's thread. */
    Session startSession();

    /**
     * Sends {@code GET base+path} and reads the whole reply into {@code out}; never throws for
     * network failures (they are recorded in {@code out.error}). The backend builds its request
     * first and then marks {@code out.sendNano}; {@code ttfbNs} and {@code responseNs} are measured
     * from there, {@code responseNs} up to the last byte read (decoding the page comes after).
     */
    void execute(Session session, String path, Reply out);

    /** Called when the session ends (dedicated connections are closed here). */
    void endSession(Session session);

    @Override
    void close();
}
