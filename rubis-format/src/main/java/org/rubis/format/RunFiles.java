package org.rubis.format;

import java.nio.file.Path;

/**
 * The names of the files in a run directory (docs/RUN-DIRECTORY.md): written by rubis-client and
 * the embedded server, read by rubis-analysis. One place, so that writer and reader cannot drift.
 */
public final class RunFiles {

    public static final String REQUESTS = "requests.csv";
    public static final String SESSIONS = "sessions.csv";
    public static final String CLIENT_HEALTH = "client-health.csv";
    public static final String CLIENT_GC = "client-gc.csv";
    public static final String SUMMARY_JSON = "summary.json";
    public static final String SUMMARY_TXT = "summary.txt";
    public static final String CLIENT_LOG = "client.log";
    /** The embedded server's own directory inside the run directory. */
    public static final String SERVER_DIR = "server";
    /** The server's ground truth, one line per request (inside {@link #SERVER_DIR}). */
    public static final String SERVER_REQUESTS = "requests.csv";
    public static final String SERVER_STATS = "stats.json";
    /** The server's connection accounting, one line per connection (inside {@link #SERVER_DIR}). */
    public static final String SERVER_CONNECTIONS = "connections.csv";
    /** run --capture: the packet capture (libpcap's own format). */
    public static final String CAPTURE_PCAP = "capture.pcap";
    /** run --capture: packets written and kernel/interface drops of the capture. */
    public static final String CAPTURE_STATS = "capture-stats.json";
    /** The wire check: one line per request seen on the wire (written by the wire check). */
    public static final String WIRE_CSV = "wire.csv";
    /** run --probe: the reference probe's requests, one line each. */
    public static final String PROBE_CSV = "probe.csv";
    /**
     * The query that marks the reference probe's requests ({@code GET /PHP/index.html?rubis_probe=1}), so that
     * the server's log and the wire can tell them from the workload's.
     */
    public static final String PROBE_QUERY = "rubis_probe=1";
    /** run --heap-per-user: the client's class histogram before the first request. */
    public static final String HEAP_HISTOGRAM_BEFORE = "heap-histogram-before.txt";
    /** run --heap-per-user: the client's class histogram with every user connected and thinking. */
    public static final String HEAP_HISTOGRAM_USERS = "heap-histogram-users.txt";
    /** run --heap-per-user: the client's class histogram once the sessions have ended. */
    public static final String HEAP_HISTOGRAM_IDLE = "heap-histogram-after.txt";

    private RunFiles() {}

    public static Path requests(Path run) {
        return run.resolve(REQUESTS);
    }

    public static Path sessions(Path run) {
        return run.resolve(SESSIONS);
    }

    public static Path clientHealth(Path run) {
        return run.resolve(CLIENT_HEALTH);
    }

    public static Path clientGc(Path run) {
        return run.resolve(CLIENT_GC);
    }

    public static Path summaryJson(Path run) {
        return run.resolve(SUMMARY_JSON);
    }

    public static Path summaryText(Path run) {
        return run.resolve(SUMMARY_TXT);
    }

    public static Path serverDir(Path run) {
        return run.resolve(SERVER_DIR);
    }

    public static Path serverRequests(Path run) {
        return serverDir(run).resolve(SERVER_REQUESTS);
    }

    public static Path probe(Path run) {
        return run.resolve(PROBE_CSV);
    }

    public static Path serverConnections(Path run) {
        return serverDir(run).resolve(SERVER_CONNECTIONS);
    }

    public static Path serverStats(Path run) {
        return serverDir(run).resolve(SERVER_STATS);
    }

    public static Path heapHistogramBefore(Path run) {
        return run.resolve(HEAP_HISTOGRAM_BEFORE);
    }

    public static Path heapHistogramUsers(Path run) {
        return run.resolve(HEAP_HISTOGRAM_USERS);
    }

    public static Path heapHistogramIdle(Path run) {
        return run.resolve(HEAP_HISTOGRAM_IDLE);
    }
}
