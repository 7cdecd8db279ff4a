package org.rubis.format;

import java.util.List;

/**
 * The columns of the run directory's CSV files, in the order the writers write them; readers find
 * columns by name (so a newer writer may add columns at the end). {@link #header} gives the line a
 * writer puts first.
 */
public final class Columns {

    /** requests.csv: one line per request. */
    public static final List<String> REQUESTS = List.of("session_id", "user", "request_index", "state", "path", "phase",
            "intended_send_epoch_ns", "send_epoch_ns", "ttfb_ns", "response_ns", "bytes", "status", "error", "connection_id",
            "new_connection", "backend", "images", "image_bytes", "retries");

    /**
     * The columns of requests.csv a reader needs (runs written before images were logged lack
     * images and image_bytes; before stale-connection retries were logged, retries).
     */
    public static final List<String> REQUESTS_REQUIRED = REQUESTS.subList(0, 16);

    /** sessions.csv: one line per session, including dropped arrivals. */
    public static final List<String> SESSIONS = List.of("session_id", "emulated_user", "user", "intended_start_epoch_ns", "start_epoch_ns",
            "end_epoch_ns", "requests", "errors", "end_reason");

    /** The columns of sessions.csv the analysis reads. */
    public static final List<String> SESSIONS_REQUIRED = List.of("session_id", "intended_start_epoch_ns", "start_epoch_ns", "end_epoch_ns",
            "requests", "end_reason");

    /**
     * client-health.csv: one sample a second. The host columns (whole machine, from /proc: busy
     * cores, cores used by other processes than the client, steal, runnable threads, load average)
     * and the embedded server's CPU came later: older runs lack them; empty when unknown.
     */
    public static final List<String> CLIENT_HEALTH = List.of("epoch_ms", "cpu_cores", "heap_used_bytes", "heap_max_bytes", "threads",
            "active_sessions", "requests", "host_cpu_cores", "host_other_cpu_cores", "host_steal_cores", "procs_running", "load1",
            "server_cpu_cores", "open_fds");

    /**
     * client-gc.csv: one line per collection; {@code heap_after_bytes} is the used heap (all heap
     * pools) when the collection ended, i.e. what survived it: the figure a leak shows in. It came
     * later: older runs lack it.
     */
    public static final List<String> CLIENT_GC = List.of("end_epoch_ms", "duration_ms", "gc", "action", "cause", "heap_after_bytes");

    /** server/requests.csv: the embedded server's ground truth, one line per request. */
    public static final List<String> SERVER_REQUESTS = List.of("connection_id", "arrival_epoch_ns", "completion_epoch_ns", "service_ns",
            "interaction", "status", "bytes", "path");

    /**
     * probe.csv: the reference probe's requests (run --probe), one line each; {@code warmup} lines are
     * excluded from its statistics. Times from System.nanoTime() around the write and the read loop.
     */
    public static final List<String> PROBE = List.of("send_epoch_ns", "connection_id", "path", "status", "ttfb_ns", "response_ns", "bytes",
            "warmup", "error");

    private Columns() {}

    /** The header line (without the newline). */
    public static String header(List<String> columns) {
        return String.join(",", columns);
    }
}
