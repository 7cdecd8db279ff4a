package org.rubis.client.backend;

/**
 * The outcome of one request, filled in by a backend. One instance per emulated user is reused
 * for every request, so the timing path allocates nothing for it.
 */
public final class Reply {
    /**
     * {@link System#nanoTime()} when the backend handed the request to the network: taken after the
     * request object is built, so building it is not counted in the response time.
     */
    public long sendNano;
    /** HTTP status, or 0 when no response was received. */
    public int status;
    /** The page, decoded as ISO-8859-1; null on failure. */
    public String body;
    public long bytes;
    /** Send instant to the first byte of the response (headers parsed), ns. */
    public long ttfbNs;
    /** Send instant to the last byte of the body, ns. */
    public long responseNs;
    /** Local address:port of the connection that carried the request ("" if unknown). */
    public String connectionId = "";
    /** True when this request opened the connection. */
    public boolean newConnection;
    /** Error class (connect-refused, connect-timeout, read-timeout, http-404, io, ...) or "". */
    public String error = "";
    /** Images fetched for this page (when enabled) and their total bytes. */
    public int images;
    public long imageBytes;
    /**
     * Attempts retried before this reply: 1 when the first attempt, on a reused connection, got no
     * response byte (the server closed the idle connection as the request left) and the request was
     * sent again on a new connection ({@link StaleConnectionRetry}).
     */
    public int retries;

    public void reset() {
        sendNano = 0;
        status = 0;
        body = null;
        bytes = 0;
        ttfbNs = 0;
        responseNs = 0;
        connectionId = "";
        newConnection = false;
        error = "";
        images = 0;
        imageBytes = 0;
        retries = 0;
    }

    public boolean failed() {
        return body == null;
    }

    /** Marks the send instant (call it last before the network call). */
    public void sent() {
        sendNano = System.nanoTime();
    }

    /** A failure: no page; the time until it was detected counts as the response time. */
    public void fail(String errorClass) {
        if (sendNano == 0) {
            sendNano = System.nanoTime();
        }
        responseNs = System.nanoTime() - sendNano;
        body = null;
        error = errorClass;
    }
}
