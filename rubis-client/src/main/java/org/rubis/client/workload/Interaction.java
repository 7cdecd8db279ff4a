package org.rubis.client.workload;

/**
 * The 27 RUBiS interactions, in the row/column order of the transition tables. The order is part of
 * the file format: row {@code i} of a table is the interaction with {@code ordinal() == i}.
 */
public enum Interaction {
    HOME("Home"),
    REGISTER("Register"),
    REGISTER_USER("RegisterUser"),
    BROWSE("Browse"),
    BROWSE_CATEGORIES("BrowseCategories"),
    SEARCH_ITEMS_IN_CATEGORY("SearchItemsInCategory"),
    BROWSE_REGIONS("BrowseRegions"),
    BROWSE_CATEGORIES_IN_REGION("BrowseCategoriesInRegion"),
    SEARCH_ITEMS_IN_REGION("SearchItemsInRegion"),
    VIEW_ITEM("ViewItem"),
    VIEW_USER_INFO("ViewUserInfo"),
    VIEW_BID_HISTORY("ViewBidHistory"),
    BUY_NOW_AUTH("BuyNowAuth"),
    BUY_NOW("BuyNow"),
    STORE_BUY_NOW("StoreBuyNow"),
    PUT_BID_AUTH("PutBidAuth"),
    PUT_BID("PutBid"),
    STORE_BID("StoreBid"),
    PUT_COMMENT_AUTH("PutCommentAuth"),
    PUT_COMMENT("PutComment"),
    STORE_COMMENT("StoreComment"),
    SELL("Sell"),
    SELECT_CATEGORY_TO_SELL_ITEM("SelectCategoryToSellItem"),
    SELL_ITEM_FORM("SellItemForm"),
    REGISTER_ITEM("RegisterItem"),
    ABOUT_ME_AUTH("AboutMeAuth"),
    ABOUT_ME("AboutMe");

    public static final int COUNT = 27;
    private static final Interaction[] VALUES = values();

    private final String label;

    Interaction(String label) {
        this.label = label;
    }

    /** The name used in logs and reports (no spaces, stable). */
    public String label() {
        return label;
    }

    public static Interaction of(int index) {
        return VALUES[index];
    }

    /** The interaction a log names (requests.csv's {@code state}). */
    public static Interaction byLabel(String label) {
        for (Interaction i : VALUES) {
            if (i.label.equals(label)) {
                return i;
            }
        }
        throw new IllegalArgumentException("unknown interaction " + label);
    }
}
