package org.rubis.client.engine;

import java.util.concurrent.locks.LockSupport;

/**
 * The run's stop flag and the reason it was raised. Emulated users wait on it instead of a
 * plain sleep, so Ctrl-C, an out-of-memory condition or the end of the run wakes them promptly.
 */
public final class StopSignal {

    private volatile String reason;
    private volatile boolean invalid;
    private volatile long stopNano;
    /** Threads waiting in {@link #awaitUntil}: a stop wakes them, so they can park for a whole think time. */
    private final java.util.Set<Thread> waiting = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** Raises the flag (the first reason wins); {@code invalid} marks the run's numbers unusable. */
    public synchronized void stop(String why, boolean invalidRun) {
        if (reason == null) {
            stopNano = System.nanoTime();
            reason = why;
        } else if (invalidRun && !invalid) {
            try {
                reason = reason + "; then " + why; // a failure while finishing still makes the run invalid: say why
            } catch (OutOfMemoryError e) {
                reason = why;
            }
        }
        invalid |= invalidRun;
        try {
            for (Thread t : waiting) {
                LockSupport.unpark(t);
            }
        } catch (OutOfMemoryError e) {
            // No heap for the iterator: waiting threads see the flag at the end of their wait.
        }
    }

    public boolean stopped() {
        return reason != null;
    }

    public String reason() {
        return reason;
    }

    /** {@link System#nanoTime()} when the run was first stopped (0 while running). */
    public long stopNano() {
        return stopNano;
    }

    public boolean invalid() {
        return invalid;
    }

    /**
     * Waits until {@code deadlineNano}; false when stopped first or when the deadline lies at or
     * beyond {@code runEndNano} (the wait would outlast the run).
     */
    public boolean awaitUntil(long deadlineNano, long runEndNano) {
        if (deadlineNano >= runEndNano) {
            // Sleep to the end of the run, then report that the run is over.
            awaitUntil(runEndNano, Long.MAX_VALUE);
            return false;
        }
        Thread me = Thread.currentThread();
        waiting.add(me);
        try {
            while (true) {
                if (reason != null) {
                    return false;
                }
                long left = deadlineNano - System.nanoTime();
                if (left <= 0) {
                    return true;
                }
                // One park for the whole wait (a thinking user costs no CPU); stop() unparks.
                LockSupport.parkNanos(this, left);
            }
        } finally {
            waiting.remove(me);
        }
    }
}
