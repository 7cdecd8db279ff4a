package org.rubis.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.rubis.analysis.io.AnalysisException;
import org.rubis.analysis.io.CsvStream;
import org.rubis.analysis.io.RunDirectory;
import org.rubis.analysis.stats.Latency;
import org.rubis.analysis.stats.Moments;
import org.rubis.analysis.stats.SortedStream;
import org.rubis.analysis.wire.WireCheck;

/**
 * Everything the report shows about one run, computed by streaming the logs: memory grows with
 * the number of seconds, connections and sessions, never with the number of requests.
 */
public final class RunAnalysis {

    /** The phase labels of the shared schema, in order. */
    public static final String[] PHASES = java.util.Arrays.stream(org.rubis.format.Phase.values()).map(org.rubis.format.Phase::label).toArray(String[]::new);
    /** Send instants are re-sorted within this window (well above any response time). */
    static final long REORDER_WINDOW_NS = 120_000_000_000L;

    /** One second of the run (by send instant). */
    public static final class Bin {
        public long requests;
        public long errors;
        public double sumNs;
        public long maxNs;
        final Histogram h = new Histogram(3_600_000_000_000L, 2); // 2 digits: one per second of the run, a plot's precision

        void add(long ns, boolean error) {
            requests++;
            if (error) {
                errors++;
            }
            sumNs += ns;
            maxNs = Math.max(maxNs, ns);
            h.recordValue(org.rubis.format.Percentiles.recorded(ns));
        }

        public double meanMs() { return requests == 0 ? 0 : sumNs / requests / 1e6; }
        public double p99Ms() { return requests == 0 ? 0 : org.rubis.format.Percentiles.valueAtMs(h, 99, 0, maxNs); }
    }

    /** A connection as the client used it. */
    static final class Conn {
        static final int MAX_TRACKED = 100_000;
        long first = Long.MAX_VALUE;
        long last;
        int requests;
        final java.util.Set<Long> sessions = new java.util.HashSet<>();
        int untracked; // sessions beyond MAX_TRACKED, counted on change (bounds memory)
        long lastSession = Long.MIN_VALUE;

        void session(long id) {
            if (sessions.size() < MAX_TRACKED) {
                sessions.add(id);
            } else if (id != lastSession && !sessions.contains(id)) {
                untracked++;
            }
            lastSession = id;
        }

        int distinctSessions() {
            return sessions.size() + untracked;
        }
    }

    /** Per-session state while its requests are read. */
    static final class SessionState {
        long lastDone;
        final java.util.Set<String> connections = new java.util.HashSet<>(2);
        int seen;
        int expected = -1;
        /** From sessions.csv; null when the session has no line there (still running when the run was killed). */
        String endReason;
        long start;
        /** From sessions.csv: when the client ended it (a run_ended session: the run's end, in its think time). */
        long end;
        long firstIntended = Long.MAX_VALUE;
        boolean lastInRun;
    }

    public final String name;
    public final JsonNode summary;
    public final Map<String, Map<String, Latency>> byPhaseState = new LinkedHashMap<>();
    public final Map<String, Latency> byPhase = new LinkedHashMap<>();
    /**
     * Response time from the intended send instant (the schedule) to the last byte, per phase: the
     * coordinated-omission-corrected figure (wrk2, HdrHistogram's expected-interval recording). It
     * differs from {@link #byPhase} (the service time, from the actual send) by the send lateness.
     */
    public final Map<String, Latency> byPhaseFromIntended = new LinkedHashMap<>();
    public final Latency overallFromIntended = new Latency();
    public final Map<String, Latency> byState = new TreeMap<>();
    public final Latency overall = new Latency();
    public final Latency lateness = new Latency();
    public final Latency think = new Latency();
    public final TreeMap<Long, Bin> timeline = new TreeMap<>();
    public final Map<String, Long> errorsByClass = new TreeMap<>();
    public final Map<Integer, Long> requestsPerConnection = new TreeMap<>();
    public final Map<Integer, Long> connectionsPerSession = new TreeMap<>();
    public final Map<Integer, Long> sessionsPerConnection = new TreeMap<>();
    public final TreeMap<Long, Integer> concurrentConnections = new TreeMap<>();
    public final TreeMap<Long, Integer> activeSessions = new TreeMap<>();
    public final Map<String, Long> sessionEnds = new TreeMap<>();
    /**
     * Gaps between consecutive request sends of the run phase only: a ramp changes the rate on purpose,
     * and a rate that changes within the window inflates the CoV that Principle B judges.
     */
    public final Moments requestInterArrival = new Moments();
    public final Moments sessionInterArrival = new Moments();
    public final List<long[]> gcPauses = new ArrayList<>(); // {end epoch ms, duration ms}
    public final List<String> notes = new ArrayList<>();
    /** Per file: {malformed lines skipped, first such line number}; in analysis.json as bad_lines. */
    public final Map<String, long[]> badLines = new TreeMap<>();
    public long t0Ns = Long.MAX_VALUE;
    public long tEndNs;
    public long requests;
    public long newConnections;
    public int distinctConnections;
    public long requestsWithoutConnection;
    public long sessions;
    /** Sessions seen in requests.csv only (no line in sessions.csv: still running when the run was killed); counted in {@link #sessions}. */
    public long sessionsOnlyInRequests;
    /**
     * The run's status: summary.json's ({@code complete}, {@code partial}, ...), or {@code incomplete} when it has none (killed)
     * or an unreadable one; {@link #stopReason} says which.
     */
    public String status;
    public boolean partial;
    public String stopReason;
    /** Where {@link #runSeconds} comes from, in words. */
    public String runSecondsSource = "";
    /** The run phase as actually run, epoch ns (0 when unknown). */
    public long runStartNs;
    public long runEndNs;
    /** Think times within sessions that began in the run phase, censored ones (still running at the end) counted by their elapsed part. */
    public final org.rubis.analysis.stats.CensoredMean runThinkCensored = new org.rubis.analysis.stats.CensoredMean();
    private final List<long[]> sessionIntervals = new ArrayList<>();
    /** Run-phase requests that opened their session (no think time before them within it). */
    private long runSessionFirstRequests;
    /** Whether sessions.csv was there: only then does a session without a line in it mean one still running at a kill. */
    private boolean sessionsCsvRead;
    private long logRunFirstSend = Long.MAX_VALUE;
    private long logRunLastSend = Long.MIN_VALUE;
    public long lateSendsOutsideWindow;
    public double runSeconds;
    public String backend = "";
    public ServerComparison server;
    /** The wire check, when the run directory holds a capture (RUN_DIR/capture.pcap); else null. */
    public WireCheck wire;
    /**
     * Whose clock the response times come from: "client", or "wire" when the run published wire-derived
     * times (summary.json response_time_clock, run --published-times wire): each request's time is then the
     * wire's from wire.csv (a request with none on the wire, e.g. a failed connect, keeps the client's).
     */
    public String clock = "client";
    /** The client's own times by phase, kept beside the published ones when those are the wire's. */
    public final Map<String, Latency> clientByPhase = new LinkedHashMap<>();
    private Map<String, Long> wireTimes;

    /** Client-reported versus server-measured times, request by request. */
    public static final class ServerComparison {
        public long matched;
        public long clientOnly;
        public long serverOnly;
        public long pathMismatches;
        public double clientMeanMs;
        public double serverMeanMs;
        public final Latency difference = new Latency(); // client response - server service, clipped at 0
        public long negative;                            // client shorter than server (clock or matching anomaly)
        public long serverRequests;
        public long serverConnections;

        /** Mean reported minus mean measured by the server, ms. */
        public double absoluteErrorMs() {
            return clientMeanMs - serverMeanMs;
        }
    }

    private RunAnalysis(RunDirectory d) {
        this.name = d.name();
        this.summary = d.summary();
        for (String p : PHASES) {
            byPhaseState.put(p, new TreeMap<>());
            byPhase.put(p, new Latency());
            byPhaseFromIntended.put(p, new Latency());
        }
    }

    private void wire(RunDirectory d) {
        if (!Files.isRegularFile(WireCheck.defaultPcap(d))) {
            return;
        }
        try {
            wire = WireCheck.run(d, null);
            wire.notes.forEach(n -> notes.add("wire check: " + n));
        } catch (AnalysisException e) {
            notes.add("wire check skipped: " + e.getMessage());
        }
    }

    public static RunAnalysis of(RunDirectory d) {
        RunAnalysis a = new RunAnalysis(d);
        Map<Long, SessionState> sessions = new HashMap<>();
        a.readSessions(d, sessions);
        a.readWireTimes(d);
        a.readRequests(d, sessions);
        a.readGc(d);
        if (d.hasServer()) {
            a.server = compare(d, a);
        } else if (Files.isDirectory(org.rubis.format.RunFiles.serverDir(d.dir()))) {
            a.notes.add("server/requests.csv is missing: no comparison with the server's log");
        }
        a.wire(d);
        if (a.summary == null) {
            a.status = "incomplete";
            a.partial = true;
            a.stopReason = d.summaryProblem() != null ? d.summaryProblem()
                    : "summary.json is missing: the run was killed before its end (or is still running); figures come from the logs alone";
            a.notes.add(a.stopReason);
        } else {
            a.status = a.summary.path("status").asText("unknown");
            a.partial = a.summary.path("partial").asBoolean(!"complete".equals(a.status));
            a.stopReason = a.summary.path("stop_reason").asText(a.status);
            if (a.partial) {
                a.notes.add("the run was stopped early (" + a.stopReason + "); the logs are complete up to then, and every rate is over the "
                        + String.format(java.util.Locale.ROOT, "%.3f s", a.runSeconds) + " of run phase actually run");
            }
        }
        if (a.sessionsOnlyInRequests > 0) {
            a.notes.add(a.sessionsOnlyInRequests + " sessions are in requests.csv but not in sessions.csv (still running when the run was killed): "
                    + "counted from requests.csv");
        }
        return a;
    }

    private void readWireTimes(RunDirectory d) {
        Path csv = d.dir().resolve(WireCheck.CSV);
        if (summary == null || !summary.path("response_time_clock").asText("").startsWith("wire")) {
            return;
        }
        if (!Files.isRegularFile(csv)) {
            notes.add("the run published wire times but " + csv.getFileName() + " is missing: the client's times are shown");
            return;
        }
        Map<String, Long> m = new HashMap<>();
        new CsvStream(csv).forEach(List.of("connection_id", "client_send_epoch_ns", "wire_response_ns", "match"), row -> {
            String w = row.get("wire_response_ns");
            if ("matched".equals(row.get("match")) && !w.isEmpty()) {
                m.put(row.get("connection_id") + " " + row.get("client_send_epoch_ns"), Long.parseLong(w));
            }
        });
        wireTimes = m;
        clock = "wire";
    }

    private void readSessions(RunDirectory d, Map<Long, SessionState> states) {
        if (!Files.isRegularFile(d.sessions())) {
            notes.add("sessions.csv is missing: no session statistics");
            return;
        }
        sessionsCsvRead = true;
        List<long[]> intervals = new ArrayList<>();
        List<Long> starts = new ArrayList<>();
        CsvStream s = new CsvStream(d.sessions());
        s.forEach(org.rubis.format.Columns.SESSIONS_REQUIRED, RunDirectory.SESSION_NUMERIC, row -> {
            String reason = row.get("end_reason");
            long start = row.getLong("start_epoch_ns");
            long end = row.getLong("end_epoch_ns");
            sessionEnds.merge(reason, 1L, Long::sum);
            if (reason.equals("dropped")) {
                return;
            }
            sessions++;
            starts.add(start);
            SessionState st = states.computeIfAbsent(row.getLong("session_id"), k -> new SessionState());
            st.expected = (int) Math.min(Integer.MAX_VALUE, row.getLong("requests"));
            st.endReason = reason;
            st.start = start;
            st.end = end;
            if (!reason.equals("run_ended")) { // an aborted session was active, in a think time, until the end: see readRequests
                intervals.add(new long[] {start, Math.max(start, end)});
            }
        });
        account("sessions.csv", s);
        if (s.empty()) {
            notes.add("no session statistics");
        }
        long[] sorted = starts.stream().mapToLong(Long::longValue).sorted().toArray();
        for (int i = 1; i < sorted.length; i++) {
            sessionInterArrival.add(sorted[i] - sorted[i - 1]);
        }
        sessionIntervals.addAll(intervals);
    }

    private void readRequests(RunDirectory d, Map<Long, SessionState> sessions) {
        Map<String, Conn> conns = new HashMap<>();
        long[] lastSend = {Long.MIN_VALUE};
        SortedStream sends = new SortedStream(REORDER_WINDOW_NS, t -> {
            if (lastSend[0] != Long.MIN_VALUE) {
                requestInterArrival.add(t - lastSend[0]);
            }
            lastSend[0] = t;
        });
        CsvStream csv = new CsvStream(d.requests());
        csv.forEach(org.rubis.format.Columns.REQUESTS_REQUIRED, RunDirectory.REQUEST_NUMERIC, row -> {
            String phase = row.get("phase");
            if (org.rubis.format.Phase.parse(phase) == null) {
                csv.reject(row); // not up, run or down: a damaged line, counted in bad_lines like any other
                return;
            }
            requests++;
            String state = row.get("state");
            String error = row.get("error");
            boolean failed = !error.isEmpty();
            long send = row.getLong("send_epoch_ns");
            long intended = row.getLong("intended_send_epoch_ns");
            long clientResp = row.getLong("response_ns");
            clientByPhase.computeIfAbsent(phase, k -> new Latency()).add(clientResp, failed);
            Long onWire = wireTimes == null ? null : wireTimes.get(row.get("connection_id") + " " + send);
            long resp = onWire != null ? onWire : clientResp;
            long done = send + clientResp;
            if (backend.isEmpty()) {
                backend = row.get("backend");
            }
            Latency ps = byPhaseState.computeIfAbsent(phase, k -> new TreeMap<>()).computeIfAbsent(state, k -> new Latency());
            ps.add(resp, failed);
            byPhase.computeIfAbsent(phase, k -> new Latency()).add(resp, failed);
            byState.computeIfAbsent(state, k -> new Latency()).add(resp, failed);
            overall.add(resp, failed);
            lateness.add(Math.max(0, send - intended), false);
            long fromIntended = Math.max(0, send - intended) + resp;
            byPhaseFromIntended.computeIfAbsent(phase, k -> new Latency()).add(fromIntended, failed);
            overallFromIntended.add(fromIntended, failed);
            if (failed) {
                errorsByClass.merge(error, 1L, Long::sum);
            }
            t0Ns = Math.min(t0Ns, send);
            tEndNs = Math.max(tEndNs, done);
            timeline.computeIfAbsent(send / 1_000_000_000L, k -> new Bin()).add(resp, failed);
            boolean inRun = org.rubis.format.Phase.RUN.label().equals(phase);
            if (inRun) {
                sends.add(send); // the measurement phase only: ramps change the rate on purpose
                logRunFirstSend = Math.min(logRunFirstSend, send);
                logRunLastSend = Math.max(logRunLastSend, send);
            }
            String connId = row.get("connection_id");
            long sid = row.getLong("session_id");
            if (connId.isEmpty()) {
                requestsWithoutConnection++;
            } else {
                Conn c = conns.computeIfAbsent(connId, k -> new Conn());
                c.first = Math.min(c.first, send);
                c.last = Math.max(c.last, done);
                c.requests++;
                c.session(sid);
            }
            if (Boolean.parseBoolean(row.get("new_connection"))) {
                newConnections++;
            }
            SessionState st = sessions.computeIfAbsent(sid, k -> new SessionState());
            if (st.seen == 0 && inRun) {
                runSessionFirstRequests++;
            }
            if (st.seen > 0) {
                long t = Math.max(0, intended - st.lastDone);
                think.add(t, false);
                if (st.lastInRun) { // a think time that began in the run phase (after a run-phase request)
                    runThinkCensored.finished(t);
                }
            }
            if (!connId.isEmpty()) {
                st.connections.add(connId);
            }
            st.lastDone = Math.max(st.lastDone, done);
            st.lastInRun = inRun;
            st.firstIntended = Math.min(st.firstIntended, intended);
            st.seen++;
            if (st.expected >= 0 && st.seen >= st.expected) {
                connectionsPerSession.merge(st.connections.size(), 1L, Long::sum);
                if (!"run_ended".equals(st.endReason)) {
                    sessions.remove(sid); // nothing more to learn; an aborted session's last think is censored (below)
                }
            }
        });
        sends.finish();
        lateSendsOutsideWindow = sends.late();
        account("requests.csv", csv);
        long end = tEndNs;
        for (SessionState st : sessions.values()) {
            if (st.seen > 0 && (st.expected < 0 || st.seen < st.expected)) {
                connectionsPerSession.merge(st.connections.size(), 1L, Long::sum);
            }
            if (sessionsCsvRead && st.endReason == null && st.seen > 0) {
                sessionsOnlyInRequests++; // killed: no line in sessions.csv; it was active until the end
                sessionIntervals.add(new long[] {st.firstIntended, end});
            } else if ("run_ended".equals(st.endReason)) {
                sessionIntervals.add(new long[] {st.start, Math.max(st.start, st.end > 0 ? st.end : end)});
            }
            // A session still running at the end (killed, or aborted by the run's end in a think time): its last
            // think time began but its next request never came. Left out, it would bias Z low.
            if (sessionsCsvRead && (st.endReason == null || "run_ended".equals(st.endReason)) && st.seen > 0 && st.lastInRun) {
                // cut at its own end (a run_ended session's, from sessions.csv), else where the log ends (killed)
                runThinkCensored.censored(("run_ended".equals(st.endReason) && st.end > 0 ? st.end : end) - st.lastDone);
            }
        }
        this.sessions += sessionsOnlyInRequests;
        sweep(sessionIntervals, activeSessions);
        distinctConnections = conns.size();
        List<long[]> intervals = new ArrayList<>(conns.size());
        for (Conn c : conns.values()) {
            requestsPerConnection.merge(c.requests, 1L, Long::sum);
            sessionsPerConnection.merge(c.distinctSessions(), 1L, Long::sum);
            intervals.add(new long[] {c.first, c.last});
        }
        sweep(intervals, concurrentConnections);
        runPhase();
        if (requests == 0) {
            notes.add("requests.csv has no requests");
        }
    }

    /** Number of intervals open at each whole second (epoch second -> count). */
    private static void sweep(List<long[]> intervals, TreeMap<Long, Integer> out) {
        if (intervals.isEmpty()) {
            return;
        }
        long[] opens = intervals.stream().mapToLong(x -> x[0]).sorted().toArray();
        long[] closes = intervals.stream().mapToLong(x -> x[1]).sorted().toArray();
        long from = opens[0] / 1_000_000_000L;
        long to = closes[closes.length - 1] / 1_000_000_000L + 1;
        int i = 0;
        int j = 0;
        for (long sec = from; sec <= to; sec++) {
            long t = sec * 1_000_000_000L;
            while (i < opens.length && opens[i] <= t) {
                i++;
            }
            while (j < closes.length && closes[j] <= t) {
                j++;
            }
            out.put(sec, i - j);
        }
    }

    private void readGc(RunDirectory d) {
        if (!Files.isRegularFile(d.gc())) {
            notes.add("client-gc.csv is missing: no GC pauses shown");
            return;
        }
        CsvStream gc = new CsvStream(d.gc());
        gc.forEach(List.of("end_epoch_ms", "duration_ms"), RunDirectory.GC_NUMERIC, row ->
                gcPauses.add(new long[] {row.getLong("end_epoch_ms"), row.getLong("duration_ms")}));
        account("client-gc.csv", gc);
    }

    /** Notes and bad-line counts of one file read. */
    private void account(String name, CsvStream csv) {
        notes.addAll(csv.notes(name));
        if (csv.badLines() > 0) {
            badLines.put(name, new long[] {csv.badLines(), csv.firstBadLine()});
        }
    }

    /**
     * Joins client and server logs request by request: on one connection requests are sequential,
     * so the k-th request the client sent on a connection is the k-th the server served on it. The
     * two files are read in step (both are in completion order), so memory stays bounded.
     */
    static ServerComparison compare(RunDirectory d, RunAnalysis a) {
        ServerComparison c = new ServerComparison();
        Map<String, ArrayDeque<Object[]>> pending = new HashMap<>();
        java.util.Set<String> serverConns = new java.util.HashSet<>();
        CsvStream serverCsv = new CsvStream(d.serverRequests());
        double[] sums = new double[2];
        try (CsvStream.Cursor server = serverCsv.open(org.rubis.format.Columns.SERVER_REQUESTS, RunDirectory.SERVER_REQUEST_NUMERIC)) {
            long[] lastServerCompletion = {Long.MIN_VALUE};
            boolean[] serverDone = {false};
            new CsvStream(d.requests()).forEach(org.rubis.format.Columns.REQUESTS_REQUIRED, RunDirectory.REQUEST_NUMERIC, row -> {
                String conn = row.get("connection_id");
                long clientDone = row.getLong("send_epoch_ns") + row.getLong("response_ns");
                while (!serverDone[0] && lastServerCompletion[0] <= clientDone + 2_000_000_000L) {
                    CsvStream.Row s = server.next();
                    if (s == null) {
                        serverDone[0] = true;
                        break;
                    }
                    c.serverRequests++;
                    lastServerCompletion[0] = s.getLong("completion_epoch_ns");
                    serverConns.add(s.get("connection_id"));
                    pending.computeIfAbsent(s.get("connection_id"), k -> new ArrayDeque<>())
                           .add(new Object[] {s.getLong("service_ns"), s.get("path")});
                }
                ArrayDeque<Object[]> q = conn.isEmpty() ? null : pending.get(conn);
                Object[] match = q == null ? null : take(q, row.get("path"));
                if (match == null) {
                    c.clientOnly++;
                    return;
                }
                c.matched++;
                long clientNs = row.getLong("response_ns");
                long serverNs = (Long) match[0];
                if (!row.get("path").equals(match[1])) {
                    c.pathMismatches++;
                }
                sums[0] += clientNs;
                sums[1] += serverNs;
                long diff = clientNs - serverNs;
                if (diff < 0) {
                    c.negative++;
                }
                c.difference.add(Math.max(0, diff), false);
            });
            CsvStream.Row s;
            while ((s = server.next()) != null) {
                c.serverRequests++;
                c.serverOnly++;
                serverConns.add(s.get("connection_id"));
            }
        } catch (java.io.IOException e) {
            throw new AnalysisException(d.serverRequests() + ": cannot read: " + e.getMessage());
        }
        for (ArrayDeque<Object[]> q : pending.values()) {
            c.serverOnly += q.size();
        }
        a.account("server/requests.csv", serverCsv);
        if (serverCsv.empty()) {
            return null;
        }
        c.serverConnections = serverConns.size();
        c.clientMeanMs = c.matched == 0 ? 0 : sums[0] / c.matched / 1e6;
        c.serverMeanMs = c.matched == 0 ? 0 : sums[1] / c.matched / 1e6;
        return c;
    }

    /**
     * The server record for a client request on the same connection: normally the oldest; two users
     * handing a shared connection to each other may log in the other order, so a record with the
     * same path a few places later is preferred.
     */
    private static Object[] take(ArrayDeque<Object[]> q, String path) {
        int i = 0;
        for (java.util.Iterator<Object[]> it = q.iterator(); it.hasNext() && i < 8; i++) {
            Object[] e = it.next();
            if (path.equals(e[1])) {
                it.remove();
                return e;
            }
        }
        return q.poll();
    }

    // ------------------------------------------------------------------ derived figures

    /**
     * The run phase's length as actually run: summary.json's run_seconds (a stopped run's is shorter than planned), the
     * planned length from an older summary of a complete run, else the span of the run-phase requests in the logs.
     */
    private void runPhase() {
        boolean fromLogs = logRunFirstSend <= logRunLastSend;
        JsonNode clockNode = summary == null ? null : summary.path("clock");
        if (summary != null && summary.has("run_seconds")) {
            runSeconds = summary.path("run_seconds").asDouble();
            runSecondsSource = "summary.json run_seconds (the run phase as run)";
        } else if (summary != null && summary.has("phases_ms") && !summary.path("partial").asBoolean(false)) {
            runSeconds = summary.path("phases_ms").path("run").asDouble() / 1000;
            runSecondsSource = "summary.json phases_ms.run (planned; the run was complete)";
        } else if (fromLogs) {
            // n sends span n - 1 gaps: the span alone would put one request too many in it (a rate too high by n / (n - 1))
            long n = byPhase.get("run").count();
            runSeconds = (logRunLastSend - logRunFirstSend) / 1e9 * (n > 1 ? (double) n / (n - 1) : 1);
            runSecondsSource = "the logs: first to last run-phase request sent, times n / (n - 1) for the gap after the last";
        } else {
            runSeconds = 0;
            runSecondsSource = "no run-phase request";
        }
        long start = clockNode != null && clockNode.path("run_start_epoch_ns").asLong(0) > 0 ? clockNode.path("run_start_epoch_ns").asLong()
                : fromLogs ? logRunFirstSend : 0;
        runStartNs = start;
        runEndNs = start == 0 ? 0 : start + (long) (runSeconds * 1e9);
    }

    /** Run-phase throughput: successful requests (no error) per second of run phase actually run, as summary.json's throughput_rps. */
    public double throughput() {
        Latency run = byPhase.get("run");
        return runSeconds > 0 ? (run.count() - run.errors()) / runSeconds : 0;
    }

    /** Run-phase requests attempted (successful or not) per second of run phase actually run, as summary.json's attempted_rps. */
    public double attemptedRps() {
        return runSeconds > 0 ? byPhase.get("run").count() / runSeconds : 0;
    }

    /** The mean number of active sessions over the run phase (1 s samples); over the whole run when its phase is unknown. */
    public double meanActiveSessionsInRun() {
        long from = runStartNs / 1_000_000_000L;
        long to = runEndNs / 1_000_000_000L;
        var window = runEndNs > runStartNs ? activeSessions.subMap(from, true, to, true) : activeSessions;
        return window.values().stream().mapToInt(Integer::intValue).average().orElse(0);
    }

    /**
     * Little's law for the run phase as the client's summary defines it, N / (X (R + Z)): the client's own figures when
     * summary.json has them, else an estimate from the logs (see {@link LittleLaw}).
     */
    public LittleLaw little() {
        double r = byPhase.get("run").meanMs();
        String arrivals = summary == null ? "closed" : summary.path("arrivals").asText("closed");
        if (!arrivals.equals("closed")) {
            return LittleLaw.notApplicable(arrivals);
        }
        if (summary != null && summary.path("stationarity").has("little_ratio")) {
            return LittleLaw.fromSummary(summary, summary.path("response_time_ms").path("run").path("mean").asDouble(r));
        }
        // A session's first request closes no think time within it: with N the active sessions, X counts the others.
        long requests = byPhase.get("run").count();
        double x = runSeconds > 0 ? Math.max(0, requests - runSessionFirstRequests) / runSeconds : 0;
        return LittleLaw.fromLogs(meanActiveSessionsInRun(), x, r, runThinkCensored, runSeconds, requests);
    }

    /** Plain-words verdict of Gunther's Principle B on the session inter-arrival CoV. */
    public static String arrivalVerdict(Moments m) {
        if (m.count() < 30) {
            return "too few inter-arrivals (" + m.count() + ") to judge";
        }
        double cov = m.cov();
        if (cov < 0.05) {
            return String.format(java.util.Locale.ROOT, "deterministic (CoV %.2f)", cov);
        }
        if (cov < 0.9) {
            return String.format(java.util.Locale.ROOT, "closed-loop, CoV < 1 (%.2f): arrivals are throttled by completions", cov);
        }
        if (cov <= 1.1) {
            return String.format(java.util.Locale.ROOT, "consistent with Poisson (CoV %.2f)", cov);
        }
        return String.format(java.util.Locale.ROOT, "burstier than Poisson (CoV %.2f)", cov);
    }

    /** The summary's client-health object, or null. */
    public JsonNode health() {
        return summary == null ? null : summary.get("client_health");
    }

}
