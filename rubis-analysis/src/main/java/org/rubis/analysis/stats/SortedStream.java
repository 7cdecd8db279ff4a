package org.rubis.analysis.stats;

import java.util.PriorityQueue;
import java.util.function.LongConsumer;

/**
 * Re-sorts instants that arrive almost in order (the request log is in completion order, so send
 * instants are out of order by at most one response time) with a bounded window: values more than
 * {@code windowNs} older than the newest are released in order. Values arriving later than the
 * window allows are counted, not lost silently.
 */
public final class SortedStream {
    private final PriorityQueue<Long> heap = new PriorityQueue<>();
    private final long windowNs;
    private final LongConsumer out;
    private long newest = Long.MIN_VALUE;
    private long released = Long.MIN_VALUE;
    private long late;

    public SortedStream(long windowNs, LongConsumer out) {
        this.windowNs = windowNs;
        this.out = out;
    }

    public void add(long v) {
        if (v < released) {
            late++;
            return;
        }
        heap.add(v);
        newest = Math.max(newest, v);
        while (!heap.isEmpty() && heap.peek() < newest - windowNs) {
            released = heap.poll();
            out.accept(released);
        }
    }

    public void finish() {
        while (!heap.isEmpty()) {
            released = heap.poll();
            out.accept(released);
        }
    }

    /** Values that arrived after later ones had been released (outside the window). */
    public long late() {
        return late;
    }
}
