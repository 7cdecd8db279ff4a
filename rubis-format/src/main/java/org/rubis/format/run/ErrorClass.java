package org.rubis.format.run;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/**
 * The one taxonomy of failed requests, shared by every backend, so that the same fault gets the same
 * name whichever backend met it. The {@link #label} is what requests.csv's {@code error} column and
 * the summary's {@code errors_by_class} hold; docs/RUN-DIRECTORY.md describes each class. An HTTP
 * error status is {@code http-<status>} (the status itself is in the {@code status} column); a page
 * that arrived but one of whose images failed is {@code image-<class>} ({@link #label(ErrorClass,
 * boolean, int)}). Exception names never reach the log: anything unknown is {@link #IO} or
 * {@link #CLIENT}. A request carries its class as this enum until its log line is written.
 */
public enum ErrorClass {
    /** The target refused the connection (nothing listens on the port). */
    REFUSED("refused"),
    /** The connection was not established within the connect timeout. */
    CONNECT_TIMEOUT("connect-timeout"),
    /** Host name unknown or no route to it. */
    UNREACHABLE("unreachable"),
    /** Connected, but the reply (the TLS handshake included) did not complete within the request timeout. */
    READ_TIMEOUT("read-timeout"),
    /** The connection was reset (TCP RST, broken pipe) during the exchange. */
    RESET("reset"),
    /** The server closed the connection (FIN) before sending any byte of a reply. */
    CLOSED_BEFORE_ANY_BYTE("closed-before-any-byte"),
    /** The reply ended before the length it announced (Content-Length or chunked end). */
    TRUNCATED_BODY("truncated-body"),
    /** The bytes received are not an HTTP reply. */
    NOT_HTTP("not-http"),
    /** The reply's page is larger than the client reads (its announced length, or the bytes that came). */
    TOO_LARGE("too-large"),
    /** The TLS handshake or a TLS record failed (e.g. https against a plain-http port). */
    TLS_FAILURE("tls-failure"),
    /** The run stopped (Ctrl-C, a fatal error) while the request was in flight; it was abandoned. */
    ABORTED("aborted"),
    /** A complete reply whose page holds RUBiS's {@code ERROR} marker (status below 400). */
    ERROR_PAGE("error-page"),
    /**
     * An ERROR page that reports the target's stored state, not a fault of the client or the server: a nickname
     * already taken, an item no longer for sale or open for bids. A persistent database remembers what earlier runs
     * wrote; the verdict counts these apart from the errors it judges (docs/RUN-DIRECTORY.md).
     */
    TARGET_STATE("target-state"),
    /** A complete reply with a status of 400 or more; labelled {@code http-<status>}. */
    HTTP_STATUS("http"),
    /** The client itself ran out of heap while handling the request. */
    OUT_OF_MEMORY("out-of-memory"),
    /** Any other I/O failure; among them no socket for the request (the client's file descriptors ran out). */
    IO("io"),
    /** A failure inside the client (a bug or a bad URL), not a network fault. */
    CLIENT("client-error");

    /** The prefix of the error of a page whose image failed: {@code image-<class>}. */
    public static final String IMAGE_PREFIX = "image-";
    /** The prefix of an HTTP error status's label: {@code http-<status>}. */
    public static final String HTTP_PREFIX = "http-";

    private static final ErrorClass[] VALUES = values();

    private final String label;
    /** Made once: the writer thread counts every error by its label. */
    private final String imageLabel;

    ErrorClass(String label) {
        this.label = label;
        this.imageLabel = IMAGE_PREFIX + label;
    }

    /** The name written to requests.csv (for {@link #HTTP_STATUS} use {@link #http(int)}). */
    public String label() {
        return label;
    }

    /** {@code http-<status>}. */
    public static String http(int status) {
        return HTTP_PREFIX + status;
    }

    /**
     * The value of requests.csv's {@code error} column: "" without an error, else the class's label,
     * {@code http-<status>} for {@link #HTTP_STATUS}, prefixed with {@code image-} when the class is
     * that of one of the page's images ({@code inImage}).
     */
    public static String label(ErrorClass error, boolean inImage, int status) {
        if (error == null) {
            return "";
        }
        if (error == HTTP_STATUS) {
            return inImage ? IMAGE_PREFIX + http(status) : http(status);
        }
        return inImage ? error.imageLabel : error.label;
    }

    /**
     * The class an {@code error} column's value names ({@code http-<status>} is {@link #HTTP_STATUS},
     * {@code image-<class>} that class), or null for "" and for a value outside the taxonomy.
     */
    public static ErrorClass parse(String label) {
        String s = label.startsWith(IMAGE_PREFIX) ? label.substring(IMAGE_PREFIX.length()) : label;
        if (s.startsWith(HTTP_PREFIX)) {
            return s.length() > 5 && s.substring(5).chars().allMatch(Character::isDigit) ? HTTP_STATUS : null;
        }
        for (ErrorClass c : VALUES) {
            if (c != HTTP_STATUS && c.label.equals(s)) {
                return c;
            }
        }
        return null;
    }

    /** True for failures to reach the target at all (no connection was made). */
    public boolean isConnectFailure() {
        return this == REFUSED || this == CONNECT_TIMEOUT || this == UNREACHABLE;
    }

    /** True when a timeout of ours ended the request (the connect's or the reply's). */
    public boolean isTimeout() {
        return this == CONNECT_TIMEOUT || this == READ_TIMEOUT;
    }

    /** True for a reply that did arrive, whole, and says the request failed (an error page, an HTTP error status). */
    public boolean answered() {
        return this == ERROR_PAGE || this == TARGET_STATE || this == HTTP_STATUS;
    }

    /**
     * Classifies an exception. {@code connected} says whether the connection was established (a
     * timeout after that is a read timeout); {@code anyByte} whether any byte of the reply arrived
     * (a close before that is {@link #CLOSED_BEFORE_ANY_BYTE}, after it {@link #TRUNCATED_BODY}).
     */
    public static ErrorClass of(Throwable e, boolean connected, boolean anyByte) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            ErrorClass c = direct(t, connected, anyByte);
            if (c != null) {
                return c;
            }
        }
        if (e instanceof OutOfMemoryError) {
            return OUT_OF_MEMORY;
        }
        return e instanceof IOException ? IO : CLIENT;
    }

    /** {@link #of(Throwable, boolean, boolean)} when it is unknown whether a byte arrived. */
    public static ErrorClass of(Throwable e, boolean connected) {
        return of(e, connected, connected);
    }

    private static ErrorClass direct(Throwable e, boolean connected, boolean anyByte) {
        String name = e.getClass().getSimpleName();
        String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        if (name.equals("ConnectTimeoutException")) { // Apache HttpClient, Netty
            // HttpClient's for a TLS handshake that timed out after the connect: a read timeout, as on the others
            return m.contains("read timed out") ? READ_TIMEOUT : CONNECT_TIMEOUT;
        }
        if (m.contains("too many open files")) { // EMFILE, ENFILE: no socket could be made. Not reset (the JDK's
            return IO; // SocketException) nor client-error (Netty epoll's ChannelException)
        }
        if (e instanceof SSLException || name.equals("NotSslRecordException")) {
            return TLS_FAILURE;
        }
        if (e
                instanceof
                ConnectException) { // includes Netty's AnnotatedConnectException, Apache's HttpHostConnectException
            return m.contains("timed out") ? CONNECT_TIMEOUT : m.contains("no route") ? UNREACHABLE : REFUSED;
        }
        if (e instanceof UnknownHostException || e instanceof NoRouteToHostException) {
            return UNREACHABLE;
        }
        if (e instanceof SocketTimeoutException
                || e instanceof TimeoutException
                || name.equals("ReadTimeoutException")) {
            if (m.contains("connect")) {
                return CONNECT_TIMEOUT;
            }
            return connected || m.contains("read") ? READ_TIMEOUT : CONNECT_TIMEOUT;
        }
        if (e instanceof InterruptedIOException
                || e instanceof InterruptedException
                || name.equals("RequestFailedException")) {
            return ABORTED; // the run aborted the request (see Backend.abort)
        }
        if (name.endsWith("ClosedChannelException")) { // Netty: written to a connection the server had closed
            return anyByte ? TRUNCATED_BODY : CLOSED_BEFORE_ANY_BYTE;
        }
        if (name.equals("NoHttpResponseException")) { // Apache: the server closed before a status line
            return CLOSED_BEFORE_ANY_BYTE;
        }
        if (name.equals("ConnectionClosedException")
                || name.equals("TruncatedChunkException")
                || name.equals("PrematureChannelClosureException")
                || m.contains("premature eof")
                || m.contains("premature end")) {
            return anyByte ? TRUNCATED_BODY : CLOSED_BEFORE_ANY_BYTE;
        }
        if (name.equals("ProtocolException")
                || name.equals("ParseException")
                || name.equals("MessageConstraintException")
                || m.contains("invalid http response")
                || m.contains("invalid response")
                || m.contains("invalid status line")) {
            return NOT_HTTP;
        }
        if (e instanceof FileNotFoundException) {
            return null; // the legacy backend reads the real status; never "404" by exception type
        }
        if (e instanceof SocketException) {
            if (m.contains("unexpected end of file")) { // JDK: closed before a status line
                return CLOSED_BEFORE_ANY_BYTE;
            }
            if (m.contains("reset") || m.contains("broken pipe") || m.contains("aborted")) {
                return RESET;
            }
            if (m.contains("closed")) {
                return anyByte ? TRUNCATED_BODY : CLOSED_BEFORE_ANY_BYTE;
            }
            return RESET;
        }
        if (e instanceof IOException && (m.contains("connection reset") || m.contains("broken pipe"))) {
            return RESET; // Netty's native epoll errors
        }
        return null;
    }

    /**
     * Requests by error label as the summary and the report print them, {@code http-503 57, reset 112}: a label and
     * its count, in the map's order.
     */
    public static String counts(Map<String, ? extends Number> byLabel) {
        StringBuilder b = new StringBuilder();
        byLabel.forEach((label, n) ->
                b.append(b.isEmpty() ? "" : ", ").append(label).append(' ').append(n));
        return b.toString();
    }
}
