package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.rubis.format.run.StopCause;

/**
 * An out-of-memory stop keeps who failed, the sessions active and the users started as they are (the heap is exhausted
 * at that moment), and says them when the reason is read; it is the first reason, as any stop, and what follows is
 * added to it.
 */
class StopSignalTest {

    private static final String WRITER =
            "out of memory in thread run-log-writer (2998 sessions active, 3000 users started): Java heap space";

    @Test
    void anOutOfMemoryStopSaysWhereWhenItsReasonIsRead() {
        StopSignal stop = new StopSignal();
        stop.stopOutOfMemory("thread ", "run-log-writer", 2_998, 3_000, "Java heap space");
        assertTrue(stop.stopped());
        assertTrue(stop.invalid());
        assertEquals(WRITER, stop.reason());
        stop.end();
        stop.stopOutOfMemory("", "user-18", 11, 40, "Java heap space");
        assertEquals(WRITER, stop.reason(), "the first reason wins");
    }

    @Test
    void anOutOfMemoryAfterTheRunEndedIsAddedToItsReason() {
        StopSignal stop = new StopSignal();
        stop.end();
        stop.stopOutOfMemory("", "user-17", 12, 40, "Java heap space");
        assertTrue(stop.invalid());
        assertEquals(
                "complete; then out of memory in user-17 (12 sessions active, 40 users started): Java heap space",
                stop.reason());
    }

    /**
     * The first stop's kind is the run's cause (the summary's status reads it, never the words); a later one only adds
     * words when it invalidates.
     */
    @Test
    void theFirstKindIsTheCauseAndALaterInvalidStopMarksTheRun() {
        StopSignal stop = new StopSignal();
        assertEquals(null, stop.cause());
        stop.stop(StopCause.Kind.TARGET_DIED, "target died: it answered, then refused");
        stop.end();
        stop.stop(StopCause.Kind.CLEANUP_FAILED, "cleanup of backend failed");
        assertEquals(new StopCause(StopCause.Kind.TARGET_DIED, "target died: it answered, then refused"), stop.cause());
        assertTrue(stop.invalid());

        StopSignal ended = new StopSignal();
        ended.end();
        ended.stop(StopCause.Kind.CLEANUP_FAILED, "cleanup of request log failed");
        assertEquals(StopCause.END, ended.cause());
        assertTrue(!ended.invalid(), "a cleanup failure leaves the figures standing");
        ended.stop(StopCause.Kind.OUT_OF_MEMORY, "the statistics ran out of heap");
        assertEquals(StopCause.Kind.END, ended.cause().kind());
        assertEquals(
                "complete; then the statistics ran out of heap", ended.cause().reason());
        assertTrue(ended.invalid());
    }
}
