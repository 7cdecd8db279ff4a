package org.rubis.client.report;

import java.util.concurrent.atomic.LongAdder;

/**
 * What the emulated users count themselves, apart from the records the log writer feeds the statistics: the live
 * request and error counts of the progress line and the health sampler, the think times (the run phase's and each
 * interval's) and the think times the ERROR-page bound added. Adders only: a user never takes a lock nor waits on
 * another thread here.
 */
public final class UserCounters {

    private final LongAdder liveRequests = new LongAdder();
    private final LongAdder liveErrors = new LongAdder();
    private final LongAdder errorPageThinks = new LongAdder();
    private final LongAdder errorPageThinkSessions = new LongAdder();
    private final ThinkSums runThinks = new ThinkSums();
    /** One per interval of the run phase; set before the first request. */
    private volatile ThinkSums[] intervalThinks = new ThinkSums[0];

    /** The run phase's intervals, before the first request. */
    void intervals(int n) {
        ThinkSums[] all = new ThinkSums[n];
        for (int i = 0; i < n; i++) {
            all[i] = new ThinkSums();
        }
        intervalThinks = all;
    }

    /** A request that completed (or failed): the progress line's counts. */
    public void countLive(boolean error) {
        liveRequests.increment();
        if (error) {
            liveErrors.increment();
        }
    }

    public long liveRequests() {
        return liveRequests.sum();
    }

    public long liveErrors() {
        return liveErrors.sum();
    }

    /** A session's think times added by the ERROR-page bound (UserSession): counted with the sessions that had any. */
    public void errorPageThinks(int thinks) {
        if (thinks > 0) {
            errorPageThinks.add(thinks);
            errorPageThinkSessions.increment();
        }
    }

    public long errorPageThinks() {
        return errorPageThinks.sum();
    }

    public long errorPageThinkSessions() {
        return errorPageThinkSessions.sum();
    }

    /** A think time of {@code ns} that started in the run phase, in its interval {@code interval}. */
    public void runThink(int interval, long ns) {
        runThinks.think(ns);
        ThinkSums i = interval(interval);
        if (i != null) {
            i.think(ns);
        }
    }

    /**
     * A think time that started in the run phase, in its interval {@code interval}, cut by the user's leave after
     * {@code ns} (censored: its time counts in the mean's numerator, not as one think time).
     */
    public void runThinkCut(int interval, long ns) {
        runThinks.cut(ns);
        ThinkSums i = interval(interval);
        if (i != null) {
            i.cut(ns);
        }
    }

    /** The think times that started in the run phase. */
    public ThinkSums runThinks() {
        return runThinks;
    }

    /** Those that started in interval {@code i}, null outside the intervals. */
    ThinkSums interval(int i) {
        ThinkSums[] all = intervalThinks;
        return i >= 0 && i < all.length ? all[i] : null;
    }
}
