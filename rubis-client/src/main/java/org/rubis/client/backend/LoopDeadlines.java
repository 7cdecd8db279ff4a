package org.rubis.client.backend;

import io.netty.channel.EventLoop;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * The requests in flight on one event loop and their deadlines, checked by one timer per loop
 * instead of a scheduled task per request: at the highest rate a task per request (created,
 * queued, cancelled) was a visible part of the loop's time and allocation. The timer is armed
 * only while a request has a deadline, at the earliest one, so an idle loop is never woken, and a
 * request times out at its own deadline as before. Touched only on its loop, except
 * {@link #abortAll}, which runs there.
 */
final class LoopDeadlines implements Runnable {

    /** A request in flight: its slot here (-1 when not in flight), and what happens when its deadline passes. */
    interface Entry {
        int slot();

        void slot(int slot);

        /** The deadline passed with the request still in flight. */
        void expired();

        /** The run stops: the request ends now. */
        void abort();
    }

    /** No deadline (e.g. while connecting: the connect has its own timer). */
    static final long NONE = Long.MAX_VALUE;

    private final EventLoop loop;
    private Entry[] entries = new Entry[16];
    private long[] deadlines = new long[16];
    private int size;
    /** When the pending check runs; {@link #NONE} when none is pending. */
    private long checkAt = NONE;

    LoopDeadlines(EventLoop loop) {
        this.loop = loop;
    }

    /** The request is in flight, without a deadline yet. */
    void add(Entry e) {
        if (e.slot() >= 0) {
            return;
        }
        if (size == entries.length) {
            entries = Arrays.copyOf(entries, 2 * size);
            deadlines = Arrays.copyOf(deadlines, 2 * size);
        }
        entries[size] = e;
        deadlines[size] = NONE;
        e.slot(size++);
    }

    /** The request in flight times out at {@code deadline} (a {@link System#nanoTime()} instant). */
    void deadline(Entry e, long deadline) {
        int i = e.slot();
        if (i < 0) {
            return;
        }
        deadlines[i] = deadline;
        if (deadline < checkAt) {
            schedule(deadline);
        }
    }

    /** The request has no deadline any more (it is still in flight). */
    void clearDeadline(Entry e) {
        int i = e.slot();
        if (i >= 0) {
            deadlines[i] = NONE;
        }
    }

    /** The request is no longer in flight. */
    void remove(Entry e) {
        int i = e.slot();
        if (i < 0) {
            return;
        }
        int last = --size;
        if (i != last) {
            entries[i] = entries[last];
            deadlines[i] = deadlines[last];
            entries[i].slot(i);
        }
        entries[last] = null;
        e.slot(-1);
    }

    EventLoop loop() {
        return loop;
    }

    /** Requests in flight on this loop. */
    int size() {
        return size;
    }

    private void schedule(long at) {
        checkAt = at;
        loop.schedule(this, Math.max(0, at - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    /** The check: requests past their deadline expire; the next check is set at the earliest deadline left. */
    @Override
    public void run() {
        checkAt = NONE;
        long now = System.nanoTime();
        Entry[] due = null;
        int n = 0;
        for (int i = 0; i < size; i++) {
            if (deadlines[i] - now <= 0 && deadlines[i] != NONE) {
                if (due == null) {
                    due = new Entry[size - i];
                }
                due[n++] = entries[i];
            }
        }
        for (int i = 0; i < n; i++) {
            if (due[i].slot() >= 0) {
                clearDeadline(due[i]);
                due[i].expired();
            }
        }
        long next = NONE;
        for (int i = 0; i < size; i++) {
            next = Math.min(next, deadlines[i]);
        }
        if (next != NONE && next < checkAt) {
            schedule(next);
        }
    }

    /** Ends every request in flight (the run stops); call on the loop. */
    void abortAll() {
        Entry[] all = Arrays.copyOf(entries, size);
        for (Entry e : all) {
            if (e.slot() >= 0) {
                e.abort();
            }
        }
    }
}
