package org.rubis.client.backend;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The rule every execution model asks before it wakes early for {@link Backend#prepare}. */
class PreparesAheadTest {

    private static final long MS = 1_000_000L;

    /** A backend with the given lead, whose sessions have something to prepare when {@code open} is false. */
    private static Backend backend(long lead, boolean open) {
        return new Backend() {
            @Override public String name() { return "test"; }
            @Override public Session startSession() { return new Session() {}; }
            @Override public void execute(Session s, String path, Reply out) {}
            @Override public void endSession(Session s) {}
            @Override public void close() {}
            @Override public long prepareLeadNanos() { return lead; }
            @Override public boolean prepares(Session s, long at) { return !open; }
        };
    }

    @Test
    void onlyABackendWithALeadPrepares() {
        Backend none = backend(0, false);
        assertFalse(none.preparesAhead(none.startSession(), 100 * MS));
        assertFalse(none.preparesAhead(null, 100 * MS));
    }

    @Test
    void onlyARequestDueLaterThanTwiceTheLead() {
        Backend b = backend(MS, false);
        assertFalse(b.preparesAhead(b.startSession(), 2 * MS), "no room for the lead and the timer's lateness");
        assertTrue(b.preparesAhead(b.startSession(), 2 * MS + 1));
    }

    @Test
    void onlyASessionWithSomethingToPrepareOrNoneYet() {
        Backend open = backend(MS, true);
        assertFalse(open.preparesAhead(open.startSession(), 100 * MS), "its connection is open");
        assertTrue(open.preparesAhead(null, 100 * MS), "a session not created yet opens a connection on its first request");
    }
}
