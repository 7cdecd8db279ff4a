package org.rubis.client.workload;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.random.RandomGenerator;

/**
 * Builds the request path (with query) of each interaction, as the original's URL generators and
 * {@code UserSession.computeURLFromState} do, drawing parameters from the session's param stream.
 */
public final class RequestGenerator {

    private static final int[] RATINGS = {-5, -3, 0, 3, 5};
    private static final String TEXT = buildText(16_384);

    private final WorkloadModel model;
    private final UrlLayout layout;
    /** "_" and the run's write salt, or "" without one: appended to what the run writes that must be unique. */
    private final String saltSuffix;

    public RequestGenerator(WorkloadModel model) {
        this.model = model;
        this.layout = model.layout();
        this.saltSuffix = model.writeSalt().isEmpty() ? "" : "_" + model.writeSalt();
    }

    /** Session context the generator reads: the user and what the previous replies contained. */
    public interface Context {
        int userId(); // 0-based; nickname user<id+1>

        ReplyFacts reply(); // what the previous reply contained

        int itemId(); // a random itemId of the last reply, or the session's last one, or -1

        RandomGenerator random();
    }

    /**
     * The path for {@code state}, or null when the state needs an id the previous reply lacks (the
     * caller then goes back, as the original does for ViewItem, ViewUserInfo and PutBid).
     */
    public String path(Interaction state, Context c) {
        RandomGenerator r = c.random();
        int uid = c.userId() + 1;
        ReplyFacts html = c.reply();
        return switch (state) {
            case HOME -> layout.page("index.html");
            case REGISTER -> layout.page("register.html");
            case REGISTER_USER -> {
                long i = (long) model.policy().users() + r.nextInt(1_000_000) + 1;
                String region = model.data()
                        .regions()
                        .get(r.nextInt(model.data().regions().size()));
                String salt = saltSuffix;
                yield layout.script("RegisterUser") + "?firstname=Great" + i + "&lastname=User" + i + "&nickname=user"
                        + i + salt + "&email=Great" + i + ".User" + i + salt + "@rubis.com&password=password" + i
                        + "&region=" + enc(region);
            }
            case BROWSE -> layout.page("browse.html");
            case BROWSE_CATEGORIES -> layout.script("BrowseCategories");
            case SEARCH_ITEMS_IN_CATEGORY -> {
                int cat = r.nextInt(model.data().categories().size());
                String name = model.data().categories().get(cat).name();
                int page = html.page(r);
                yield layout.script("SearchItemsByCategory") + "?category=" + id(cat) + "&categoryName=" + enc(name)
                        + "&page=" + page + "&nbOfItems=" + model.itemsPerPage();
            }
            case BROWSE_REGIONS -> layout.script("BrowseRegions");
            case BROWSE_CATEGORIES_IN_REGION ->
                layout.script("BrowseCategories") + "?region="
                        + enc(model.data()
                                .regions()
                                .get(r.nextInt(model.data().regions().size())));
            case SEARCH_ITEMS_IN_REGION -> {
                int cat = r.nextInt(model.data().categories().size());
                String name = model.data().categories().get(cat).name();
                int region = r.nextInt(model.data().regions().size());
                int page = html.page(r);
                yield layout.script("SearchItemsByRegion") + "?region=" + id(region) + "&category=" + id(cat)
                        + "&categoryName=" + enc(name) + "&page=" + page + "&nbOfItems=" + model.itemsPerPage();
            }
            case VIEW_ITEM -> {
                int item = c.itemId();
                yield item < 0 ? null : layout.script("ViewItem") + "?itemId=" + item;
            }
            case VIEW_USER_INFO -> {
                int user = html.userId();
                yield user < 0 ? null : layout.script("ViewUserInfo") + "?userId=" + user;
            }
            case VIEW_BID_HISTORY -> layout.script("ViewBidHistory") + "?itemId=" + c.itemId();
            case BUY_NOW_AUTH -> layout.script("BuyNowAuth") + "?itemId=" + c.itemId();
            case BUY_NOW -> layout.script("BuyNow") + "?itemId=" + c.itemId() + credentials("&", uid);
            case STORE_BUY_NOW -> {
                int maxQty = Math.max(1, html.maxQty());
                int qty = r.nextInt(maxQty) + 1;
                yield layout.script("StoreBuyNow") + "?itemId=" + c.itemId() + "&userId=" + uid + "&qty=" + qty
                        + "&maxQty=" + maxQty;
            }
            case PUT_BID_AUTH -> layout.script("PutBidAuth") + "?itemId=" + c.itemId();
            case PUT_BID -> {
                int item = c.itemId();
                yield item < 0 ? null : layout.script("PutBid") + "?itemId=" + item + credentials("&", uid);
            }
            case STORE_BID -> {
                float minBid = html.minBid();
                int add = r.nextInt(10) + 1;
                int maxQty = Math.max(1, html.maxQty());
                int qty = r.nextInt(maxQty) + 1;
                yield layout.script("StoreBid") + "?itemId=" + c.itemId() + "&userId=" + uid + "&minBid=" + minBid
                        + "&bid=" + (minBid + add) + "&maxBid=" + (minBid + add * 2) + "&maxQty=" + maxQty + "&qty="
                        + qty;
            }
            case PUT_COMMENT_AUTH -> layout.script("PutCommentAuth") + "?itemId=" + c.itemId() + "&to=" + html.to();
            case PUT_COMMENT ->
                layout.script("PutComment") + "?itemId=" + c.itemId() + "&to=" + html.to() + credentials("&", uid);
            case STORE_COMMENT -> {
                int to = html.nameTo();
                int rating = RATINGS[r.nextInt(RATINGS.length)];
                String comment = salted(text(r, model.policy().commentMaxLength()));
                yield layout.script("StoreComment") + "?itemId=" + c.itemId() + "&to=" + to + "&from=" + uid
                        + "&rating=" + rating + "&comment=" + comment;
            }
            case SELL -> layout.page("sell.html");
            case SELECT_CATEGORY_TO_SELL_ITEM -> layout.script("BrowseCategories") + credentials("?", uid);
            case SELL_ITEM_FORM ->
                layout.script("SellItemForm") + "?user=" + uid + "&category="
                        + id(r.nextInt(model.data().categories().size()));
            case REGISTER_ITEM -> registerItem(r, uid);
            case ABOUT_ME_AUTH -> layout.page("about_me.html");
            case ABOUT_ME -> layout.script("AboutMe") + credentials("?", uid);
        };
    }

    private String registerItem(RandomGenerator r, int uid) {
        DatabasePolicy p = model.policy();
        String name = "RUBiS+automatically+generated+item+%23" + r.nextInt(1_000_000) + saltSuffix;
        String description = text(r, p.itemDescriptionLength());
        int initialPrice = r.nextInt(5000) + 1;
        int reservePrice = r.nextInt(100) < p.percentReservePrice() ? r.nextInt(1000) + initialPrice : 0;
        int buyNow = r.nextInt(100) < p.percentBuyNow() ? r.nextInt(1000) + initialPrice + reservePrice : 0;
        int duration = r.nextInt(7) + 1;
        int quantity = r.nextInt(100) < p.percentUniqueItems()
                ? 1
                : r.nextInt(Math.max(1, p.maxQuantityForMultipleItems())) + 1;
        int category = id(r.nextInt(model.data().categories().size()));
        return layout.script("RegisterItem") + "?name=" + name + "&description=" + description + "&initialPrice="
                + initialPrice
                + "&reservePrice=" + reservePrice + "&buyNow=" + buyNow + "&duration=" + duration + "&quantity="
                + quantity
                + "&userId=" + uid + "&categoryId=" + category;
    }

    /** {@code lead} + "nickname=user<uid>&password=password<uid>": built only for the states that send it (most do not). */
    private static String credentials(String lead, int uid) {
        return lead + "nickname=user" + uid + "&password=password" + uid;
    }

    /** A written text with the run's salt in front ({@link WorkloadModel#writeSalt()}). */
    private String salted(String text) {
        return saltSuffix.isEmpty() ? text : model.writeSalt() + "+" + text;
    }

    private int id(int zeroBased) {
        return model.oneBasedIds() ? zeroBased + 1 : zeroBased;
    }

    /** Random-length text (1..max characters), URL-safe, cut from a fixed pool: no per-request building. */
    private static String text(RandomGenerator r, int max) {
        int len = 1 + r.nextInt(Math.max(1, Math.min(max, TEXT.length())));
        return TEXT.substring(0, len);
    }

    private static String buildText(int n) {
        String words = "RUBiS+automatically+generated+text+";
        StringBuilder b = new StringBuilder(n);
        while (b.length() < n) {
            b.append(words);
        }
        b.setLength(n);
        return b.toString();
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
