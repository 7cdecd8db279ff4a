package org.rubis.format.run;

import java.util.List;

/**
 * The columns of the run directory's CSV files, in the order the writers write them; readers find
 * columns by name (so a newer writer may add columns at the end). {@link #header} gives the line a
 * writer puts first.
 */
public final class Columns {

    /** requests.csv: one line per request. */
    public static final List<String> REQUESTS = List.of(
            "session_id",
            "user",
            "request_index",
            "state",
            "path",
            "phase",
            "intended_send_epoch_ns",
            "send_epoch_ns",
            "ttfb_ns",
            "response_ns",
            "bytes",
            "status",
            "error",
            "connection_id",
            "new_connection",
            "backend",
            "images",
            "image_bytes",
            "retries",
            "interval",
            "local_address");

    /**
     * The columns the kernel backend's requests.csv has after {@link #REQUESTS} (docs/RUN-DIRECTORY.md): which clock
     * the published times come from, the user-space marks beside the kernel's, and the kernel's four stamps. The other
     * backends' files end at {@code interval}.
     */
    public static final List<String> REQUESTS_KERNEL = List.of(
            "clock",
            "user_send_epoch_ns",
            "user_ttfb_ns",
            "user_response_ns",
            "kernel_tx_first_epoch_ns",
            "kernel_tx_last_epoch_ns",
            "kernel_rx_first_epoch_ns",
            "kernel_rx_last_epoch_ns");

    /** requests.csv of the kernel backend: {@link #REQUESTS}, then {@link #REQUESTS_KERNEL}. */
    public static final List<String> REQUESTS_WITH_KERNEL = concat(REQUESTS, REQUESTS_KERNEL);

    private static List<String> concat(List<String> a, List<String> b) {
        java.util.ArrayList<String> all = new java.util.ArrayList<>(a);
        all.addAll(b);
        return List.copyOf(all);
    }

    /**
     * The columns of requests.csv a reader needs (runs written before images were logged lack
     * images and image_bytes; before stale-connection retries were logged, retries; before load profiles, interval;
     * before connections had a serial, local_address, their connection_id then being the address:port).
     */
    public static final List<String> REQUESTS_REQUIRED = REQUESTS.subList(0, 16);

    /** sessions.csv: one line per session, including dropped arrivals. */
    public static final List<String> SESSIONS = List.of(
            "session_id",
            "emulated_user",
            "user",
            "intended_start_epoch_ns",
            "start_epoch_ns",
            "end_epoch_ns",
            "requests",
            "errors",
            "end_reason");

    /** The columns of sessions.csv the analysis reads. */
    public static final List<String> SESSIONS_REQUIRED = List.of(
            "session_id", "intended_start_epoch_ns", "start_epoch_ns", "end_epoch_ns", "requests", "end_reason");

    /**
     * client-health.csv: one sample a second. The host columns (whole machine, from /proc: busy
     * cores, cores used by other processes than the client, steal, runnable threads, load average)
     * and the embedded server's CPU came later: older runs lack them; empty when unknown.
     */
    public static final List<String> CLIENT_HEALTH = List.of(
            "epoch_ms",
            "cpu_cores",
            "heap_used_bytes",
            "heap_max_bytes",
            "threads",
            "active_sessions",
            "requests",
            "host_cpu_cores",
            "host_other_cpu_cores",
            "host_steal_cores",
            "procs_running",
            "load1",
            "server_cpu_cores",
            "open_fds");

    /**
     * client-gc.csv: one line per collection; {@code heap_after_bytes} is the used heap (all heap
     * pools) when the collection ended, i.e. what survived it: the figure a leak shows in. It came
     * later: older runs lack it.
     */
    public static final List<String> CLIENT_GC =
            List.of("end_epoch_ms", "duration_ms", "gc", "action", "cause", "heap_after_bytes");

    /** server/requests.csv: the embedded server's ground truth, one line per request. */
    public static final List<String> SERVER_REQUESTS = List.of(
            "connection_id",
            "arrival_epoch_ns",
            "completion_epoch_ns",
            "service_ns",
            "interaction",
            "status",
            "bytes",
            "path");

    /**
     * probe.csv: the reference probe's requests (run --probe), one line each; {@code warmup} lines are
     * excluded from its statistics. Times from System.nanoTime() around the write and the read loop.
     */
    public static final List<String> PROBE = List.of(
            "send_epoch_ns", "connection_id", "path", "status", "ttfb_ns", "response_ns", "bytes", "warmup", "error");

    /**
     * wire.csv: one line per request seen on the packet capture (the wire check), then the client's lines
     * the wire never saw. {@code send_side_ns} (first request packet minus the client's send mark) and
     * {@code receive_side_ns} (the client's end mark minus the last response packet) split
     * {@code response_minus_wire_ns} into its two sides; they came later (older files lack them).
     * {@code connection_id} is the client's for the request (requests.csv's, empty for a request only the wire saw),
     * {@code local_address} the connection's client side on the wire; older files lack the latter, their
     * {@code connection_id} being that address:port.
     */
    public static final List<String> WIRE = List.of(
            "connection_id",
            "wire_connection",
            "request_on_connection",
            "method",
            "path",
            "status",
            "wire_request_epoch_ns",
            "wire_first_byte_epoch_ns",
            "wire_last_byte_epoch_ns",
            "wire_ttfb_ns",
            "wire_response_ns",
            "request_bytes",
            "response_bytes",
            "retransmissions",
            "new_connection",
            "backend",
            "client_send_epoch_ns",
            "client_ttfb_ns",
            "client_response_ns",
            "ttfb_minus_wire_ns",
            "response_minus_wire_ns",
            "server_service_ns",
            "match",
            "send_side_ns",
            "receive_side_ns",
            "local_address");

    private Columns() {}

    /** The header line (without the newline). */
    public static String header(List<String> columns) {
        return String.join(",", columns);
    }
}
