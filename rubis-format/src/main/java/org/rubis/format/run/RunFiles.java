package org.rubis.format.run;

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
    /** A child JVM's GC log (-Xlog:gc*), beside its run's files. */
    public static final String GC_LOG = "gc.log";
    /** The end-of-run watch: sessions still running after the end, and the busiest threads. */
    public static final String END_OF_RUN_STALL = "end-of-run-stall.txt";
    /** The end-of-run watch: the JVM's thread dump with virtual threads. */
    public static final String END_OF_RUN_THREADS = "end-of-run-threads.txt";
    /** The embedded server's own directory inside the run directory. */
    public static final String SERVER_DIR = "server";
    /** The server's ground truth, one line per request (inside {@link #SERVER_DIR}). */
    public static final String SERVER_REQUESTS = "requests.csv";

    public static final String SERVER_STATS = "stats.json";
    /** The server's connection accounting, one line per connection (inside {@link #SERVER_DIR}). */
    public static final String SERVER_CONNECTIONS = "connections.csv";
    /** The embedded server's console output (inside {@link #SERVER_DIR}). */
    public static final String SERVER_LOG = "server.log";
    /** The database policy the client hands to the embedded server (inside {@link #SERVER_DIR}). */
    public static final String SERVER_PROPERTIES = "rubis-server.properties";
    /** run --capture: the packet capture (libpcap's own format). */
    public static final String CAPTURE_PCAP = "capture.pcap";
    /** run --capture: packets written and kernel/interface drops of the capture. */
    public static final String CAPTURE_STATS = "capture-stats.json";
    /** The wire check: one line per request seen on the wire (written by the wire check). */
    public static final String WIRE_CSV = "wire.csv";
    /** The wire check: one line per connection seen on the wire. */
    public static final String WIRE_CONNECTIONS_CSV = "wire-connections.csv";
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

    /** run --shards N: shard I's console output, in its directory {@code shard-I}. */
    public static final String SHARD_CONSOLE = "console.txt";
    /**
     * run --shards N: written by shard I, in {@code shard-I}, once it is ready to start (everything before t = 0 done);
     * removed when it has read its start instant.
     */
    public static final String SHARD_READY = "ready";
    /**
     * run --shards N: the common start instant (ISO-8601), written by the parent into every {@code shard-I} once all are
     * ready; removed by the shard once read.
     */
    public static final String SHARD_START_AT = "start-at";
    /** A merged run: each shard's summary, GC log and server statistics, in {@code shards/shard-I}. */
    public static final String MERGED_SHARDS_DIR = "shards";
    /** A merged run: a shard's server/stats.json, as copied into {@code shards/shard-I}. */
    public static final String MERGED_SHARD_SERVER_STATS = "server-stats.json";
    /** rubis-analysis report: the report's figures as JSON. */
    public static final String ANALYSIS_JSON = "analysis.json";
    /** rubis-analysis report: the report itself (its default place). */
    public static final String REPORT_HTML = "report.html";
    /** rubis-analysis report: the response times as an HdrHistogram interval log. */
    public static final String RESPONSE_TIMES_HLOG = "response-times.hlog";
    /**
     * Space held on the run directory's disk while the run logs, given back when a write fails (the disk is full) and
     * at the end of the logs: the summary and the closing lines of the other files still fit.
     */
    public static final String DISK_RESERVE = ".disk-reserve.tmp";

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

    public static Path gcLog(Path run) {
        return run.resolve(GC_LOG);
    }

    public static Path serverDir(Path run) {
        return run.resolve(SERVER_DIR);
    }

    public static Path serverLog(Path run) {
        return serverDir(run).resolve(SERVER_LOG);
    }

    /** Shard {@code index}'s run directory inside the directory of a run --shards N. */
    public static Path shardDir(Path run, int index) {
        return run.resolve("shard-" + index);
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
