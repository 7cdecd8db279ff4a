package org.rubis.client.report;

import java.util.EnumMap;
import java.util.Map;

/**
 * The run phase's CPU split by {@link ThreadRole}: each thread's time on a CPU
 * ({@code /proc/self/task/TID/schedstat}, nanoseconds, user and kernel together) at the start and at the end of the
 * run phase. Threads born during the phase count from zero; threads that ended during it are not counted (their
 * CPU is in the process's total, not here). With more than {@value #MAX_THREADS} threads (thread per user at scale)
 * the split is not measured: reading every thread's file at the phase's start would itself load the client then.
 */
final class RunThreadCpu {

    static final int MAX_THREADS = 2_000;

    private volatile Map<Long, ProcCpu.ThreadCpu> start;
    private volatile Map<ThreadRole, Long> split;

    /** At the start of the run phase; {@code threads}: the process's live Java threads now. */
    void markStart(int threads) {
        if (start == null && threads <= MAX_THREADS) {
            try {
                Map<Long, ProcCpu.ThreadCpu> s = ProcCpu.threads();
                start = s.isEmpty() ? null : s;
            } catch (OutOfMemoryError e) {
                start = null; // a run out of heap: not measured, and nothing else disturbed
            }
        }
    }

    /** At the end of the run phase. */
    void markEnd() {
        Map<Long, ProcCpu.ThreadCpu> s = start;
        if (s != null && split == null) {
            try {
                split = between(s, ProcCpu.threads());
            } catch (OutOfMemoryError e) {
                start = null; // not measured
            }
        }
    }

    /** CPU ns by role between two snapshots (every role present, 0 when none of its threads ran). */
    static Map<ThreadRole, Long> between(Map<Long, ProcCpu.ThreadCpu> a, Map<Long, ProcCpu.ThreadCpu> b) {
        Map<ThreadRole, Long> m = new EnumMap<>(ThreadRole.class);
        for (ThreadRole r : ThreadRole.values()) {
            m.put(r, 0L);
        }
        for (Map.Entry<Long, ProcCpu.ThreadCpu> e : b.entrySet()) {
            ProcCpu.ThreadCpu before = a.get(e.getKey());
            if (before != null && !before.name().equals(e.getValue().name())) {
                before = null; // a thread id reused by a new thread
            }
            long ns = Math.max(0, e.getValue().ns() - (before == null ? 0 : before.ns()));
            m.merge(ThreadRole.of(e.getValue().name()), ns, Long::sum);
        }
        return m;
    }

    /** Seconds by role, or empty when not measured (no /proc, too many threads, the phase not ended). */
    Map<ThreadRole, Double> seconds() {
        Map<ThreadRole, Long> s = split;
        Map<ThreadRole, Double> m = new EnumMap<>(ThreadRole.class);
        if (s != null) {
            s.forEach((r, ns) -> m.put(r, ns / 1e9));
        }
        return m;
    }
}
