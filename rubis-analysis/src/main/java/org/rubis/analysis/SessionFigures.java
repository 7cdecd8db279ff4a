package org.rubis.analysis;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.rubis.analysis.io.CsvStream;
import org.rubis.analysis.io.RunDirectory;
import org.rubis.analysis.stats.CensoredMean;
import org.rubis.analysis.stats.Moments;
import org.rubis.format.run.Columns;
import org.rubis.format.run.SessionEnd;

/**
 * The sessions, from sessions.csv and requests.csv together: how many began and how they ended, how many were
 * active at each second, their inter-arrival times, and the run phase's think times (the Z of Little's law).
 *
 * @param started            sessions that began (sessions.csv's lines but dropped ones, plus those only in
 *                           requests.csv)
 * @param onlyInRequests     sessions seen in requests.csv only (no line in sessions.csv: still running when the run was
 *                           killed); counted in {@code started}
 * @param ends               sessions.csv's lines by end reason
 * @param active             sessions active at each whole second (epoch second)
 * @param interArrival       gaps between consecutive session starts (ns)
 * @param runThinkCensored   think times within sessions that began in the run phase, censored ones (still running at
 *                           the end) counted by their elapsed part
 * @param runFirstRequests   run-phase requests that opened their session (no think time before them within it)
 */
public record SessionFigures(
        long started,
        long onlyInRequests,
        Map<SessionEnd, Long> ends,
        NavigableMap<Long, Integer> active,
        Moments interArrival,
        CensoredMean runThinkCensored,
        long runFirstRequests) {

    /** {@link #ends} by their labels, in the labels' order (as reports list them). */
    public SortedMap<String, Long> endsByLabel() {
        SortedMap<String, Long> m = new TreeMap<>();
        ends.forEach((e, n) -> m.put(e.label(), n));
        return m;
    }

    /** Per-session state while its requests are read. */
    private static final class State {
        long lastDone;
        final Set<String> connections = new HashSet<>(2);
        int seen;
        int expected = -1;
        /** From sessions.csv; null when the session has no line there (still running when the run was killed). */
        SessionEnd endReason;

        long start;
        /** From sessions.csv: when the client ended it (a run_ended session: the run's end, in its think time). */
        long end;

        long firstIntended = Long.MAX_VALUE;
        boolean lastInRun;
    }

    /**
     * Reads sessions.csv, then follows each session through requests.csv ({@link #request}); {@link #build} at the end.
     */
    static final class Tracker {
        private final Map<Long, State> states = new HashMap<>();
        private final Map<SessionEnd, Long> ends = new EnumMap<>(SessionEnd.class);
        private final List<long[]> intervals = new ArrayList<>();
        private final Moments interArrival = new Moments();
        private final CensoredMean runThinkCensored = new CensoredMean();
        private final SortedMap<Integer, Long> connectionsPerSession = new TreeMap<>();
        /**
         * Whether sessions.csv was there: only then does a session without a line in it mean one still running at a
         * kill.
         */
        private boolean sessionsCsvRead;

        private long started;
        private long onlyInRequests;
        private long runFirstRequests;

        /**
         * sessions.csv: each session's end, expected requests and interval; a line with an unknown end reason is a bad
         * line.
         */
        void readSessions(RunDirectory d, Notes notes) {
            if (!Files.isRegularFile(d.sessions())) {
                notes.add("sessions.csv is missing: no session statistics");
                return;
            }
            sessionsCsvRead = true;
            List<Long> starts = new ArrayList<>();
            CsvStream s = new CsvStream(d.sessions());
            s.forEach(Columns.SESSIONS_REQUIRED, RunDirectory.SESSION_NUMERIC, row -> {
                SessionEnd reason = SessionEnd.parse(row.get("end_reason"));
                if (reason == null) {
                    s.reject(row); // not an end reason: a damaged line, counted in bad_lines like any other
                    return;
                }
                long start = row.getLong("start_epoch_ns");
                long end = row.getLong("end_epoch_ns");
                ends.merge(reason, 1L, Long::sum);
                if (!reason.began()) {
                    return;
                }
                started++;
                starts.add(start);
                State st = states.computeIfAbsent(row.getLong("session_id"), k -> new State());
                st.expected = (int) Math.min(Integer.MAX_VALUE, row.getLong("requests"));
                st.endReason = reason;
                st.start = start;
                st.end = end;
                if (reason
                        != SessionEnd.RUN_ENDED) { // an aborted session was active, in a think time, until the end: see
                    // build
                    intervals.add(new long[] {start, Math.max(start, end)});
                }
            });
            notes.account("sessions.csv", s);
            if (s.empty()) {
                notes.add("no session statistics");
            }
            long[] sorted = starts.stream().mapToLong(Long::longValue).sorted().toArray();
            for (int i = 1; i < sorted.length; i++) {
                interArrival.add(sorted[i] - sorted[i - 1]);
            }
        }

        /**
         * A request of session {@code sessionId}: its think time before it (returned, -1 for a session's first
         * request),
         * the connections the session used, whether it opened its session in the run phase.
         */
        long request(long sessionId, String connectionId, long intended, long done, boolean inRun) {
            State st = states.computeIfAbsent(sessionId, k -> new State());
            if (st.seen == 0 && inRun) {
                runFirstRequests++;
            }
            long think = -1;
            if (st.seen > 0) {
                think = Math.max(0, intended - st.lastDone);
                if (st.lastInRun) { // a think time that began in the run phase (after a run-phase request)
                    runThinkCensored.finished(think);
                }
            }
            if (!connectionId.isEmpty()) {
                st.connections.add(connectionId);
            }
            st.lastDone = Math.max(st.lastDone, done);
            st.lastInRun = inRun;
            st.firstIntended = Math.min(st.firstIntended, intended);
            st.seen++;
            if (st.expected >= 0 && st.seen >= st.expected) {
                connectionsPerSession.merge(st.connections.size(), 1L, Long::sum);
                if (st.endReason != SessionEnd.RUN_ENDED) {
                    states.remove(
                            sessionId); // nothing more to learn; an aborted session's last think is censored (build)
                }
            }
            return think;
        }

        /**
         * The sessions still open at the log's end ({@code end}, epoch ns): killed ones, and those the run's end cut in
         * a think time.
         */
        SessionFigures build(long end) {
            for (State st : states.values()) {
                if (st.seen > 0 && (st.expected < 0 || st.seen < st.expected)) {
                    connectionsPerSession.merge(st.connections.size(), 1L, Long::sum);
                }
                boolean runEnded = st.endReason == SessionEnd.RUN_ENDED;
                if (sessionsCsvRead && st.endReason == null && st.seen > 0) {
                    onlyInRequests++; // killed: no line in sessions.csv; it was active until the end
                    intervals.add(new long[] {st.firstIntended, end});
                } else if (runEnded) {
                    intervals.add(new long[] {st.start, Math.max(st.start, st.end > 0 ? st.end : end)});
                }
                // A session still running at the end (killed, or aborted by the run's end in a think time): its last
                // think time began but its next request never came. Left out, it would bias Z low.
                if (sessionsCsvRead && (st.endReason == null || runEnded) && st.seen > 0 && st.lastInRun) {
                    // cut at its own end (a run_ended session's, from sessions.csv), else where the log ends (killed)
                    runThinkCensored.censored((runEnded && st.end > 0 ? st.end : end) - st.lastDone);
                }
            }
            return new SessionFigures(
                    started + onlyInRequests,
                    onlyInRequests,
                    Collections.unmodifiableMap(ends),
                    Collections.unmodifiableNavigableMap(Intervals.openPerSecond(intervals)),
                    interArrival,
                    runThinkCensored,
                    runFirstRequests);
        }

        /** Sessions by the number of connections they used (complete once {@link #build} ran). */
        SortedMap<Integer, Long> connectionsPerSession() {
            return connectionsPerSession;
        }
    }
}
