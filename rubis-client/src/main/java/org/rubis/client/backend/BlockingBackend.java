package org.rubis.client.backend;

/**
 * A backend whose requests block their caller: a platform thread per user, or a virtual thread per
 * request, waits in {@link #execute} for the whole reply (legacy, pooled, dedicated).
 */
public interface BlockingBackend extends Backend {

    /**
     * Sends {@code GET base+path} and reads the whole reply into {@code out}; never throws for
     * network failures (they are recorded as the reply's {@link Reply#error()}). The reply's marks
     * are taken as {@link Reply} says (the send after the request is built, the last byte before the
     * page is decoded).
     */
    void execute(Session session, String path, Reply out);
}
