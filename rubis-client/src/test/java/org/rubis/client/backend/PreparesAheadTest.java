package org.rubis.client.backend;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rubis.client.config.ConfigLoader;

/** The rule every execution model asks before it wakes early for a prepare ({@link PrepareAhead}). */
class PreparesAheadTest {

    private static final long MS = 1_000_000L;

    /** A preparing backend with the given lead, whose sessions have something to prepare when {@code open} is false. */
    private static PreparingBackend backend(long lead, boolean open) {
        return new PreparingBackend() {
            @Override
            public String name() {
                return "test";
            }

            @Override
            public Session startSession() {
                return new Session() {};
            }

            @Override
            public void endSession(Session s) {}

            @Override
            public void abortInFlight() {}

            @Override
            public void close() {}

            @Override
            public long prepareLeadNanos() {
                return lead;
            }

            @Override
            public boolean prepares(Session s, long at) {
                return !open;
            }

            @Override
            public void prepare(Session s) {}
        };
    }

    @Test
    void onlyABackendWithALeadPrepares() {
        Backend none = backend(0, false);
        assertFalse(PrepareAhead.of(none).due(none.startSession(), 100 * MS));
        assertFalse(PrepareAhead.of(none).due(null, 100 * MS));
        Backend blocking =
                Backends.create(ConfigLoader.load((Path) null, Map.of()).execution(), "http://127.0.0.1:9");
        assertFalse(PrepareAhead.of(blocking).enabled(), "a backend that is no PreparingBackend never prepares");
        assertFalse(PrepareAhead.of(blocking).due(null, 100 * MS));
    }

    @Test
    void onlyARequestDueLaterThanTwiceTheLead() {
        Backend b = backend(MS, false);
        assertFalse(PrepareAhead.of(b).due(b.startSession(), 2 * MS), "no room for the lead and the timer's lateness");
        assertTrue(PrepareAhead.of(b).due(b.startSession(), 2 * MS + 1));
    }

    @Test
    void onlyASessionWithSomethingToPrepareOrNoneYet() {
        Backend open = backend(MS, true);
        assertFalse(PrepareAhead.of(open).due(open.startSession(), 100 * MS), "its connection is open");
        assertTrue(
                PrepareAhead.of(open).due(null, 100 * MS),
                "a session not created yet opens a connection on its first request");
    }
}
