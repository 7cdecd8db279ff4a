package org.rubis.client.engine;

import java.util.concurrent.locks.LockSupport;

/**
 * The run's stop flag and the reason it was raised. Emulated users wait on it instead of a
 * plain sleep, so Ctrl-C, an out-of-memory condition or the end of the run wakes them promptly.
 */
public final class StopSignal {

    private volatile String reason;
    private volatile boolean invalid;

    /** Raises the flag (the first reason wins); {@code invalid} marks the run's numbers unusable. */
    public synchronized void stop(String why, boolean invalidRun) {
        if (reason == null) {
            reason = why;
        }
        invalid |= invalidRun;
    }

    public boolean stopped() {
        return reason != null;
    }

    public String reason() {
        return reason;
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
        while (true) {
            if (reason != null) {
                return false;
            }
            long left = deadlineNano - System.nanoTime();
            if (left <= 0) {
                return true;
            }
            LockSupport.parkNanos(Math.min(left, 50_000_000L));
        }
    }
}
