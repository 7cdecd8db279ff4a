package org.rubis.format.fault;

import java.util.Locale;

/**
 * The misbehaviours the server can inject. Each has a spec name, an optional parameter with a
 * default, and a scope: most act on one request; {@link #STOP_ACCEPTING} acts on the listener for
 * a time window; {@link #DIE} ends the process (on a request or at a time).
 */
public enum FaultKind {
    /** Read the request and never answer; the connection stays open until the client closes it. */
    HANG(0, null),
    /** Answer correctly after {@code =MS} milliseconds (default 2000). */
    DELAY(2000, "milliseconds"),
    /** Send the headers and half the body, then reset the connection (RST). */
    RESET(0, null),
    /** Announce the full Content-Length, send half the body, then close (FIN). */
    TRUNCATE(0, null),
    /** Answer correctly with "Connection: keep-alive", then close the connection after {@code =MS} ms (default 0). */
    IDLE_CLOSE(0, "milliseconds"),
    /** Answer with HTTP status {@code =CODE} (default 503). */
    STATUS(503, "HTTP status 400..599"),
    /** Answer bytes that are not HTTP, then close. */
    GARBAGE(0, null),
    /** Answer 200 with a body of {@code =MB} megabytes (default 20). */
    LARGE(20, "megabytes 1.." + FaultKind.LARGE_MAX_MB),
    /** Stop accepting connections (they wait in the kernel's backlog) during the window. */
    STOP_ACCEPTING(0, null),
    /** Exit the server process at once (no reply to the request, no shutdown of connections). */
    DIE(0, null);

    /**
     * The largest {@code large} body, in MiB. The server holds the body whole (and its event model copies it to a direct
     * buffer per reply, within its 1 GB default heap), and so do the client's backends; 64 MiB reaches every backend
     * whole from both server models. 1024 MiB, the former bound, made the server drop the request with no ground-truth
     * line (out of memory) and, on a big server heap, the client fail.
     */
    public static final int LARGE_MAX_MB = 64;

    private final long defaultParam;
    private final String paramUnit;

    FaultKind(long defaultParam, String paramUnit) {
        this.defaultParam = defaultParam;
        this.paramUnit = paramUnit;
    }

    /** The name used in a spec and in the logs, e.g. {@code idle-close}. */
    public String specName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public long defaultParam() {
        return defaultParam;
    }

    /** What the parameter means, or null when the kind takes none. */
    public String paramUnit() {
        return paramUnit;
    }

    /** True when the fault acts on one request (all but {@link #STOP_ACCEPTING}). */
    public boolean perRequest() {
        return this != STOP_ACCEPTING;
    }

    static FaultKind ofSpecName(String s) {
        for (FaultKind k : values()) {
            if (k.specName().equals(s)) {
                return k;
            }
        }
        return null;
    }
}
