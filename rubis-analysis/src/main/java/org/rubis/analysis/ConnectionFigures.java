package org.rubis.analysis;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The connections as the client used them, from requests.csv: how many, how many requests and sessions each
 * carried, how many were open at once, and the connections each session used.
 *
 * @param distinct               distinct connection ids
 * @param opened                 requests that opened a connection
 * @param withoutId              requests with no connection id (failed to connect)
 * @param requestsPerConnection  connections by the number of requests they carried
 * @param sessionsPerConnection  connections by the number of sessions that used them
 * @param connectionsPerSession  sessions by the number of connections they used
 * @param concurrent             connections open at each whole second (epoch second)
 */
public record ConnectionFigures(
        int distinct,
        long opened,
        long withoutId,
        SortedMap<Integer, Long> requestsPerConnection,
        SortedMap<Integer, Long> sessionsPerConnection,
        SortedMap<Integer, Long> connectionsPerSession,
        NavigableMap<Long, Integer> concurrent) {

    /** The most connections open at once. */
    public int maxConcurrent() {
        return concurrent.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    /** A connection as the client used it. */
    private static final class Conn {
        static final int MAX_TRACKED = 100_000;
        long first = Long.MAX_VALUE;
        long last;
        int requests;
        final Set<Long> sessions = new HashSet<>();
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

    /** Accumulates the connections row by row (the requests' reader). */
    static final class Builder {
        private final Map<String, Conn> conns = new HashMap<>();
        private long opened;
        private long withoutId;

        /**
         * A request of session {@code sessionId} on {@code connectionId} ("" for none), sent at {@code send}, done at
         * {@code done}.
         */
        void request(String connectionId, long sessionId, long send, long done, boolean newConnection) {
            if (connectionId.isEmpty()) {
                withoutId++;
            } else {
                Conn c = conns.computeIfAbsent(connectionId, k -> new Conn());
                c.first = Math.min(c.first, send);
                c.last = Math.max(c.last, done);
                c.requests++;
                c.session(sessionId);
            }
            if (newConnection) {
                opened++;
            }
        }

        /** @param connectionsPerSession the sessions' side, from the sessions' tracker */
        ConnectionFigures build(SortedMap<Integer, Long> connectionsPerSession) {
            SortedMap<Integer, Long> requests = new TreeMap<>();
            SortedMap<Integer, Long> sessions = new TreeMap<>();
            List<long[]> intervals = new ArrayList<>(conns.size());
            for (Conn c : conns.values()) {
                requests.merge(c.requests, 1L, Long::sum);
                sessions.merge(c.distinctSessions(), 1L, Long::sum);
                intervals.add(new long[] {c.first, c.last});
            }
            return new ConnectionFigures(
                    conns.size(),
                    opened,
                    withoutId,
                    Collections.unmodifiableSortedMap(requests),
                    Collections.unmodifiableSortedMap(sessions),
                    Collections.unmodifiableSortedMap(connectionsPerSession),
                    Collections.unmodifiableNavigableMap(Intervals.openPerSecond(intervals)));
        }
    }
}
