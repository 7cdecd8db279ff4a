package org.rubis.client.workload;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * What the next request may need from a reply, extracted once when the reply arrives (with the
 * original's rules, {@link ReplyExtractor}) so that a thinking user keeps a few numbers instead of
 * the whole page: with thousands of users the pages would be most of the client's heap. The random
 * choices (which itemId link, previous or next page) are still drawn when the next URL is built,
 * exactly as the original draws them.
 */
public final class ReplyFacts {

    public static final ReplyFacts NONE = new ReplyFacts(new int[0], new int[0], -1, -1, -1, -1, -1f);

    private final int[] itemIds;   // every itemId= occurrence, in page order (-1 where no digits followed)
    private final int[] pages;     // the first one or two &page= values
    private final int userId;
    private final int to;
    private final int maxQty;
    private final int nameTo;
    private final float minBid;

    private ReplyFacts(int[] itemIds, int[] pages, int userId, int to, int maxQty, int nameTo, float minBid) {
        this.itemIds = itemIds;
        this.pages = pages;
        this.userId = userId;
        this.to = to;
        this.maxQty = maxQty;
        this.nameTo = nameTo;
        this.minBid = minBid;
    }

    public static ReplyFacts of(String html) {
        if (html == null) {
            return NONE;
        }
        return new ReplyFacts(ReplyExtractor.allItemIds(html), ReplyExtractor.pages(html),
                ReplyExtractor.firstInt(html, "userId="), ReplyExtractor.firstInt(html, "to="),
                ReplyExtractor.firstInt(html, "name=maxQty value="), ReplyExtractor.firstInt(html, "name=to value="),
                ReplyExtractor.firstFloat(html, "name=minBid value="));
    }

    /** One itemId link chosen uniformly at random, or -1 when the page had none. */
    public int randomItemId(RandomGenerator random) {
        return itemIds.length == 0 ? -1 : itemIds[random.nextInt(itemIds.length)];
    }

    /** The page of a previous/next link: one of two at random, the only one, or 0. */
    public int page(RandomGenerator random) {
        if (pages.length == 0) {
            return 0;
        }
        int p = pages.length == 2 && random.nextInt(2) == 1 ? pages[1] : pages[0];
        return Math.max(0, p);
    }

    public int userId() { return userId; }
    public int to() { return to; }
    public int maxQty() { return maxQty; }
    public int nameTo() { return nameTo; }
    public float minBid() { return minBid; }

    @Override
    public String toString() {
        return "ReplyFacts[itemIds=" + Arrays.toString(itemIds) + ", pages=" + Arrays.toString(pages) + ", userId=" + userId + ", to=" + to
                + ", maxQty=" + maxQty + ", nameTo=" + nameTo + ", minBid=" + minBid + "]";
    }
}
