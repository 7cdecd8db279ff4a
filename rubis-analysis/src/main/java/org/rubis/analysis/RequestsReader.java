package org.rubis.analysis;

import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.rubis.analysis.io.CsvStream;
import org.rubis.analysis.io.RunDirectory;
import org.rubis.analysis.stats.Moments;
import org.rubis.analysis.stats.SortedStream;
import org.rubis.format.run.Columns;
import org.rubis.format.run.Phase;
import org.rubis.format.stats.LatencyStats;

/**
 * Streams requests.csv once and hands each row to the figures it feeds: the response times, the per-second
 * timeline, the connections, the sessions (their think times) and the run phase's request inter-arrivals. Memory
 * grows with the number of seconds, connections and sessions, never with the number of requests.
 */
final class RequestsReader {

    /** Send instants are re-sorted within this window (well above any response time). */
    static final long REORDER_WINDOW_NS = 120_000_000_000L;

    /**
     * What the pass found.
     *
     * @param requests       the rows read (bad lines left out)
     * @param backend        the first row's backend
     * @param runFirstSend   the first run-phase send (epoch ns; {@code Long.MAX_VALUE} when none)
     * @param runLastSend    the last ({@code Long.MIN_VALUE} when none)
     * @param interArrival   gaps between consecutive run-phase sends, in send order (a ramp changes the rate on
     *                       purpose)
     * @param lateSends      sends that came later than the re-sorting window allowed
     */
    record Result(
            long requests,
            String backend,
            ResponseTimes times,
            NavigableMap<Long, LatencyStats> timeline,
            ConnectionFigures connections,
            SessionFigures sessions,
            long runFirstSend,
            long runLastSend,
            Moments interArrival,
            long lateSends) {}

    private final ResponseTimes.Builder times = new ResponseTimes.Builder();
    private final ConnectionFigures.Builder connections = new ConnectionFigures.Builder();
    private final NavigableMap<Long, LatencyStats> timeline = new TreeMap<>();
    private final Moments interArrival = new Moments();
    private final SessionFigures.Tracker sessions;
    /**
     * The wire's time of each request matched on the wire ("connection_id send_epoch_ns"), or null: the client's times.
     */
    private final Map<String, Long> wireTimes;

    private final SortedStream sends;
    private long lastSend = Long.MIN_VALUE;
    private long requests;
    private String backend = "";
    private long runFirstSend = Long.MAX_VALUE;
    private long runLastSend = Long.MIN_VALUE;
    private long endNs;
    /** The timeline's second of the last row: rows come in runs of one second. */
    private long lastSecond;

    private LatencyStats lastSecondStats;

    private RequestsReader(SessionFigures.Tracker sessions, Map<String, Long> wireTimes) {
        this.sessions = sessions;
        this.wireTimes = wireTimes;
        this.sends = new SortedStream(REORDER_WINDOW_NS, t -> {
            if (lastSend != Long.MIN_VALUE) {
                interArrival.add(t - lastSend);
            }
            lastSend = t;
        });
    }

    static Result read(
            RunDirectory d,
            SessionFigures.Tracker sessions,
            Map<String, Long> wireTimes,
            Notes notes,
            Consumer<CsvStream.Row> alsoEachRow) {
        RequestsReader r = new RequestsReader(sessions, wireTimes);
        CsvStream csv = new CsvStream(d.requests());
        csv.forEach(Columns.REQUESTS_REQUIRED, RunDirectory.REQUEST_NUMERIC, row -> {
            alsoEachRow.accept(row);
            Phase phase = Phase.parse(row.get("phase"));
            if (phase == null) {
                csv.reject(row); // not up, run or down: a damaged line, counted in bad_lines like any other
            } else {
                r.row(row, phase);
            }
        });
        r.sends.finish();
        notes.account("requests.csv", csv);
        SessionFigures sessionFigures =
                sessions.build(r.endNs); // first: it counts the connections of the sessions still open
        return new Result(
                r.requests,
                r.backend,
                r.times.build(wireTimes == null ? ResponseTimes.CLIENT_CLOCK : ResponseTimes.WIRE_CLOCK),
                Collections.unmodifiableNavigableMap(r.timeline),
                r.connections.build(sessions.connectionsPerSession()),
                sessionFigures,
                r.runFirstSend,
                r.runLastSend,
                r.interArrival,
                r.sends.late());
    }

    private void row(CsvStream.Row row, Phase phase) {
        requests++;
        String error = row.get("error");
        long send = row.getLong("send_epoch_ns");
        long intended = row.getLong("intended_send_epoch_ns");
        long clientNs = row.getLong("response_ns");
        String connectionId = row.get("connection_id");
        Long onWire = wireTimes == null ? null : wireTimes.get(connectionId + " " + send);
        long ns = onWire != null ? onWire : clientNs;
        long done = send + clientNs;
        if (backend.isEmpty()) {
            backend = row.get("backend");
        }
        times.request(phase, row.get("state"), ns, clientNs, Math.max(0, send - intended), error);
        endNs = Math.max(endNs, done);
        long second = send / 1_000_000_000L;
        if (second != lastSecond || lastSecondStats == null) {
            lastSecondStats = timeline.computeIfAbsent(second, k -> LatencyStats.coarse());
            lastSecond = second;
        }
        lastSecondStats.record(ns, !error.isEmpty());
        boolean inRun = phase == Phase.RUN;
        if (inRun) {
            sends.add(send); // the measurement phase only: ramps change the rate on purpose
            runFirstSend = Math.min(runFirstSend, send);
            runLastSend = Math.max(runLastSend, send);
        }
        long sessionId = row.getLong("session_id");
        connections.request(connectionId, sessionId, send, done, Boolean.parseBoolean(row.get("new_connection")));
        long think = sessions.request(sessionId, connectionId, intended, done, inRun);
        if (think >= 0) {
            times.think(think);
        }
    }

    /** The wire's time of each request matched on the wire, by "connection_id send_epoch_ns". */
    static Map<String, Long> wireTimes(Path wireCsv) {
        Map<String, Long> m = new HashMap<>();
        new CsvStream(wireCsv)
                .forEach(List.of("connection_id", "client_send_epoch_ns", "wire_response_ns", "match"), row -> {
                    String w = row.get("wire_response_ns");
                    if ("matched".equals(row.get("match")) && !w.isEmpty()) {
                        m.put(row.get("connection_id") + " " + row.get("client_send_epoch_ns"), Long.parseLong(w));
                    }
                });
        return m;
    }
}
