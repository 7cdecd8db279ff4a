package org.rubis.client.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The anchor is the tightest bracket's, its midpoint, and it reports the bracket's width. */
class EpochAnchorTest {

    @Test
    void keepsTheTightestBracketAndReportsItsWidth() {
        // three brackets: [0, 900] (a preemption), [1000, 1040], [2000, 2300]
        Iterator<Long> nanos = List.of(0L, 900L, 1000L, 1040L, 2000L, 2300L).iterator();
        Iterator<Instant> walls = List.of(
                        Instant.ofEpochSecond(100, 500),
                        Instant.ofEpochSecond(100, 1_500),
                        Instant.ofEpochSecond(100, 2_700))
                .iterator();
        EpochAnchor a = EpochAnchor.take(3, nanos::next, walls::next);
        assertEquals(40, a.bracketNs());
        assertEquals(1020, a.nano(), "the midpoint of the tightest bracket");
        assertEquals(100_000_001_500L, a.epochNs());
        assertEquals(100_000_001_500L + 980, a.epochNs(2000), "instants map through the anchor");
    }

    @Test
    void theRealClocksGiveASmallNonNegativeBracket() {
        long before = System.currentTimeMillis();
        EpochAnchor a = EpochAnchor.take();
        long after = System.currentTimeMillis();
        assertTrue(a.bracketNs() >= 0, "bracket " + a.bracketNs());
        long ms = a.epochNs(System.nanoTime()) / 1_000_000;
        assertTrue(
                ms >= before - 1000 && ms <= after + 1000, "anchored now " + ms + " vs wall " + before + ".." + after);
    }
}
