package org.rubis.client.backend;

import org.rubis.format.run.ErrorClass;

/**
 * The outcome of one request and the one place that says where its times are taken. One instance per
 * emulated user is reused for every request, so the timing path allocates nothing for it. Only the
 * backends (this package) take marks; everyone else reads them.
 *
 * <p>Every mark is a {@link System#nanoTime()} instant; the logged times are differences of marks
 * ({@link #ttfbNs()}, {@link #responseNs()}). The rules, each in the method that applies it:
 * <ol>
 * <li><b>Send</b> ({@link #markSend()}): after the request is built (its bytes, its request object,
 *     the headers of {@link RequestHeaders}), immediately before the call that writes it, or opens its
 *     connection and then writes it. Building the request is never in the window; a new connection's
 *     connect (and TLS handshake) always is.
 * <li><b>HttpClient 5's write</b> ({@link #markSendAtWrite}): pooled and dedicated take the send mark
 *     before handing the request to HttpClient, then take it again at the write of the request head,
 *     minus the time the connection step took ({@link HttpClient5Marks}): the wait for a pooled
 *     connection, a stale check, a connect and a handshake stay in the window, HttpClient's own CPU
 *     before the write does not. An attempt that failed before the write keeps the first mark.
 * <li><b>First byte</b> ({@link #markFirstByte}): netty, the instant its reply handler was handed the
 *     first read of the reply, taken before any parsing; HttpClient 5, the instant its request executor
 *     has read the response head; legacy, the instant {@code getResponseCode} returns (the JDK reads and
 *     parses the head inside it and offers no earlier instant).
 * <li><b>Last byte</b> ({@link #markLastByte}): the read that completed the reply, before the page is
 *     decoded: netty, the stamp of the read that ended the reply (taken before that read was parsed);
 *     blocking backends, the read that returned the end of the stream ({@link ReplyBuffers}). When
 *     HttpClient 5 had the whole body in its buffer with the head, the body came with the head: the
 *     head's instant is the last byte. A reply without a body ends at its head.
 * <li><b>Failure</b> ({@link #fail}): the instant the backend detects it (the exception caught, the
 *     deadline's check, the close seen); a request that failed before its send mark (no socket) is
 *     marked sent at that instant, so its response time is 0.
 * <li><b>Retry</b> ({@link #retry()}): a request resent by {@link StaleConnectionRetry} forgets the failed
 *     attempt (marks, status, error) and is marked sent again right before it goes out again, so the
 *     failed attempt is outside its window. The legacy backend switches the JDK's own resend off; where
 *     it cannot (https), the JDK's resend is counted ({@link #retriedInsideWindow()}) and its window
 *     includes the failed attempt.
 * <li><b>Prepared connects</b>: what a {@link PreparingBackend} readies in the lead before a request's
 *     intended instant (a socket made, its options set, a channel registered) is done before the send
 *     mark; the connect itself, on the prepared socket, is in the window like any connect.
 * <li><b>Kernel marks</b> ({@link #markKernel}, the kernel backend): the kernel's transmit stamps of the request's
 *     first and last bytes and its receive stamps of the reply's first and last bytes, read after the reply ended.
 *     Published in place of the user-space marks ({@link #publishKernel}) unless the run asks for user-space times;
 *     the user-space marks stay readable beside them.
 * </ol>
 * Between a mark and the event it marks there is no allocation, lock, I/O or virtual call: each mark
 * method is a store into this final class.
 */
public final class Reply {

    private long sendNano;
    private long firstByteNano;
    private long endNano;
    private ErrorClass error;
    private boolean imageError;
    private int retries;
    /** The kernel's stamps of this request, on the run's clock; 0 where none ({@link #markKernel}). */
    private long txFirstNano;

    private long txLastNano;
    private long rxFirstNano;
    private long rxLastNano;
    /** The user-space marks, kept when the kernel's are published ({@link #publishKernel}); 0 otherwise. */
    private long userSendNano;

    private long userFirstByteNano;
    private long userEndNano;
    private boolean kernelPublished;

    /** HTTP status, or 0 when no response was received. */
    public int status;
    /** The page, decoded as ISO-8859-1; null on failure. */
    public String body;

    public long bytes;
    /**
     * The serial of the connection that carried the request ({@link ConnectionIds}: one connection for the whole run),
     * 0 when no connection carried it (a failed connect).
     */
    public long connection;
    /** The local address:port of that connection ("" if unknown): the server's log and the capture name it so. */
    public String localAddress = "";
    /** True when this request opened the connection. */
    public boolean newConnection;
    /** Images fetched for this page (when enabled) and their total bytes. */
    public int images;

    public long imageBytes;

    /** Ready for the next request: no marks, no outcome. */
    void reset() {
        sendNano = 0;
        firstByteNano = 0;
        endNano = 0;
        error = null;
        imageError = false;
        retries = 0;
        txFirstNano = 0;
        txLastNano = 0;
        rxFirstNano = 0;
        rxLastNano = 0;
        userSendNano = 0;
        userFirstByteNano = 0;
        userEndNano = 0;
        kernelPublished = false;
        status = 0;
        body = null;
        bytes = 0;
        connection = 0;
        localAddress = "";
        newConnection = false;
        images = 0;
        imageBytes = 0;
    }

    /** Rule 1, the send: call it last before the network call. Returns the instant (a deadline may count from it). */
    long markSend() {
        long now = System.nanoTime();
        sendNano = now;
        return now;
    }

    /**
     * Rule 2, HttpClient 5's write: {@code writeNano} was taken immediately before the request head was
     * written; {@code connectStepNanos} is how long the connection step took before it.
     */
    void markSendAtWrite(long writeNano, long connectStepNanos) {
        sendNano = writeNano - connectStepNanos;
    }

    /** Rule 3, the first byte: {@code readNano} is the backend's stamp of the read that brought it. */
    void markFirstByte(long readNano) {
        firstByteNano = readNano;
    }

    /** Rule 4, the last byte: {@code readNano} is the backend's stamp of the read that completed the reply. */
    void markLastByte(long readNano) {
        endNano = readNano;
    }

    /** Rule 4 for a reply without a body: it ends at its head, the first byte's instant. */
    void markLastByteAtHead() {
        endNano = firstByteNano;
    }

    /** True once the first byte is marked. */
    boolean firstByteMarked() {
        return firstByteNano != 0;
    }

    /** Rule 5, a failure: no page; the time until it was detected counts as the response time. */
    void fail(ErrorClass errorClass) {
        long now = System.nanoTime();
        if (sendNano == 0) {
            sendNano = now;
        }
        endNano = now;
        body = null;
        error = errorClass;
        imageError = false;
    }

    /**
     * One of the page's images failed: the page stands with its own marks, status and bytes; the
     * request's error is {@code image-<class>}.
     */
    void failImage(ErrorClass errorClass) {
        error = errorClass;
        imageError = true;
    }

    /** Rule 6, a retry: forgets the failed attempt and counts it; the caller marks the send again before resending. */
    void retry() {
        int n = retries + 1;
        reset();
        retries = n;
    }

    /** Rule 6 for the JDK's own resend (legacy over https): counted; the failed attempt is in its window. */
    void retriedInsideWindow() {
        retries = 1;
    }

    /**
     * Rule 7, the kernel's marks (the kernel backend): the transmit stamps of the request's first and last bytes and
     * the receive stamps of the reply's first and last bytes, mapped to the run's clock after the reply ended
     * (never in its window); 0 for a stamp the kernel did not give.
     */
    void markKernel(long txFirst, long txLast, long rxFirst, long rxLast) {
        txFirstNano = txFirst;
        txLastNano = txLast;
        rxFirstNano = rxFirst;
        rxLastNano = rxLast;
    }

    /**
     * Rule 8, the kernel's times published: when the reply has its receive stamps, the send, first-byte and last-byte
     * marks become the kernel's (the send is the first byte's transmit stamp on a reused connection; on a new one the
     * user-space mark before the connect stays, since the kernel stamps no handshake), and the user-space marks are
     * kept beside them ({@link #userTtfbNs}, {@link #userResponseNs}). Returns whether the kernel's were published.
     */
    boolean publishKernel() {
        if (rxFirstNano == 0 || rxLastNano == 0 || error != null && !imageError) {
            return false;
        }
        long send = !newConnection && txFirstNano != 0 ? txFirstNano : sendNano;
        if (send > rxFirstNano) {
            return false; // a stamp the clock mapping put out of order: the user-space marks stand
        }
        userSendNano = sendNano;
        userFirstByteNano = firstByteNano;
        userEndNano = endNano;
        sendNano = send;
        firstByteNano = rxFirstNano;
        endNano = rxLastNano;
        kernelPublished = true;
        return true;
    }

    /** True when the published marks are the kernel's ({@link #publishKernel}). */
    public boolean kernelPublished() {
        return kernelPublished;
    }

    /** The transmit stamp of the request's first byte (run clock), 0 when none. */
    public long txFirstNano() {
        return txFirstNano;
    }

    /** The transmit stamp of the request's last byte (run clock), 0 when none. */
    public long txLastNano() {
        return txLastNano;
    }

    /** The receive stamp of the reply's first byte (run clock), 0 when none. */
    public long rxFirstNano() {
        return rxFirstNano;
    }

    /** The receive stamp of the reply's last byte (run clock), 0 when none. */
    public long rxLastNano() {
        return rxLastNano;
    }

    /** The user-space send mark: {@link #sendNano} unless the kernel's are published. */
    public long userSendNano() {
        return kernelPublished ? userSendNano : sendNano;
    }

    /** The user-space time to first byte, ns: {@link #ttfbNs} unless the kernel's are published. */
    public long userTtfbNs() {
        if (!kernelPublished) {
            return ttfbNs();
        }
        return userFirstByteNano == 0 ? 0 : userFirstByteNano - userSendNano;
    }

    /** The user-space response time, ns: {@link #responseNs} unless the kernel's are published. */
    public long userResponseNs() {
        return kernelPublished ? userEndNano - userSendNano : responseNs();
    }

    /** The send mark. */
    public long sendNano() {
        return sendNano;
    }

    /** Send mark to first byte, ns; 0 when no byte arrived. */
    public long ttfbNs() {
        return firstByteNano == 0 ? 0 : firstByteNano - sendNano;
    }

    /** Send mark to last byte (or to the failure), ns. */
    public long responseNs() {
        return endNano - sendNano;
    }

    /** The last byte's (or the failure's) instant. */
    public long endNano() {
        return endNano;
    }

    public boolean failed() {
        return body == null;
    }

    /** The error class, or null when the backend met none (an HTTP error status is read from {@link #status}). */
    public ErrorClass error() {
        return error;
    }

    /** True when the error is one of the page's images' (the page itself stands). */
    public boolean imageError() {
        return imageError;
    }

    /**
     * The error as requests.csv names it: "" for none, {@code image-<class>} for an image's, {@code http-<status>}
     * for {@link ErrorClass#HTTP_STATUS} (docs/RUN-DIRECTORY.md).
     */
    public String errorLabel() {
        if (error == null) {
            return "";
        }
        String label = error == ErrorClass.HTTP_STATUS ? ErrorClass.http(status) : error.label();
        return imageError ? ImageFetcher.error(label) : label;
    }

    /**
     * Resends before this reply: 1 when the first attempt, on a reused connection, got no response byte
     * (the server closed the idle connection as the request left) and the request was sent again on a
     * new connection ({@link StaleConnectionRetry}); the pooled and legacy backends may count more.
     */
    public int retries() {
        return retries;
    }
}
