package org.rubis.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.function.Consumer;
import org.rubis.analysis.io.AnalysisException;
import org.rubis.analysis.io.CsvStream;
import org.rubis.analysis.io.RunDirectory;
import org.rubis.analysis.stats.Moments;
import org.rubis.analysis.wire.WireCheck;
import org.rubis.format.run.Phase;
import org.rubis.format.run.RunFiles;
import org.rubis.format.schema.SummaryJson;
import org.rubis.format.stats.LatencyStats;

/**
 * Everything the report shows about one run, computed by streaming the logs (memory grows with the number of
 * seconds, connections and sessions, never with the number of requests), and fixed once computed: how the run ended
 * ({@link RunEnding}), its response times ({@link ResponseTimes}), sessions ({@link SessionFigures}), connections
 * ({@link ConnectionFigures}), run phase ({@link RunWindow}), GC pauses, the join with the server's log
 * ({@link ServerComparison}) and the wire check, with what the readers noted on the way.
 */
public final class RunAnalysis {

    private final String name;
    private final JsonNode summary;
    private final RunEnding ending;
    private final long requests;
    private final String backend;
    private final ResponseTimes times;
    private final NavigableMap<Long, LatencyStats> timeline;
    private final ConnectionFigures connections;
    private final SessionFigures sessions;
    /**
     * Gaps between consecutive request sends of the run phase only: a ramp changes the rate on purpose,
     * and a rate that changes within the window inflates the CoV that Principle B judges.
     */
    private final Moments requestInterArrival;

    private final long lateSendsOutsideWindow;
    private final RunWindow window;
    /** {end epoch ms, duration ms} of each client GC pause. */
    private final List<long[]> gcPauses;

    private final ServerComparison server;
    private final WireCheck wire;
    private final List<String> notes;
    private final Map<String, long[]> badLines;
    private final long serverPeakConnections;

    private RunAnalysis(
            RunDirectory d,
            RunEnding ending,
            RequestsReader.Result r,
            RunWindow window,
            List<long[]> gcPauses,
            ServerComparison server,
            WireCheck wire,
            Notes notes) {
        this.name = d.name();
        this.summary = d.summary();
        this.ending = ending;
        this.requests = r.requests();
        this.backend = r.backend();
        this.times = r.times();
        this.timeline = r.timeline();
        this.connections = r.connections();
        this.sessions = r.sessions();
        this.requestInterArrival = r.interArrival();
        this.lateSendsOutsideWindow = r.lateSends();
        this.window = window;
        this.gcPauses = Collections.unmodifiableList(gcPauses);
        this.server = server;
        this.wire = wire;
        this.notes = Collections.unmodifiableList(notes.notes);
        this.badLines = Collections.unmodifiableMap(notes.badLines);
        this.serverPeakConnections = serverPeakConnections(d.dir(), summary);
    }

    /** The embedded server's most connections open at once: the summary's copy of its stats.json, else the file. */
    private static long serverPeakConnections(Path dir, JsonNode summary) {
        JsonNode copy = summary == null ? null : summary.path("server").get("max_concurrent_connections");
        if (copy != null) {
            return copy.asLong();
        }
        Path stats = RunFiles.serverStats(dir);
        try {
            return Files.isRegularFile(stats)
                    ? new ObjectMapper()
                            .readTree(stats.toFile())
                            .path("max_concurrent_connections")
                            .asLong(-1)
                    : -1;
        } catch (IOException e) {
            return -1; // an unreadable stats.json: the figure is unknown, as without a server
        }
    }

    /**
     * The most connections open at once, by one definition wherever it is shown (the summary's server line, the
     * report, the comparison): the embedded server's own count, from accept to close. -1 for an external target,
     * whose connections only the client's log shows ({@link ConnectionFigures#maxConcurrent}, connections carrying
     * requests, a different figure under its own name).
     */
    public long peakOpenConnections() {
        return serverPeakConnections;
    }

    /**
     * Reads the run directory: sessions.csv, the wire's times, requests.csv, client-gc.csv, the server's log, the
     * capture.
     */
    public static RunAnalysis of(RunDirectory d) {
        return of(d, row -> {});
    }

    /**
     * {@link #of(RunDirectory)}, handing each row of requests.csv to {@code alsoEachRequest} too (a log written from
     * the same pass, not a second one over a file of gigabytes).
     */
    public static RunAnalysis of(RunDirectory d, Consumer<CsvStream.Row> alsoEachRequest) {
        Notes notes = new Notes();
        SessionFigures.Tracker sessions = new SessionFigures.Tracker();
        sessions.readSessions(d, notes);
        RequestsReader.Result r = RequestsReader.read(d, sessions, wireTimes(d, notes), notes, alsoEachRequest);
        RunWindow window = RunWindow.of(d.summary(), r.times().run().count(), r.runFirstSend(), r.runLastSend());
        if (r.requests() == 0) {
            notes.add("requests.csv has no requests");
        }
        List<long[]> gc = gcPauses(d, notes);
        ServerComparison server = null;
        if (d.hasServer()) {
            server = ServerComparison.of(d, notes);
        } else if (Files.isDirectory(RunFiles.serverDir(d.dir()))) {
            notes.add("server/requests.csv is missing: no comparison with the server's log");
        }
        WireCheck wire = wire(d, notes);
        RunEnding ending = RunEnding.of(d.summary(), d.summaryProblem());
        if (ending.incomplete()) {
            notes.add(ending.stopReason());
        } else if (ending.partial()) {
            notes.add("the run was stopped early (" + ending.stopReason()
                    + "); the logs are complete up to then, and every rate is over the "
                    + String.format(Locale.ROOT, "%.3f s", window.seconds()) + " of run phase actually run");
        }
        if (r.sessions().onlyInRequests() > 0) {
            long[] bad = notes.badLines.get("sessions.csv");
            // A session whose line was skipped as malformed was not still running: say which can be the case.
            String why = bad == null
                    ? "still running when the run was killed"
                    : bad[0] + " malformed line(s) of sessions.csv were skipped (the first at line " + bad[1]
                            + "), or the run was killed while they ran";
            notes.add(r.sessions().onlyInRequests() + " sessions are in requests.csv but not in sessions.csv (" + why
                    + "): counted from requests.csv");
        }
        return new RunAnalysis(d, ending, r, window, gc, server, wire, notes);
    }

    /** The wire's per-request times when the run published them (summary.json response_time_clock), else null. */
    private static Map<String, Long> wireTimes(RunDirectory d, Notes notes) {
        SummaryJson summary = d.record();
        if (summary == null
                || summary.responseTimeClock() == null
                || !summary.responseTimeClock().startsWith(ResponseTimes.WIRE_CLOCK)) {
            return null;
        }
        Path csv = d.dir().resolve(RunFiles.WIRE_CSV);
        if (!Files.isRegularFile(csv)) {
            notes.add("the run published wire times but " + csv.getFileName()
                    + " is missing: the client's times are shown");
            return null;
        }
        return RequestsReader.wireTimes(csv);
    }

    private static List<long[]> gcPauses(RunDirectory d, Notes notes) {
        List<long[]> pauses = new ArrayList<>();
        if (!Files.isRegularFile(d.gc())) {
            notes.add("client-gc.csv is missing: no GC pauses shown");
            return pauses;
        }
        CsvStream gc = new CsvStream(d.gc());
        gc.forEach(
                List.of("end_epoch_ms", "duration_ms"),
                RunDirectory.GC_NUMERIC,
                row -> pauses.add(new long[] {row.getLong("end_epoch_ms"), row.getLong("duration_ms")}));
        notes.account("client-gc.csv", gc);
        return pauses;
    }

    /** The wire check, when the run directory holds a capture (RUN_DIR/capture.pcap); else null. */
    private static WireCheck wire(RunDirectory d, Notes notes) {
        if (!Files.isRegularFile(WireCheck.defaultPcap(d))) {
            return null;
        }
        try {
            WireCheck wire = WireCheck.run(d, null);
            wire.notes.forEach(n -> notes.add("wire check: " + n));
            return wire;
        } catch (AnalysisException e) {
            notes.add("wire check skipped: " + e.getMessage());
            return null;
        }
    }

    // ------------------------------------------------------------------ what was found

    /** The run directory's name. */
    public String name() {
        return name;
    }

    /** The run's summary.json, or null when it has none (or an unreadable one). */
    public JsonNode summary() {
        return summary;
    }

    public RunEnding ending() {
        return ending;
    }

    /** The requests in requests.csv (bad lines left out). */
    public long requests() {
        return requests;
    }

    /** The backend the requests name ("" without requests). */
    public String backend() {
        return backend;
    }

    public ResponseTimes times() {
        return times;
    }

    /** Each second of the run (epoch second, by send instant). */
    public NavigableMap<Long, LatencyStats> timeline() {
        return timeline;
    }

    public ConnectionFigures connections() {
        return connections;
    }

    public SessionFigures sessions() {
        return sessions;
    }

    /** Gaps between consecutive run-phase sends (ns), in send order. */
    public Moments requestInterArrival() {
        return requestInterArrival;
    }

    /** Sends later than the re-sorting window: their gaps are left out of {@link #requestInterArrival}. */
    public long lateSendsOutsideWindow() {
        return lateSendsOutsideWindow;
    }

    public RunWindow window() {
        return window;
    }

    /** {end epoch ms, duration ms} of each client GC pause in client-gc.csv. */
    public List<long[]> gcPauses() {
        return gcPauses;
    }

    /** The join with the embedded server's log, or null without one. */
    public ServerComparison server() {
        return server;
    }

    /** The wire check, when the run directory holds a capture; else null. */
    public WireCheck wire() {
        return wire;
    }

    public List<String> notes() {
        return notes;
    }

    /** Per file: {malformed lines skipped, first such line number}; in analysis.json as bad_lines. */
    public Map<String, long[]> badLines() {
        return badLines;
    }

    // ------------------------------------------------------------------ derived figures

    /** Run-phase throughput: successful requests (no error) per second of run phase actually run, as summary.json's throughput_rps. */
    public double throughput() {
        LatencyStats run = times.run();
        return window.seconds() > 0 ? (run.count() - run.errors()) / window.seconds() : 0;
    }

    /** Run-phase requests attempted (successful or not) per second of run phase actually run, as summary.json's attempted_rps. */
    public double attemptedRps() {
        return window.seconds() > 0 ? times.run().count() / window.seconds() : 0;
    }

    /** The mean number of active sessions over the run phase (1 s samples); over the whole run when its phase is unknown. */
    public double meanActiveSessionsInRun() {
        long from = window.startNs() / 1_000_000_000L;
        long to = window.endNs() / 1_000_000_000L;
        var active = sessions.active();
        var samples = window.endNs() > window.startNs() ? active.subMap(from, true, to, true) : active;
        return samples.values().stream().mapToInt(Integer::intValue).average().orElse(0);
    }

    /**
     * Little's law for the run phase as the client's summary defines it, N / (X (R + Z)): the client's own figures when
     * summary.json has them, else an estimate from the logs (see {@link LittleLaw}).
     */
    public LittleLaw little() {
        double r = times.run().meanMs();
        String arrivals = summary == null ? "closed" : summary.path("arrivals").asText("closed");
        if (!arrivals.equals("closed")) {
            return LittleLaw.notApplicable(arrivals);
        }
        if (summary != null && summary.path("stationarity").has("little_ratio")) {
            return LittleLaw.fromSummary(
                    summary,
                    summary.path("response_time_ms")
                            .path(Phase.RUN.label())
                            .path("mean")
                            .asDouble(r));
        }
        // A session's first request closes no think time within it: with N the active sessions, X counts the others.
        long run = times.run().count();
        double seconds = window.seconds();
        double x = seconds > 0 ? Math.max(0, run - sessions.runFirstRequests()) / seconds : 0;
        return LittleLaw.fromLogs(meanActiveSessionsInRun(), x, r, sessions.runThinkCensored(), seconds, run);
    }

    /** Plain-words verdict of Gunther's Principle B on the session inter-arrival CoV. */
    public static String arrivalVerdict(Moments m) {
        if (m.count() < 30) {
            return "too few inter-arrivals (" + m.count() + ") to judge";
        }
        double cov = m.cov();
        if (cov < 0.05) {
            return String.format(Locale.ROOT, "deterministic (CoV %.2f)", cov);
        }
        if (cov < 0.9) {
            return String.format(
                    Locale.ROOT, "closed-loop, CoV < 1 (%.2f): arrivals are throttled by completions", cov);
        }
        if (cov <= 1.1) {
            return String.format(Locale.ROOT, "consistent with Poisson (CoV %.2f)", cov);
        }
        return String.format(Locale.ROOT, "burstier than Poisson (CoV %.2f)", cov);
    }

    /** The summary's client-health object, or null. */
    public JsonNode health() {
        return summary == null ? null : summary.get("client_health");
    }
}
