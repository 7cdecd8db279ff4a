package org.rubis.analysis.stats;

import java.util.Arrays;
import java.util.function.LongConsumer;

/**
 * Re-sorts instants that arrive almost in order (the request log is in completion order, so send
 * instants are out of order by at most one response time) with a bounded window: values more than
 * {@code windowNs} older than the newest are released in order. Values arriving later than the
 * window allows are counted, not lost silently. The window is a binary heap of primitive longs: a boxed queue made
 * an object per request.
 */
public final class SortedStream {
    private long[] heap = new long[1024];
    private int size;
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
        push(v);
        newest = Math.max(newest, v);
        while (size > 0 && heap[0] < newest - windowNs) {
            released = poll();
            out.accept(released);
        }
    }

    public void finish() {
        while (size > 0) {
            released = poll();
            out.accept(released);
        }
    }

    private void push(long v) {
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size * 2);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (heap[parent] <= v) {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = v;
    }

    private long poll() {
        long top = heap[0];
        long last = heap[--size];
        int i = 0;
        for (int child = 1; child < size; child = 2 * i + 1) {
            if (child + 1 < size && heap[child + 1] < heap[child]) {
                child++;
            }
            if (last <= heap[child]) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = last;
        return top;
    }

    /** Values that arrived after later ones had been released (outside the window). */
    public long late() {
        return late;
    }
}
