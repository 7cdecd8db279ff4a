package org.rubis.client.wire;

/**
 * A capture that could not start or stop cleanly. The message is one line that says what to do (install
 * libpcap, grant the capture privilege, name an existing interface), so a run can print it, go on without
 * the capture and say so in its summary.
 */
@SuppressWarnings("serial") // an exception, Serializable only by inheritance: nothing serialises it
public final class CaptureException extends Exception {
    /** Why the capture failed, as a closed set so the caller can word its summary line. */
    public enum Kind {
        LIBPCAP_MISSING,
        NO_PRIVILEGE,
        NO_INTERFACE,
        FAILED
    }

    private final Kind kind;

    public CaptureException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
