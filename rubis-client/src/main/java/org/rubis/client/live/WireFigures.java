package org.rubis.client.live;

/**
 * The run's own error while it goes on (with {@code --capture}): the client's response times minus the wire's, from
 * the capture joined to the log as the run goes (rubis-analysis's join), for the requests joined in the last interval
 * and for the whole run so far, reused and new connections apart; and the capture's own counters.
 *
 * @param interval      the requests joined in the last interval
 * @param total         every request joined so far (at the end: {@code rubis-analysis wire}'s figures)
 * @param packets       packets in the capture file so far
 * @param kernelDrops   packets the kernel dropped for lack of buffer (-1 unknown)
 * @param interfaceDrops packets the interface dropped (-1 unknown)
 * @param complete      the join is final: the capture has stopped and every line was joined
 */
public record WireFigures(
        Groups interval, Groups total, long packets, long kernelDrops, long interfaceDrops, boolean complete) {

    /** Client minus wire of one group of requests, microseconds; count 0 when none. */
    public record Diff(long count, double p50Us, double p99Us, double meanUs) {
        public static final Diff NONE = new Diff(0, 0, 0, 0);
    }

    /** All matched requests, those on reused connections, those that opened theirs. */
    public record Groups(Diff all, Diff reused, Diff fresh) {
        public static final Groups NONE = new Groups(Diff.NONE, Diff.NONE, Diff.NONE);
    }
}
