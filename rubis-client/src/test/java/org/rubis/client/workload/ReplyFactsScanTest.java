package org.rubis.client.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The one-pass page scan of {@link ReplyFacts#of} finds exactly what the original's rules find
 * key by key ({@link ReplyExtractor}, {@link ReplyFacts#ofByKeys}): on the fixture pages and on
 * random pages made of the keys, their look-alikes, digits and separators.
 */
class ReplyFactsScanTest {

    private static final List<String> PIECES = List.of(
            "itemId=",
            "userId=",
            "&page=",
            "to=",
            "name=maxQty value=",
            "name=to value=",
            "name=minBid value=",
            "photo=",
            "Id=",
            "page=",
            "=",
            "==",
            "value=",
            "name=",
            "<a href=\"/PHP/ViewItem.php?",
            "\">",
            "&",
            "?",
            " ",
            "\n",
            "\"",
            ">",
            "-",
            ".",
            "5",
            "42",
            "007",
            "1.5",
            "99999999999999999999",
            "x",
            "ERROR",
            "Sorry");

    @Test
    void oneScanFindsWhatTheScanPerKeyFinds() {
        for (String page : List.of(
                Fixtures.SEARCH_PAGE,
                Fixtures.FIRST_PAGE,
                Fixtures.PUT_BID_PAGE,
                Fixtures.PUT_COMMENT_PAGE,
                "",
                "=",
                "<html></html>")) {
            assertEquals(
                    ReplyFacts.ofByKeys(page).toString(), ReplyFacts.of(page).toString(), page);
        }
        Random r = new Random(14);
        for (int n = 0; n < 20_000; n++) {
            StringBuilder b = new StringBuilder();
            for (int k = r.nextInt(40); k > 0; k--) {
                b.append(PIECES.get(r.nextInt(PIECES.size())));
            }
            String page = b.toString();
            assertEquals(
                    ReplyFacts.ofByKeys(page).toString(), ReplyFacts.of(page).toString(), page);
        }
    }

    @Test
    void aPageWithoutKeysSharesTheEmptyFacts() {
        assertSame(ReplyFacts.NONE, ReplyFacts.of("<html><body><p>a static page</p></body></html>"));
    }
}
