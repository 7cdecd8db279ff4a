package org.rubis.client.engine;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import org.rubis.format.run.StopCause;
import org.rubis.format.run.StopCause.Kind;

/**
 * The run's stop flag and its cause. Emulated users wait on it instead of a plain sleep, so Ctrl-C,
 * an out-of-memory condition or the end of the run wakes them promptly. The first stop's kind and
 * words are the run's cause; a later stop that makes the run invalid adds its words ("...; then ...")
 * and marks it invalid.
 */
public final class StopSignal {

    /** The words of an out-of-memory stop when there is no heap left to say more. */
    static final String OUT_OF_MEMORY = "out of memory (no heap left even to say where)";
    /**
     * The reason while an out-of-memory stop's words are still unformatted: a distinct instance (compared by identity)
     * whose text is what a reader gets should formatting fail too.
     */
    @SuppressWarnings("StringOperationCanBeSimplified")
    private static final String OUT_OF_MEMORY_PENDING = new String(OUT_OF_MEMORY);

    private volatile String reason;
    private volatile Kind kind;
    private volatile String oomKind;
    private volatile String oomWho;
    private volatile long oomActive;
    private volatile long oomUsersStarted;
    private volatile String oomDetail;
    private volatile boolean invalid;
    private volatile long stopNano;
    /** Threads waiting in {@link #awaitUntil}: a stop wakes them, so they can park for a whole think time. */
    private final Set<Thread> waiting = ConcurrentHashMap.newKeySet();

    /**
     * Raises the flag (the first stop's kind and words win); a kind that {@link Kind#invalidates} marks the run's
     * numbers unusable.
     */
    public synchronized void stop(Kind why, String words) {
        if (reason == null) {
            stopNano = System.nanoTime();
            kind = why;
            reason = words;
        } else if (why.invalidates() && !invalid) {
            try {
                reason = reason() + "; then " + words; // a failure while finishing still makes the run invalid: say why
            } catch (OutOfMemoryError e) {
                reason = words;
            }
        }
        invalid |= why.invalidates();
        try {
            for (Thread t : waiting) {
                LockSupport.unpark(t);
            }
        } catch (OutOfMemoryError e) {
            // No heap for the iterator: waiting threads see the flag at the end of their wait.
        }
    }

    /**
     * A stop request after the end of the planned phases that aborted requests still in flight: the run no longer
     * ended as planned, so an end becomes an interruption with these words (a no-op after any other first stop).
     */
    public synchronized void interruptEnd(String words) {
        if (kind == Kind.END) {
            kind = Kind.INTERRUPTED;
            reason = words;
        }
    }

    /** The run reached the end of its planned phases (a no-op when it was stopped before). */
    public void end() {
        stop(Kind.END, StopCause.END.reason());
    }

    /** Out of memory, with no heap to say where: the words are a constant. */
    public void stopOutOfMemory() {
        stop(Kind.OUT_OF_MEMORY, OUT_OF_MEMORY);
    }

    public boolean stopped() {
        return reason != null;
    }

    /**
     * Stops the run because {@code who} ran out of heap, without allocating: the heap is exhausted at this moment (other
     * threads take whatever a freed reserve gave back), so the words and numbers are kept as they are and put into a
     * sentence when the reason is read, after the run, when the users' memory is free again.
     *
     * @param threadKind "thread " for a JVM thread, "" for a user or session
     */
    public synchronized void stopOutOfMemory(
            String threadKind, String who, long sessionsActive, long usersStarted, String detail) {
        if (reason == null) {
            oomKind = threadKind;
            oomWho = who;
            oomActive = sessionsActive;
            oomUsersStarted = usersStarted;
            oomDetail = detail;
            stop(Kind.OUT_OF_MEMORY, OUT_OF_MEMORY_PENDING);
        } else {
            try { // a stop before (the end of the run, Ctrl-C): the words are added to its reason, when there is heap
                // for them
                stop(Kind.OUT_OF_MEMORY, outOfMemory(threadKind, who, sessionsActive, usersStarted, detail));
            } catch (OutOfMemoryError e) {
                stopOutOfMemory();
            }
        }
    }

    /**
     * The words, with a StringBuilder rather than {@code +}: a string concatenation is an invokedynamic call site,
     * linked the first time it runs, and a link that fails for want of heap fails that call site for good (a
     * BootstrapMethodError on every later call, JVMS 5.4.3), even once the heap is free again. This runs first when the
     * heap is exhausted.
     */
    private static String outOfMemory(String kind, String who, long sessionsActive, long usersStarted, String detail) {
        return new StringBuilder("out of memory in ")
                .append(kind)
                .append(who)
                .append(" (")
                .append(sessionsActive)
                .append(" sessions active, ")
                .append(usersStarted)
                .append(" users started): ")
                .append(detail)
                .toString();
    }

    /** The stop reason in words (null while running). */
    public String reason() {
        String r = reason;
        if (r == OUT_OF_MEMORY_PENDING) {
            try {
                r = outOfMemory(oomKind, oomWho, oomActive, oomUsersStarted, oomDetail);
                reason = r;
            } catch (OutOfMemoryError e) {
                return OUT_OF_MEMORY;
            }
        }
        return r;
    }

    /** The first stop's kind with the words said so far (null while running). */
    public StopCause cause() {
        Kind k = kind;
        return k == null ? null : new StopCause(k, reason());
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
