package org.rubis.client.report;

import java.util.Locale;

/**
 * The client JVM's stop-the-world pauses as the summary reports them: count, total and longest from one source, the
 * JVM's GC notifications (each pause's own duration, as client-gc.csv logs it), so that the total is never less than
 * the longest. The summary once took the total from the collectors' MXBean counters and the longest from the
 * notifications, and printed "1 pauses totalling 3 ms, longest 2 ms": the counters round differently and G1's count
 * time the notification does not. The counters ({@link GcTotals}) stay the cross-check and the fallback: under heap
 * pressure notifications come late or not at all, so pauses the counters saw and the notifications did not are added
 * with the counters' remaining time, and the longest is then a lower bound (the longest notified, or the mean of the
 * missed ones when larger).
 *
 * <p>Fed by the JVM's notification thread ({@link #record}), read by the summary: synchronized. Stops counting at
 * {@link #close()}, with the counters' window, so notifications that come after it change nothing.
 */
public final class GcPauses {

    private long pauses;
    private long totalMs;
    private long longestMs;
    private boolean closed;

    /** One collection's notification: counted when the collector stops the application ({@link GcTotals#isPause}). */
    public synchronized void record(String collectorName, long durationMs) {
        if (closed || !GcTotals.isPause(collectorName)) {
            return;
        }
        long ms = Math.max(0, durationMs);
        pauses++;
        totalMs += ms;
        longestMs = Math.max(longestMs, ms);
    }

    /** No more notifications count: the window of the counters ended. */
    public synchronized void close() {
        closed = true;
    }

    /** Pauses notified (what client-gc.csv holds). */
    public synchronized long notified() {
        return pauses;
    }

    /** The figures, with the collectors' counters over the same window filling in what the notifications missed. */
    public synchronized Figures figures(GcTotals counters) {
        return Figures.of(pauses, totalMs, longestMs, counters);
    }

    /**
     * The pauses of a run.
     *
     * @param collections every collection the counters saw, concurrent cycles included
     * @param pauses      stop-the-world pauses: those notified, plus those the counters saw beyond them
     * @param totalMs     their time: the notified durations, plus the counters' remainder for the missed ones
     * @param longestMs   the longest: notified, or the missed ones' mean when larger (then a lower bound)
     * @param notified    the pauses the notifications (client-gc.csv) hold
     */
    public record Figures(long collections, long pauses, long totalMs, long longestMs, long notified) {

        static Figures of(long notified, long notifiedMs, long longestNotifiedMs, GcTotals counters) {
            long missed = Math.max(0, counters.pauses() - notified);
            long missedMs = missed == 0 ? 0 : Math.max(0, counters.pauseMs() - notifiedMs);
            long longest = Math.max(longestNotifiedMs, missed == 0 ? 0 : missedMs / missed);
            return new Figures(
                    Math.max(counters.collections(), notified + missed),
                    notified + missed,
                    notifiedMs + missedMs,
                    longest,
                    notified);
        }

        /** Pauses the notifications missed: their time and the longest are then the counters' estimate. */
        public long missed() {
            return pauses - notified;
        }

        /** The summary's GC line. */
        public String describe() {
            return describe(collections, pauses, totalMs, longestMs, missed());
        }

        /** The summary's GC line from its figures (also those of a summary.json read back). */
        public static String describe(long collections, long pauses, long totalMs, long longestMs, long missed) {
            if (pauses == 0) {
                return "no stop-the-world pause"
                        + (collections > 0 ? " (" + plural(collections, "collection") + ", all concurrent)" : "");
            }
            return String.format(
                    Locale.ROOT,
                    "%s, %d ms in all, longest %s%d ms (stop-the-world pauses, as the JVM's GC notifications time them;"
                            + " %s in all)%s",
                    plural(pauses, "pause"),
                    totalMs,
                    missed > 0 ? "at least " : "",
                    longestMs,
                    plural(collections, "collection"),
                    missed > 0
                            ? "; " + missed
                                    + " of the pauses are not in client-gc.csv: the JVM's notifications of them came late or not at all,"
                                    + " as under heap pressure; their count and time are the collectors' own counters"
                            : "");
        }

        private static String plural(long n, String what) {
            return n + " " + what + (n == 1 ? "" : "s");
        }
    }
}
