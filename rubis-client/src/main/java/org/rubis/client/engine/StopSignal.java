package org.rubis.client.engine;

import java.util.concurrent.locks.LockSupport;

/**
 * The run's stop flag and the reason it was raised. Emulated users wait on it instead of a
 * plain sleep, so Ctrl-C, an out-of-memory condition or the end of the run wakes them promptly.
 */
public final class StopSignal {

    private volatile String reason;
    /**
     * The reason while an out-of-memory stop's words are still unformatted: a distinct instance (compared by identity)
     * whose text is what a reader gets should formatting fail too.
     */
    @SuppressWarnings("StringOperationCanBeSimplified")
    private static final String OUT_OF_MEMORY_PENDING = new String(RunFinisher.OUT_OF_MEMORY);
    private volatile String oomKind;
    private volatile String oomWho;
    private volatile long oomActive;
    private volatile long oomUsersStarted;
    private volatile String oomDetail;
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
                reason = reason() + "; then " + why; // a failure while finishing still makes the run invalid: say why
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

    /**
     * Stops the run because {@code who} ran out of heap, without allocating: the heap is exhausted at this moment (other
     * threads take whatever a freed reserve gave back), so the words and numbers are kept as they are and put into a
     * sentence when the reason is read, after the run, when the users' memory is free again.
     *
     * @param kind "thread " for a JVM thread, "" for a user or session
     */
    public synchronized void stopOutOfMemory(String kind, String who, long sessionsActive, long usersStarted, String detail) {
        if (reason == null) {
            oomKind = kind;
            oomWho = who;
            oomActive = sessionsActive;
            oomUsersStarted = usersStarted;
            oomDetail = detail;
            stop(OUT_OF_MEMORY_PENDING, true);
        } else {
            try { // a stop before (the end of the run, Ctrl-C): the words are added to its reason, when there is heap for them
                stop(outOfMemory(kind, who, sessionsActive, usersStarted, detail), true);
            } catch (OutOfMemoryError e) {
                stop(RunFinisher.OUT_OF_MEMORY, true);
            }
        }
    }

    private static String outOfMemory(String kind, String who, long sessionsActive, long usersStarted, String detail) {
        return "out of memory in " + kind + who + " (" + sessionsActive + " sessions active, " + usersStarted + " users started): " + detail;
    }

    public String reason() {
        String r = reason;
        if (r == OUT_OF_MEMORY_PENDING) {
            try {
                r = outOfMemory(oomKind, oomWho, oomActive, oomUsersStarted, oomDetail);
                reason = r;
            } catch (OutOfMemoryError e) {
                return RunFinisher.OUT_OF_MEMORY;
            }
        }
        return r;
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
