package org.rubis.client.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ReplyExtractorTest {

    @Test
    void itemIdIsOneOfTheLinksUniformly() {
        SplittableRandom r = new SplittableRandom(3);
        Map<Integer, Integer> seen = new HashMap<>();
        int n = 40_000;
        for (int i = 0; i < n; i++) {
            seen.merge(ReplyFacts.of(Fixtures.SEARCH_PAGE).randomItemId(r), 1, Integer::sum);
        }
        // Four occurrences of itemId= (101 twice), each picked with probability 1/4.
        assertEquals(3, seen.size(), seen.toString());
        assertEquals(0.5, seen.get(101) / (double) n, 0.02);
        assertEquals(0.25, seen.get(202) / (double) n, 0.02);
        assertEquals(0.25, seen.get(303) / (double) n, 0.02, "digits stop at '&'");
        assertEquals(-1, ReplyFacts.of("<html>no items</html>").randomItemId(r));
        assertEquals(-1, ReplyFacts.of(null).randomItemId(r));
    }

    @Test
    void pageIsOneOfPreviousAndNextOrTheOnlyOneOrZero() {
        SplittableRandom r = new SplittableRandom(4);
        Map<Integer, Integer> seen = new HashMap<>();
        for (int i = 0; i < 10_000; i++) {
            seen.merge(ReplyFacts.of(Fixtures.SEARCH_PAGE).page(r), 1, Integer::sum);
        }
        assertEquals(2, seen.size());
        assertTrue(seen.get(1) > 4500 && seen.get(3) > 4500, seen.toString());
        assertEquals(1, ReplyFacts.of(Fixtures.FIRST_PAGE).page(r));
        assertEquals(0, ReplyFacts.of("<html></html>").page(r));
    }

    @Test
    void formValuesAndFirstOccurrences() {
        assertEquals(4, ReplyExtractor.firstInt(Fixtures.PUT_BID_PAGE, "name=maxQty value="));
        assertEquals(86.5f, ReplyExtractor.firstFloat(Fixtures.PUT_BID_PAGE, "name=minBid value="));
        assertEquals(3567, ReplyExtractor.firstInt(Fixtures.PUT_BID_PAGE, "userId="));
        assertEquals(3567, ReplyExtractor.firstInt(Fixtures.PUT_BID_PAGE, "to="));
        assertEquals(42, ReplyExtractor.firstInt(Fixtures.PUT_COMMENT_PAGE, "name=to value="));
        assertEquals(-1, ReplyExtractor.firstInt(Fixtures.PUT_COMMENT_PAGE, "userId="));
        assertEquals(-1f, ReplyExtractor.firstFloat("nothing", "name=minBid value="));
        ReplyFacts f = ReplyFacts.of(Fixtures.PUT_BID_PAGE);
        assertEquals(4, f.maxQty());
        assertEquals(86.5f, f.minBid());
        assertEquals(3567, f.userId());
        assertEquals(3567, f.to());
        assertEquals(42, ReplyFacts.of(Fixtures.PUT_COMMENT_PAGE).nameTo());
    }
}
