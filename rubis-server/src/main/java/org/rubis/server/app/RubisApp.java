package org.rubis.server.app;

import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.Map;
import org.rubis.server.data.Database;

/**
 * The RUBiS PHP application: routes {@code /PHP/...} requests to the interactions of the original
 * site and renders pages with the markers the client extracts ({@code itemId=}, {@code &page=},
 * {@code userId=}, {@code to=}, {@code name=maxQty value=}, {@code name=minBid value=},
 * {@code name=to value=}). Bad parameters and failed logins give the ERROR page with status 200,
 * searches that match nothing give a "Sorry" page, unknown paths 404. Thread-safe.
 */
public final class RubisApp {

    private static final String P = "/PHP/";
    private static final byte[] IMAGE = buildImage();

    private final Database db;
    private final int idleCpuMicros;
    private final Map<String, Integer> demandMicros;

    /**
     * @param demandMicros extra CPU work per interaction label (busy loop), "*" for every request
     */
    public RubisApp(Database db, Map<String, Integer> demandMicros) {
        this.db = db;
        this.demandMicros = Map.copyOf(demandMicros);
        this.idleCpuMicros = demandMicros.getOrDefault("*", 0);
    }

    /** Answers one GET request for {@code uri} (path and query). Never throws. */
    public Response handle(String uri) {
        QueryStringDecoder d = new QueryStringDecoder(uri, StandardCharsets.UTF_8);
        String path = d.path();
        Query q = new Query(d.parameters());
        Response r;
        String label = "?";
        try {
            label = interaction(path, q);
            r = route(label, path, q);
        } catch (Query.BadParameter e) {
            r = Response.html(label, Html.error(label, e.getMessage()));
        } catch (SQLException e) {
            r = Response.html(
                    label,
                    Html.error(
                            label,
                            "the database failed: "
                                    + e.getMessage().lines().findFirst().orElse("")));
        } catch (RuntimeException e) {
            r = Response.html(label, Html.error(label, "internal failure: " + e));
        }
        burn(r.interaction());
        return r;
    }

    /** The client's interaction name for a request (also for the ground-truth log). */
    static String interaction(String path, Query q) {
        if (!path.startsWith(P)) {
            return "NotFound";
        }
        String name = path.substring(P.length());
        return switch (name) {
            case "", "index.html" -> "Home";
            case "register.html" -> "Register";
            case "browse.html" -> "Browse";
            case "sell.html" -> "Sell";
            case "about_me.html" -> "AboutMeAuth";
            case "RegisterUser.php" -> "RegisterUser";
            case "BrowseCategories.php" ->
                q.has("nickname")
                        ? "SelectCategoryToSellItem"
                        : q.has("region") ? "BrowseCategoriesInRegion" : "BrowseCategories";
            case "SearchItemsByCategory.php" -> "SearchItemsInCategory";
            case "BrowseRegions.php" -> "BrowseRegions";
            case "SearchItemsByRegion.php" -> "SearchItemsInRegion";
            case "ViewItem.php" -> "ViewItem";
            case "ViewUserInfo.php" -> "ViewUserInfo";
            case "ViewBidHistory.php" -> "ViewBidHistory";
            case "BuyNowAuth.php" -> "BuyNowAuth";
            case "BuyNow.php" -> "BuyNow";
            case "StoreBuyNow.php" -> "StoreBuyNow";
            case "PutBidAuth.php" -> "PutBidAuth";
            case "PutBid.php" -> "PutBid";
            case "StoreBid.php" -> "StoreBid";
            case "PutCommentAuth.php" -> "PutCommentAuth";
            case "PutComment.php" -> "PutComment";
            case "StoreComment.php" -> "StoreComment";
            case "SellItemForm.php" -> "SellItemForm";
            case "RegisterItem.php" -> "RegisterItem";
            case "AboutMe.php" -> "AboutMe";
            default -> name.endsWith(".jpg") || name.endsWith(".gif") ? "Image" : "NotFound";
        };
    }

    private Response route(String label, String path, Query q) throws SQLException {
        return switch (label) {
            case "Home" -> Response.html(label, StaticPages.INDEX);
            case "Register" -> Response.html(label, StaticPages.REGISTER);
            case "Browse" -> Response.html(label, StaticPages.BROWSE);
            case "Sell" -> Response.html(label, StaticPages.SELL);
            case "AboutMeAuth" -> Response.html(label, StaticPages.ABOUT_ME);
            case "Image" -> new Response(200, "image/jpeg", IMAGE, label);
            case "RegisterUser" -> Response.html(label, registerUser(q));
            case "BrowseCategories", "BrowseCategoriesInRegion", "SelectCategoryToSellItem" ->
                Response.html(label, browseCategories(label, q));
            case "SearchItemsInCategory" -> Response.html(label, searchItems(q, false));
            case "SearchItemsInRegion" -> Response.html(label, searchItems(q, true));
            case "BrowseRegions" -> Response.html(label, browseRegions());
            case "ViewItem" -> Response.html(label, viewItem(q));
            case "ViewUserInfo" -> Response.html(label, viewUserInfo(q));
            case "ViewBidHistory" -> Response.html(label, viewBidHistory(q));
            case "BuyNowAuth" -> Response.html(label, authForm("BuyNow", "Buy Now", q.integer("itemId"), null));
            case "PutBidAuth" -> Response.html(label, authForm("PutBid", "Bid", q.integer("itemId"), null));
            case "PutCommentAuth" ->
                Response.html(label, authForm("PutComment", "Comment", q.integer("itemId"), q.integer("to")));
            case "BuyNow" -> Response.html(label, buyNow(q));
            case "StoreBuyNow" -> Response.html(label, storeBuyNow(q));
            case "PutBid" -> Response.html(label, putBid(q));
            case "StoreBid" -> Response.html(label, storeBid(q));
            case "PutComment" -> Response.html(label, putComment(q));
            case "StoreComment" -> Response.html(label, storeComment(q));
            case "SellItemForm" -> Response.html(label, sellItemForm(q));
            case "RegisterItem" -> Response.html(label, registerItem(q));
            case "AboutMe" -> Response.html(label, aboutMe(q));
            default -> Response.notFound(path);
        };
    }

    // ---------------------------------------------------------------- interactions

    private String registerUser(Query q) throws SQLException {
        String first = q.string("firstname");
        String last = q.string("lastname");
        String nick = q.string("nickname");
        String email = q.string("email");
        String pwd = q.string("password");
        int region = regionId(q.string("region"));
        if (region < 0) {
            throw new Query.BadParameter("Region " + q.string("region") + " does not exist in the database!");
        }
        if (userId(nick) >= 0) {
            throw new Query.BadParameter(
                    "The nickname you have choosen is already taken by someone else. Please choose a new nickname.");
        }
        int id;
        try {
            id = db.session()
                    .insert(
                            "INSERT INTO users (firstname, lastname, nickname, password, email, rating,"
                                    + " balance, creation_date, region) VALUES (?, ?, ?, ?, ?, 0, 0, ?, ?)",
                            first,
                            last,
                            nick,
                            pwd,
                            email,
                            now(),
                            region);
        } catch (SQLException e) {
            if ("23505".equals(e.getSQLState())) { // a concurrent registration took the nickname
                throw new Query.BadParameter(
                        "The nickname you have choosen is already taken by someone else. Please choose a new nickname.");
            }
            throw e;
        }
        StringBuilder b = Html.begin("Register");
        b.append("<h2>Your registration has been processed successfully</h2><br>\n<h3>Welcome ")
                .append(Html.escape(nick))
                .append("</h3>\n")
                .append("RUBiS has stored the following information about you:<br>\n")
                .append("First Name : ")
                .append(Html.escape(first))
                .append("<br>\nLast Name : ")
                .append(Html.escape(last))
                .append("<br>\n")
                .append("Nick Name : ")
                .append(Html.escape(nick))
                .append("<br>\nEmail : ")
                .append(Html.escape(email))
                .append("<br>\n")
                .append("User id : ")
                .append(id)
                .append("<br>\n");
        return Html.end(b);
    }

    private String browseCategories(String label, Query q) throws SQLException {
        StringBuilder b = Html.begin("Browse Categories");
        String link;
        if (label.equals("SelectCategoryToSellItem")) {
            int uid = authenticate(q.string("nickname"), q.string("password"));
            b.append(
                    "<h2>Currently available categories</h2><br>\n<h3>Select the category of the item you want to sell</h3>\n");
            link = "SellItemForm.php?user=" + uid + "&category=";
        } else if (label.equals("BrowseCategoriesInRegion")) {
            int region = regionId(q.string("region"));
            if (region < 0) {
                throw new Query.BadParameter("Region " + q.string("region") + " does not exist in the database!");
            }
            b.append("<h2>Currently available categories in this region</h2><br>\n");
            link = "SearchItemsByRegion.php?region=" + region + "&category=";
        } else {
            b.append("<h2>Currently available categories</h2><br>\n");
            link = "SearchItemsByCategory.php?category=";
        }
        try (ResultSet rs = db.session().query("SELECT id, name FROM categories ORDER BY id")) {
            while (rs.next()) {
                String name = rs.getString(2);
                b.append("<a href=\"/PHP/")
                        .append(link)
                        .append(rs.getInt(1))
                        .append("&categoryName=")
                        .append(Html.url(name))
                        .append("\">")
                        .append(Html.escape(name))
                        .append("</a><br>\n");
            }
        }
        return Html.end(b);
    }

    private String browseRegions() throws SQLException {
        StringBuilder b = Html.begin("Browse Regions");
        b.append("<h2>Currently available regions</h2><br>\n");
        try (ResultSet rs = db.session().query("SELECT id, name FROM regions ORDER BY id")) {
            while (rs.next()) {
                String name = rs.getString(2);
                b.append("<a href=\"/PHP/BrowseCategories.php?region=")
                        .append(Html.url(name))
                        .append("\">")
                        .append(Html.escape(name))
                        .append("</a><br>\n");
            }
        }
        return Html.end(b);
    }

    private String searchItems(Query q, boolean byRegion) throws SQLException {
        int category = q.integer("category");
        String categoryName = q.string("categoryName", "");
        int page = Math.max(0, q.integer("page", 0));
        int perPage = Math.max(1, Math.min(500, q.integer("nbOfItems", 25)));
        int region = byRegion ? q.integer("region") : 0;
        StringBuilder b = Html.begin(byRegion ? "Search items by region" : "Search items by category");
        String self = byRegion
                ? "SearchItemsByRegion.php?region=" + region + "&category=" + category + "&categoryName="
                        + Html.url(categoryName)
                : "SearchItemsByCategory.php?category=" + category + "&categoryName=" + Html.url(categoryName);
        int rows = 0;
        try (ResultSet rs = searchQuery(byRegion, category, region, perPage, page)) {
            while (rs.next()) {
                if (rows == 0) {
                    b.append("<h2>Items in category ")
                            .append(Html.escape(categoryName))
                            .append("</h2><br><br>\n")
                            .append(
                                    "<TABLE border=\"1\" summary=\"List of items\">\n<THEAD><TR><TH>Designation<TH>Price<TH>Bids<TH>End Date<TH>Bid Now<TBODY>\n");
                }
                rows++;
                itemRow(b, rs);
            }
        }
        if (rows == 0) {
            if (page == 0) {
                b.append(
                        byRegion
                                ? "<h2>Sorry, but there are no items available in this region for this category !</h2>\n"
                                : "<h2>Sorry, but there are no items available in this category !</h2>\n");
            } else {
                b.append("<h2>Sorry, but there are no more items available in this category !</h2>\n")
                        .append("<p><CENTER>");
                pageLink(b, self, page - 1, perPage, "Previous page");
                b.append("</CENTER>\n");
            }
            return Html.end(b);
        }
        b.append("</TABLE>\n<p><CENTER>");
        if (page > 0) {
            pageLink(b, self, page - 1, perPage, "Previous page");
        }
        if (rows == perPage) {
            if (page > 0) {
                b.append("&nbsp&nbsp&nbsp");
            }
            pageLink(b, self, page + 1, perPage, "Next page");
        }
        b.append("</CENTER>\n");
        return Html.end(b);
    }

    /** The items of {@code category} still open (in {@code region} when {@code byRegion}), one page of them. */
    private ResultSet searchQuery(boolean byRegion, int category, int region, int perPage, int page)
            throws SQLException {
        return byRegion
                ? db.session()
                        .query(
                                "SELECT i.id, i.name, i.initial_price, i.max_bid, i.nb_of_bids, i.end_date"
                                        + " FROM items i JOIN users u ON i.seller = u.id"
                                        + " WHERE i.category = ? AND u.region = ? AND i.end_date >= ? ORDER BY i.id LIMIT ? OFFSET ?",
                                category,
                                region,
                                now(),
                                perPage,
                                page * perPage)
                : db.session()
                        .query(
                                "SELECT id, name, initial_price, max_bid, nb_of_bids, end_date FROM items"
                                        + " WHERE category = ? AND end_date >= ? ORDER BY id LIMIT ? OFFSET ?",
                                category,
                                now(),
                                perPage,
                                page * perPage);
    }

    /** A search result's row: the item's link, price, bids, end date and its bid-now link. */
    private static void itemRow(StringBuilder b, ResultSet rs) throws SQLException {
        int id = rs.getInt(1);
        double price = Math.max(rs.getDouble(3), rs.getDouble(4));
        b.append("<TR><TD><a href=\"/PHP/ViewItem.php?itemId=")
                .append(id)
                .append("\">")
                .append(Html.escape(rs.getString(2)))
                .append("</a>\n<TD>")
                .append(Html.money(price))
                .append("<TD>")
                .append(rs.getInt(5))
                .append("<TD>")
                .append(rs.getTimestamp(6))
                .append("<TD><a href=\"/PHP/PutBidAuth.php?itemId=")
                .append(id)
                .append("\"><IMG SRC=\"/PHP/bid_now.jpg\" height=22 width=90></a>\n");
    }

    /** {@code <a href="/PHP/self&page=P&nbOfItems=N">label</a>}: a link to another page of the search. */
    private static void pageLink(StringBuilder b, String self, int page, int perPage, String label) {
        b.append("<a href=\"/PHP/")
                .append(self)
                .append("&page=")
                .append(page)
                .append("&nbOfItems=")
                .append(perPage)
                .append("\">")
                .append(label)
                .append("</a>");
    }

    /** An active or old item: id, name, description, initial, quantity, reserve, buy now, bids, max bid, start, end, seller, seller nickname. */
    private record Item(
            int id,
            String name,
            String description,
            double initialPrice,
            int quantity,
            double reservePrice,
            double buyNow,
            int nbOfBids,
            double maxBid,
            Timestamp start,
            Timestamp end,
            int seller,
            String sellerNickname) {
        double minBid() {
            return nbOfBids == 0 ? initialPrice : maxBid + 1;
        }
    }

    private Item item(int id) throws SQLException {
        for (String table : new String[] {"items", "old_items"}) {
            try (ResultSet rs = db.session()
                    .query(
                            "SELECT i.id, i.name, i.description, i.initial_price, i.quantity,"
                                    + " i.reserve_price, i.buy_now, i.nb_of_bids, i.max_bid, i.start_date, i.end_date, i.seller,"
                                    + " u.nickname"
                                    + " FROM " + table + " i LEFT JOIN users u ON i.seller = u.id WHERE i.id = ?",
                            id)) {
                if (rs.next()) {
                    return new Item(
                            rs.getInt(1),
                            rs.getString(2),
                            rs.getString(3),
                            rs.getDouble(4),
                            rs.getInt(5),
                            rs.getDouble(6),
                            rs.getDouble(7),
                            rs.getInt(8),
                            rs.getDouble(9),
                            rs.getTimestamp(10),
                            rs.getTimestamp(11),
                            rs.getInt(12),
                            rs.getString(13));
                }
            }
        }
        throw new Query.BadParameter("This item (" + id + ") does not exist in the database.");
    }

    private void itemSummary(StringBuilder b, Item it) {
        b.append("<h2>")
                .append(Html.escape(it.name()))
                .append("</h2>\n<TABLE>\n")
                .append("<TR><TD>Currently<TD><b>")
                .append(Html.money(Math.max(it.maxBid(), it.initialPrice())))
                .append("</b>\n")
                .append("<TR><TD>Quantity<TD><b>")
                .append(it.quantity())
                .append("</b>\n")
                .append("<TR><TD>First bid<TD><b>")
                .append(Html.money(it.initialPrice()))
                .append("</b>\n")
                .append("<TR><TD># of bids<TD><b>")
                .append(it.nbOfBids())
                .append("</b> (<a href=\"/PHP/ViewBidHistory.php?itemId=")
                .append(it.id())
                .append("\">bid history</a>)\n")
                .append("<TR><TD>Seller<TD><a href=\"/PHP/ViewUserInfo.php?userId=")
                .append(it.seller())
                .append("\">")
                .append(Html.escape(it.sellerNickname()))
                .append("</a> (<a href=\"/PHP/PutCommentAuth.php?to=")
                .append(it.seller())
                .append("&itemId=")
                .append(it.id())
                .append("\">Leave a comment on this user</a>)\n")
                .append("<TR><TD>Started<TD>")
                .append(it.start())
                .append("\n<TR><TD>Ends<TD>")
                .append(it.end())
                .append("\n</TABLE>\n");
    }

    private String viewItem(Query q) throws SQLException {
        Item it = item(q.integer("itemId"));
        StringBuilder b = Html.begin("Viewing " + it.name());
        itemSummary(b, it);
        if (it.buyNow() > 0) {
            b.append("<p><a href=\"/PHP/BuyNowAuth.php?itemId=")
                    .append(it.id())
                    .append("\"><IMG SRC=\"/PHP/buy_it_now.jpg\" height=22 width=150></a>")
                    .append(" Buy it now for ")
                    .append(Html.money(it.buyNow()))
                    .append("\n");
        }
        b.append("<p><a href=\"/PHP/PutBidAuth.php?itemId=")
                .append(it.id())
                .append("\"><IMG SRC=\"/PHP/bid_now.jpg\" height=22 width=90></a>\n")
                .append("<h3>Item description</h3>\n")
                .append(Html.escape(it.description()))
                .append("<br>\n");
        return Html.end(b);
    }

    private String viewUserInfo(Query q) throws SQLException {
        int uid = q.integer("userId");
        StringBuilder b = Html.begin("View user information");
        try (ResultSet rs = db.session()
                .query(
                        "SELECT nickname, firstname, lastname, email, rating, creation_date FROM users WHERE id = ?",
                        uid)) {
            if (!rs.next()) {
                throw new Query.BadParameter("This user (" + uid + ") does not exist in the database.");
            }
            b.append("<h2>Information about ")
                    .append(Html.escape(rs.getString(1)))
                    .append("<br></h2>\n")
                    .append("Real life name : ")
                    .append(Html.escape(rs.getString(2)))
                    .append(' ')
                    .append(Html.escape(rs.getString(3)))
                    .append("<br>\n")
                    .append("Email address  : ")
                    .append(Html.escape(rs.getString(4)))
                    .append("<br>\n")
                    .append("User since     : ")
                    .append(rs.getTimestamp(6))
                    .append("<br>\n")
                    .append("Current rating : <b>")
                    .append(rs.getInt(5))
                    .append("</b><br>\n");
        }
        int n = 0;
        try (ResultSet rs = db.session()
                .query(
                        "SELECT c.from_user_id, u.nickname, c.date, c.comment, c.rating"
                                + " FROM comments c LEFT JOIN users u ON c.from_user_id = u.id"
                                + " WHERE c.to_user_id = ? ORDER BY c.id LIMIT 20",
                        uid)) {
            while (rs.next()) {
                if (n++ == 0) {
                    b.append("<h3>Comments about this user</h3>\n<DL>\n");
                }
                b.append("<DT><b><BIG><a href=\"/PHP/ViewUserInfo.php?userId=")
                        .append(rs.getInt(1))
                        .append("\">")
                        .append(Html.escape(rs.getString(2)))
                        .append("</a></BIG></b> wrote the ")
                        .append(rs.getTimestamp(3))
                        .append(" (rating ")
                        .append(rs.getInt(5))
                        .append(")<DD><i>")
                        .append(Html.escape(rs.getString(4)))
                        .append("</i><p>\n");
            }
        }
        b.append(n == 0 ? "<h3>There is no comment for this user.</h3>\n" : "</DL>\n");
        return Html.end(b);
    }

    private String viewBidHistory(Query q) throws SQLException {
        Item it = item(q.integer("itemId"));
        StringBuilder b = Html.begin("Bid history");
        b.append("<h2>Bid history for <a href=\"/PHP/ViewItem.php?itemId=")
                .append(it.id())
                .append("\">")
                .append(Html.escape(it.name()))
                .append("</a></h2>\n");
        int n = 0;
        try (ResultSet rs = db.session()
                .query(
                        "SELECT b.user_id, u.nickname, b.bid, b.date"
                                + " FROM bids b LEFT JOIN users u ON b.user_id = u.id"
                                + " WHERE b.item_id = ? ORDER BY b.bid DESC, b.id DESC LIMIT 50",
                        it.id())) {
            while (rs.next()) {
                if (n++ == 0) {
                    b.append(
                            "<TABLE border=\"1\" summary=\"List of bids\">\n<THEAD><TR><TH>User ID<TH>Bid amount<TH>Date of bid<TBODY>\n");
                }
                b.append("<TR><TD><a href=\"/PHP/ViewUserInfo.php?userId=")
                        .append(rs.getInt(1))
                        .append("\">")
                        .append(Html.escape(rs.getString(2)))
                        .append("</a><TD>")
                        .append(Html.money(rs.getDouble(3)))
                        .append("<TD>")
                        .append(rs.getTimestamp(4))
                        .append("\n");
            }
        }
        b.append(n == 0 ? "<h3>There is no bid for " + Html.escape(it.name()) + ".</h3>\n" : "</TABLE>\n");
        return Html.end(b);
    }

    /** Login form of BuyNowAuth, PutBidAuth and PutCommentAuth; the action URL carries the ids. */
    private String authForm(String script, String what, int itemId, Integer to) {
        StringBuilder b = Html.begin(what + " authentication");
        String action = "/PHP/" + script + ".php?itemId=" + itemId + (to == null ? "" : "&to=" + to);
        b.append("<h2>You must log in to ")
                .append(what.toLowerCase())
                .append(" on this item</h2>\n")
                .append("<form action=\"")
                .append(action)
                .append("\" method=GET>\n")
                .append(Html.hidden("itemId", itemId));
        if (to != null) {
            b.append(Html.hidden("to", to));
        }
        b.append("<table>\n<tr><td>Your nick name:<td><input type=text size=20 name=nickname>\n")
                .append("<tr><td>Your password:<td><input type=password size=20 name=password>\n</table>\n")
                .append("<input type=submit value=\"Log In!\">\n</form>\n");
        return Html.end(b);
    }

    private String buyNow(Query q) throws SQLException {
        Item it = item(q.integer("itemId"));
        int uid = authenticate(q.string("nickname"), q.string("password"));
        StringBuilder b = Html.begin("Buy Now");
        itemSummary(b, it);
        b.append("<h3>You are ready to buy this item: ")
                .append(Html.escape(it.name()))
                .append("</h3>\n")
                .append("<form action=\"/PHP/StoreBuyNow.php\" method=GET>\n")
                .append(Html.hidden("userId", uid))
                .append(Html.hidden("itemId", it.id()))
                .append(Html.hidden("maxQty", it.quantity()));
        if (it.quantity() > 1) {
            b.append(
                    "<center><table><tr><td>Quantity:</td><td><input type=text size=5 name=qty></td></tr></table></center>\n");
        } else {
            b.append("<input type=hidden name=qty value=1>\n");
        }
        b.append("<p><input type=submit value=\"Buy now!\"></form>\n");
        return Html.end(b);
    }

    private String storeBuyNow(Query q) throws SQLException {
        int itemId = q.integer("itemId");
        int uid = q.integer("userId");
        int qty = q.integer("qty");
        int maxQty = q.integer("maxQty");
        if (qty > maxQty || qty < 1) {
            throw new Query.BadParameter(
                    "You cannot request " + qty + " items because only " + maxQty + " are proposed!");
        }
        if (db.session()
                        .update(
                                "UPDATE items SET quantity = quantity - ?,"
                                        + " end_date = CASE WHEN quantity - ? <= 0 THEN ? ELSE end_date END WHERE id = ?",
                                qty,
                                qty,
                                now(),
                                itemId)
                == 0) {
            throw new Query.BadParameter("This item (" + itemId + ") is not for sale.");
        }
        db.session()
                .update(
                        "INSERT INTO buy_now (buyer_id, item_id, qty, date) VALUES (?, ?, ?, ?)",
                        uid,
                        itemId,
                        qty,
                        now());
        StringBuilder b = Html.begin("Buy Now");
        b.append("<h2>Your have successfully bought this item</h2>\n");
        return Html.end(b);
    }

    private String putBid(Query q) throws SQLException {
        Item it = item(q.integer("itemId"));
        int uid = authenticate(q.string("nickname"), q.string("password"));
        StringBuilder b = Html.begin("Bid");
        itemSummary(b, it);
        b.append("<h3>You are ready to bid on: ")
                .append(Html.escape(it.name()))
                .append("</h3>\n")
                .append("<form action=\"/PHP/StoreBid.php\" method=GET>\n")
                .append(Html.hidden("userId", uid))
                .append(Html.hidden("itemId", it.id()))
                .append(Html.hidden("minBid", Html.money(it.minBid())))
                .append(Html.hidden("maxQty", Math.max(1, it.quantity())))
                .append("<center><table>\n<tr><td>Your bid (minimum bid is ")
                .append(Html.money(it.minBid()))
                .append("):</td><td><input type=text size=10 name=bid></td></tr>\n")
                .append("<tr><td>Your maximum bid:</td><td><input type=text size=10 name=maxBid></td></tr>\n")
                .append("<tr><td>Quantity:</td><td><input type=text size=5 name=qty></td></tr>\n</table>\n")
                .append("<p><input type=submit value=\"Bid now!\"></center></form>\n");
        return Html.end(b);
    }

    private String storeBid(Query q) throws SQLException {
        int itemId = q.integer("itemId");
        int uid = q.integer("userId");
        double minBid = q.number("minBid");
        double bid = q.number("bid");
        double maxBid = q.number("maxBid");
        int maxQty = q.integer("maxQty");
        int qty = q.integer("qty");
        if (qty > maxQty || qty < 1) {
            throw new Query.BadParameter(
                    "You cannot request " + qty + " items because only " + maxQty + " are proposed!");
        }
        if (bid < minBid) {
            throw new Query.BadParameter(
                    "Your bid of " + bid + " is not acceptable because it is below the " + minBid + " minimum bid!");
        }
        if (maxBid < bid) {
            throw new Query.BadParameter("Your maximum bid of " + maxBid
                    + " is not acceptable because it is below your current bid of " + bid + "!");
        }
        if (db.session()
                        .update(
                                "UPDATE items SET nb_of_bids = nb_of_bids + 1, max_bid = GREATEST(max_bid, ?)"
                                        + " WHERE id = ?",
                                bid,
                                itemId)
                == 0) {
            throw new Query.BadParameter("This item (" + itemId + ") is not open for bids.");
        }
        db.session()
                .update(
                        "INSERT INTO bids (user_id, item_id, qty, bid, max_bid, date) VALUES (?, ?, ?, ?, ?, ?)",
                        uid,
                        itemId,
                        qty,
                        bid,
                        maxBid,
                        now());
        StringBuilder b = Html.begin("Bid");
        b.append("<h2>Your bid has been successfully processed.</h2>\n");
        return Html.end(b);
    }

    private String putComment(Query q) throws SQLException {
        int itemId = q.integer("itemId");
        int to = q.integer("to");
        int uid = authenticate(q.string("nickname"), q.string("password"));
        Item it = item(itemId);
        String toNick;
        try (ResultSet rs = db.session().query("SELECT nickname FROM users WHERE id = ?", to)) {
            if (!rs.next()) {
                throw new Query.BadParameter("This user (" + to + ") does not exist in the database.");
            }
            toNick = rs.getString(1);
        }
        StringBuilder b = Html.begin("Comment");
        b.append("<h2>Give feedback about your experience with ")
                .append(Html.escape(toNick))
                .append("</h2>\n")
                .append("<p>Item: <a href=\"/PHP/ViewItem.php?itemId=")
                .append(it.id())
                .append("\">")
                .append(Html.escape(it.name()))
                .append("</a>\n")
                .append("<form action=\"/PHP/StoreComment.php\" method=GET>\n")
                .append(Html.hidden("to", to))
                .append(Html.hidden("from", uid))
                .append(Html.hidden("itemId", it.id()))
                .append("<center><table>\n<tr><td><b>From</b><td>")
                .append(Html.escape(q.string("nickname")))
                .append("\n")
                .append("<tr><td><b>To</b><td>")
                .append(Html.escape(toNick))
                .append("\n")
                .append(
                        "<tr><td><b>Rating</b><td><SELECT name=rating><OPTION value=\"5\">Excellent</OPTION><OPTION value=\"3\">Average</OPTION>")
                .append(
                        "<OPTION selected value=\"0\">Neutral</OPTION><OPTION value=\"-3\">Below average</OPTION><OPTION value=\"-5\">Bad</OPTION></SELECT>\n")
                .append(
                        "</table><p><TEXTAREA rows=\"20\" cols=\"80\" name=\"comment\">Write your comment here</TEXTAREA><p>\n")
                .append("<input type=submit value=\"Post this comment now!\"></center></form>\n");
        return Html.end(b);
    }

    private String storeComment(Query q) throws SQLException {
        int itemId = q.integer("itemId");
        int to = q.integer("to");
        int from = q.integer("from");
        int rating = q.integer("rating");
        String comment = q.string("comment");
        if (db.session().update("UPDATE users SET rating = rating + ? WHERE id = ?", rating, to) == 0) {
            throw new Query.BadParameter("This user (" + to + ") does not exist in the database.");
        }
        db.session()
                .update(
                        "INSERT INTO comments (from_user_id, to_user_id, item_id, rating, date, comment)"
                                + " VALUES (?, ?, ?, ?, ?, ?)",
                        from,
                        to,
                        itemId,
                        rating,
                        now(),
                        comment.length() > 2048 ? comment.substring(0, 2048) : comment);
        StringBuilder b = Html.begin("Comment");
        b.append("<h2>Your comment has been posted.</h2>\n");
        return Html.end(b);
    }

    private String sellItemForm(Query q) throws SQLException {
        int category = q.integer("category");
        int uid = q.integer("user");
        StringBuilder b = Html.begin("Sell your item");
        b.append("<h2>Select the category of your item</h2>\n<form action=\"/PHP/RegisterItem.php\" method=GET>\n")
                .append(Html.hidden("categoryId", category))
                .append(Html.hidden("userId", uid))
                .append("<table>\n")
                .append("<tr><td>Name<td><input type=text size=60 name=name>\n")
                .append(
                        "<tr><td>Description<td><textarea rows=\"20\" cols=\"80\" name=\"description\">Please, enter the description</textarea>\n")
                .append("<tr><td>Initial Price<td><input type=text size=10 name=initialPrice>\n")
                .append("<tr><td>Reserve Price<td><input type=text size=10 name=reservePrice>\n")
                .append("<tr><td>Buy Now<td><input type=text size=10 name=buyNow>\n")
                .append(
                        "<tr><td>Duration<td><SELECT name=duration><OPTION value=\"1\">1 day</OPTION><OPTION value=\"3\">3 days</OPTION>")
                .append("<OPTION selected value=\"7\">7 days</OPTION></SELECT>\n")
                .append(
                        "<tr><td>Quantity<td><input type=text size=5 name=quantity>\n</table>\n<input type=submit value=\"Register item\">\n</form>\n");
        return Html.end(b);
    }

    private String registerItem(Query q) throws SQLException {
        String name = q.string("name");
        String description = q.string("description", "");
        double initial = q.number("initialPrice");
        double reserve = q.has("reservePrice") ? q.number("reservePrice") : 0;
        double buyNow = q.has("buyNow") ? q.number("buyNow") : 0;
        int duration = q.integer("duration");
        int quantity = q.integer("quantity");
        int uid = q.integer("userId");
        int category = q.integer("categoryId");
        if (duration < 1 || quantity < 1) {
            throw new Query.BadParameter("You must provide a duration and a quantity of at least 1!");
        }
        long nowMs = System.currentTimeMillis();
        int id = db.session()
                .insert(
                        "INSERT INTO items (name, description, initial_price, quantity, reserve_price,"
                                + " buy_now, nb_of_bids, max_bid, start_date, end_date, seller, category)"
                                + " VALUES (?, ?, ?, ?, ?, ?, 0, 0, ?, ?, ?, ?)",
                        name.length() > 100 ? name.substring(0, 100) : name,
                        description.length() > 8192 ? description.substring(0, 8192) : description,
                        initial,
                        quantity,
                        reserve,
                        buyNow,
                        new Timestamp(nowMs),
                        new Timestamp(nowMs + duration * 86_400_000L),
                        uid,
                        category);
        StringBuilder b = Html.begin("Selling " + name);
        b.append("<h2>Your Item has been successfully registered.</h2>\n<p>Item number ")
                .append(id)
                .append(".</p>\n");
        return Html.end(b);
    }

    private String aboutMe(Query q) throws SQLException {
        String nick = q.string("nickname");
        int uid = authenticate(nick, q.string("password"));
        StringBuilder b = Html.begin("About me");
        b.append("<h2>Information about ").append(Html.escape(nick)).append("<br></h2>\n");
        list(
                b,
                "SELECT DISTINCT i.id, i.name, i.max_bid, i.end_date, i.seller"
                        + " FROM bids b JOIN items i ON b.item_id = i.id WHERE b.user_id = ? ORDER BY i.id LIMIT 20",
                uid,
                "Items you have bid on",
                false);
        list(
                b,
                "SELECT id, name, max_bid, end_date, seller FROM items WHERE seller = ? ORDER BY id LIMIT 20",
                uid,
                "Items you are selling",
                false);
        list(
                b,
                "SELECT i.id, i.name, i.max_bid, i.end_date, i.seller FROM buy_now n JOIN items i ON n.item_id = i.id"
                        + " WHERE n.buyer_id = ? ORDER BY n.id LIMIT 20",
                uid,
                "Items you bought",
                true);
        return Html.end(b);
    }

    /** The items of {@code sql} (id, name, max bid, end date, seller) for user {@code uid}, under {@code title}. */
    private void list(StringBuilder b, String sql, int uid, String title, boolean comment) throws SQLException {
        int n = 0;
        try (ResultSet rs = db.session().query(sql, uid)) {
            while (rs.next()) {
                if (n++ == 0) {
                    b.append("<h3>").append(title).append("</h3>\n<TABLE border=\"1\">\n<TBODY>\n");
                }
                int id = rs.getInt(1);
                b.append("<TR><TD><a href=\"/PHP/ViewItem.php?itemId=")
                        .append(id)
                        .append("\">")
                        .append(Html.escape(rs.getString(2)))
                        .append("</a><TD>")
                        .append(Html.money(rs.getDouble(3)))
                        .append("<TD>")
                        .append(rs.getTimestamp(4));
                if (comment) {
                    b.append("<TD><a href=\"/PHP/PutCommentAuth.php?to=")
                            .append(rs.getInt(5))
                            .append("&itemId=")
                            .append(id)
                            .append("\">Leave a comment</a>");
                }
                b.append('\n');
            }
        }
        b.append(n == 0 ? "<h3>" + title + ": none.</h3>\n" : "</TABLE>\n");
    }

    // ---------------------------------------------------------------- helpers

    private int authenticate(String nickname, String password) throws SQLException {
        try (ResultSet rs =
                db.session().query("SELECT id FROM users WHERE nickname = ? AND password = ?", nickname, password)) {
            if (rs.next()) {
                return rs.getInt(1);
            }
        }
        throw new Query.BadParameter(
                "Authentication failed: " + nickname + " has no account on RUBiS, or the password is wrong.");
    }

    private int userId(String nickname) throws SQLException {
        try (ResultSet rs = db.session().query("SELECT id FROM users WHERE nickname = ?", nickname)) {
            return rs.next() ? rs.getInt(1) : -1;
        }
    }

    /** A region by id or by name; -1 when unknown. */
    private int regionId(String region) throws SQLException {
        Integer id;
        try {
            id = Integer.parseInt(region.strip());
        } catch (NumberFormatException e) {
            id = null;
        }
        try (ResultSet rs = id != null
                ? db.session().query("SELECT id FROM regions WHERE id = ?", id)
                : db.session().query("SELECT id FROM regions WHERE name = ?", region)) {
            return rs.next() ? rs.getInt(1) : -1;
        }
    }

    private static Timestamp now() {
        return new Timestamp(System.currentTimeMillis());
    }

    /** Extra service demand: spins the CPU for the configured microseconds. */
    private void burn(String interaction) {
        int us = demandMicros.getOrDefault(interaction, idleCpuMicros);
        if (us <= 0) {
            return;
        }
        long end = System.nanoTime() + us * 1000L;
        long x = 0;
        while (System.nanoTime() < end) {
            x += x * 31 + 7;
        }
        if (x == 42) {
            Thread.onSpinWait();
        }
    }

    private static byte[] buildImage() {
        byte[] b = new byte[2048];
        b[0] = (byte) 0xFF;
        b[1] = (byte) 0xD8;
        for (int i = 2; i < b.length - 2; i++) {
            b[i] = (byte) (i * 31);
        }
        b[b.length - 2] = (byte) 0xFF;
        b[b.length - 1] = (byte) 0xD9;
        return b;
    }
}
