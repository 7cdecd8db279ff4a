package org.rubis.analysis;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.rubis.format.run.Phase;
import org.rubis.format.stats.LatencyStats;

/**
 * A run's response times as requests.csv gives them, per phase, per state and overall, from the actual and from
 * the intended send instant, with the send lateness, the think times and the errors by class. Built once by the
 * requests' reader and not changed after.
 *
 * @param byPhase             per phase (every phase present, empty when it had no request)
 * @param byPhaseState        per phase and state (states in name order)
 * @param byState             per state over all phases
 * @param overall             all requests
 * @param byPhaseFromIntended per phase, from the intended send instant (coordinated omission corrected): it differs
 *                            from
 *                            {@code byPhase} (the service time) by the send lateness
 * @param overallFromIntended all requests, from the intended send instant
 * @param clientByPhase       the client's own times per phase, beside the published ones when those are the wire's
 * @param lateness            actual minus intended send instant
 * @param think               think times within sessions (intended send minus the previous reply's end)
 * @param errorsByClass       requests by their error column's value, in name order
 * @param clock               whose clock the times come from: {@code client}, or {@code wire} when the run published
 *                            the
 *                            wire's (summary.json response_time_clock): each request's time is then the wire's from
 *                            wire.csv (a request with none on the wire, e.g. a failed connect, keeps the client's)
 */
public record ResponseTimes(
        Map<Phase, LatencyStats> byPhase,
        Map<Phase, SortedMap<String, LatencyStats>> byPhaseState,
        SortedMap<String, LatencyStats> byState,
        LatencyStats overall,
        Map<Phase, LatencyStats> byPhaseFromIntended,
        LatencyStats overallFromIntended,
        Map<Phase, LatencyStats> clientByPhase,
        LatencyStats lateness,
        LatencyStats think,
        SortedMap<String, Long> errorsByClass,
        String clock) {

    /** The clock of the client's own times. */
    public static final String CLIENT_CLOCK = "client";
    /** The clock of the packet capture's times. */
    public static final String WIRE_CLOCK = "wire";

    /** The run phase's times. */
    public LatencyStats run() {
        return byPhase.get(Phase.RUN);
    }

    /** Whether the times are the wire's (the run published them). */
    public boolean wireClock() {
        return WIRE_CLOCK.equals(clock);
    }

    /** Accumulates the times row by row (the requests' reader); {@link #build} hands them over. */
    static final class Builder {
        private final Map<Phase, LatencyStats> byPhase = new EnumMap<>(Phase.class);
        private final Map<Phase, SortedMap<String, LatencyStats>> byPhaseState = new EnumMap<>(Phase.class);
        private final SortedMap<String, LatencyStats> byState = new TreeMap<>();
        private final LatencyStats overall = new LatencyStats();
        private final Map<Phase, LatencyStats> byPhaseFromIntended = new EnumMap<>(Phase.class);
        private final LatencyStats overallFromIntended = new LatencyStats();
        private final Map<Phase, LatencyStats> clientByPhase = new EnumMap<>(Phase.class);
        private final LatencyStats lateness = new LatencyStats();
        private final LatencyStats think = new LatencyStats();
        private final SortedMap<String, Long> errorsByClass = new TreeMap<>();

        Builder() {
            for (Phase p : Phase.values()) {
                byPhaseState.put(p, new TreeMap<>());
                byPhase.put(p, new LatencyStats());
                byPhaseFromIntended.put(p, new LatencyStats());
            }
        }

        /**
         * One request: {@code ns} its published time (the wire's or the client's), {@code clientNs} the client's,
         * {@code latenessNs} how late it was sent, {@code error} its error column ("" for none).
         */
        void request(Phase phase, String state, long ns, long clientNs, long latenessNs, String error) {
            boolean failed = !error.isEmpty();
            clientByPhase.computeIfAbsent(phase, k -> new LatencyStats()).record(clientNs, failed);
            byPhaseState
                    .get(phase)
                    .computeIfAbsent(state, k -> new LatencyStats())
                    .record(ns, failed);
            byPhase.get(phase).record(ns, failed);
            byState.computeIfAbsent(state, k -> new LatencyStats()).record(ns, failed);
            overall.record(ns, failed);
            lateness.record(latenessNs, false);
            byPhaseFromIntended.get(phase).record(latenessNs + ns, failed);
            overallFromIntended.record(latenessNs + ns, failed);
            if (failed) {
                errorsByClass.merge(error, 1L, Long::sum);
            }
        }

        /** A think time within a session. */
        void think(long ns) {
            think.record(ns, false);
        }

        ResponseTimes build(String clock) {
            Map<Phase, SortedMap<String, LatencyStats>> states = new EnumMap<>(Phase.class);
            byPhaseState.forEach((p, m) -> states.put(p, Collections.unmodifiableSortedMap(m)));
            return new ResponseTimes(
                    Collections.unmodifiableMap(byPhase),
                    Collections.unmodifiableMap(states),
                    Collections.unmodifiableSortedMap(byState),
                    overall,
                    Collections.unmodifiableMap(byPhaseFromIntended),
                    overallFromIntended,
                    Collections.unmodifiableMap(clientByPhase),
                    lateness,
                    think,
                    Collections.unmodifiableSortedMap(errorsByClass),
                    clock);
        }
    }
}
