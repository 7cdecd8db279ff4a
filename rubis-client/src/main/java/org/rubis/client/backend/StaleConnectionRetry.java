package org.rubis.client.backend;

import org.rubis.format.run.ErrorClass;

/**
 * The one retry every backend makes, as browsers do: an idempotent request (all of ours are GETs)
 * that got no response byte on a reused connection is sent once more, on a new connection. Servers
 * close idle keep-alive connections (lighttpd and the embedded server after 5 s, while TPC-W think
 * times average 7 s), so a request can leave just as the server's FIN does; that is neither a
 * server error nor something to hide. The retried request is measured from its own send instant
 * (the failed attempt is outside its window), and logged with {@code retries=1} and
 * {@code new_connection=true}.
 *
 * <p>A timeout is never retried (the server may be working on the request), nor a failure on a
 * connection opened for this request, nor one after a response byte arrived. The pooled backend's
 * pool and legacy's JDK keep-alive cache may hand the resent request another idle connection the
 * server has closed as well: each
 * such failure discards that connection and the request goes again (the {@code retries} column
 * counts every resend), at most {@link #MAX_RETRIES} times; dedicated and netty resend on a new
 * connection, so at most once.
 */
final class StaleConnectionRetry {

    /** Bound on resends of one request (a pool full of connections the server closed). */
    static final int MAX_RETRIES = 10;

    private StaleConnectionRetry() {}

    /**
     * Whether a failed attempt should be sent again on a new connection: it was on a reused connection, no
     * response byte came, the request was not resent too often already, and its error class says the server
     * closed the connection rather than worked on the request, was never reached, or the run gave up on it.
     */
    static boolean applies(Reply out, boolean reusedConnection, boolean responseByteSeen, ErrorClass error) {
        return out.retries() < MAX_RETRIES && reusedConnection && !responseByteSeen && retriable(error);
    }

    /**
     * Never a timeout (the server may be working on the request), a connect failure (no connection was made,
     * so none went stale), {@code not-http} or {@code too-large} (bytes did arrive, whatever the backend's own
     * flag says) or {@code aborted} (the run stopped: also what a waiting caller's interrupt becomes).
     */
    static boolean retriable(ErrorClass error) {
        return !error.isTimeout()
                && !error.isConnectFailure()
                && error != ErrorClass.NOT_HTTP
                && error != ErrorClass.TOO_LARGE
                && error != ErrorClass.ABORTED;
    }
}
