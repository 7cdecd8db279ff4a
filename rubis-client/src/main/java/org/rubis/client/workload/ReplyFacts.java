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

    private final int[] itemIds; // every itemId= occurrence, in page order (-1 where no digits followed)
    private final int[] pages; // the first one or two &page= values
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

    private static final int[] NO_INTS = new int[0];
    private static final String ITEM_ID = "itemId=";
    private static final String USER_ID = "userId=";
    private static final String PAGE = "&page=";
    private static final String TO = "to=";
    private static final String MAX_QTY = "name=maxQty value=";
    private static final String NAME_TO = "name=to value=";
    private static final String MIN_BID = "name=minBid value=";

    /**
     * The facts of a page in one pass over its {@code =} signs: every key ends with one, so each
     * occurrence of a key is found where its {@code =} is, exactly the occurrences the original's
     * rules ({@link ReplyExtractor}, one scan per key) find. A page with none of them shares
     * {@link #NONE}.
     */
    public static ReplyFacts of(String html) {
        if (html == null) {
            return NONE;
        }
        int[] ids = NO_INTS;
        int nIds = 0;
        long page1 = 0;
        long page2 = 0;
        int nPages = 0;
        int userId = -1;
        int to = -1;
        int maxQty = -1;
        int nameTo = -1;
        float minBid = -1f;
        boolean userSeen = false;
        boolean toSeen = false;
        boolean maxQtySeen = false;
        boolean nameToSeen = false;
        boolean minBidSeen = false;
        for (int eq = html.indexOf('='); eq >= 0; eq = html.indexOf('=', eq + 1)) {
            int v = eq + 1;
            if (endsAt(html, v, ITEM_ID)) {
                if (nIds == ids.length) {
                    ids = Arrays.copyOf(ids, Math.max(8, 2 * nIds));
                }
                ids[nIds++] = (int) Math.min(Integer.MAX_VALUE, ReplyExtractor.parseLong(html, v));
            } else if (endsAt(html, v, PAGE)) {
                if (nPages == 0) {
                    page1 = ReplyExtractor.parseLong(html, v);
                    nPages = 1;
                } else if (nPages == 1) {
                    page2 = ReplyExtractor.parseLong(html, v);
                    nPages = 2;
                }
            } else if (!userSeen && endsAt(html, v, USER_ID)) {
                userSeen = true;
                userId = asInt(ReplyExtractor.parseLong(html, v));
            } else if (!toSeen && endsAt(html, v, TO)) {
                toSeen = true;
                to = asInt(ReplyExtractor.parseLong(html, v));
            } else if (!maxQtySeen && endsAt(html, v, MAX_QTY)) {
                maxQtySeen = true;
                maxQty = asInt(ReplyExtractor.parseLong(html, v));
            } else if (!nameToSeen && endsAt(html, v, NAME_TO)) {
                nameToSeen = true;
                nameTo = asInt(ReplyExtractor.parseLong(html, v));
            } else if (!minBidSeen && endsAt(html, v, MIN_BID)) {
                minBidSeen = true;
                minBid = ReplyExtractor.floatAt(html, v);
            }
        }
        if (nIds == 0 && nPages == 0 && userId == -1 && to == -1 && maxQty == -1 && nameTo == -1 && minBid == -1f) {
            return NONE;
        }
        int[] pages =
                nPages == 0 ? NO_INTS : nPages == 1 ? new int[] {(int) page1} : new int[] {(int) page1, (int) page2};
        return new ReplyFacts(
                nIds == ids.length ? ids : Arrays.copyOf(ids, nIds), pages, userId, to, maxQty, nameTo, minBid);
    }

    /** {@code key} ends just before {@code end} in {@code s}. */
    private static boolean endsAt(String s, int end, String key) {
        int start = end - key.length();
        return start >= 0 && s.startsWith(key, start);
    }

    private static int asInt(long v) {
        return v > Integer.MAX_VALUE ? -1 : (int) v;
    }

    /** The original's rules applied key by key, one scan each: the reference {@link #of} must agree with. */
    static ReplyFacts ofByKeys(String html) {
        if (html == null) {
            return NONE;
        }
        return new ReplyFacts(
                ReplyExtractor.allItemIds(html),
                ReplyExtractor.pages(html),
                ReplyExtractor.firstInt(html, "userId="),
                ReplyExtractor.firstInt(html, "to="),
                ReplyExtractor.firstInt(html, "name=maxQty value="),
                ReplyExtractor.firstInt(html, "name=to value="),
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

    public int userId() {
        return userId;
    }

    public int to() {
        return to;
    }

    public int maxQty() {
        return maxQty;
    }

    public int nameTo() {
        return nameTo;
    }

    public float minBid() {
        return minBid;
    }

    @Override
    public String toString() {
        return "ReplyFacts[itemIds=" + Arrays.toString(itemIds) + ", pages=" + Arrays.toString(pages) + ", userId="
                + userId + ", to=" + to + ", maxQty=" + maxQty + ", nameTo=" + nameTo + ", minBid=" + minBid + "]";
    }
}
