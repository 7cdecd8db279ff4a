package org.rubis.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.server.data.DataPolicy;
import org.rubis.server.http.ServerSettings;

/** Every interaction against generated data, through the event model. */
class RubisServerTest {

    @TempDir
    static Path out;

    static RubisServer server;

    @BeforeAll
    static void start() throws Exception {
        DataPolicy policy = DataPolicy.load(null, 0.02, 1);
        server = new RubisServer(RubisServer.Model.EVENT, settings(5000, 15, 15), policy, out, null, Map.of());
        server.start();
    }

    static ServerSettings settings(int keepAliveMs, int workers, int maxWorkers) {
        return new ServerSettings("127.0.0.1", 0, keepAliveMs, 0, workers, maxWorkers, 5, 200, 128, 2, null);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static int first(String html, String regex) {
        Matcher m = Pattern.compile(regex).matcher(html);
        assertTrue(m.find(), "no " + regex + " in\n" + html);
        return Integer.parseInt(m.group(1));
    }

    @Test
    void everyInteractionAnswersWithItsMarkers() throws Exception {
        try (RawHttp h = new RawHttp(server.port())) {
            for (String page : List.of("index.html", "register.html", "browse.html", "sell.html", "about_me.html")) {
                RawHttp.Reply r = h.get("/PHP/" + page);
                assertEquals(200, r.status(), page);
                assertFalse(r.body().contains("ERROR"), page);
            }
            String cats = h.get("/PHP/BrowseCategories.php").body();
            assertTrue(cats.contains("SearchItemsByCategory.php?category=1&categoryName=Antiques"), cats);
            String regions = h.get("/PHP/BrowseRegions.php").body();
            assertTrue(regions.contains("BrowseCategories.php?region="), regions);
            String inRegion =
                    h.get("/PHP/BrowseCategories.php?region=AZ--Phoenix").body();
            assertTrue(inRegion.contains("SearchItemsByRegion.php?region=1&category=1"), inRegion);

            String search = h.get("/PHP/SearchItemsByCategory.php?category=1&categoryName=Antiques&page=0&nbOfItems=5")
                    .body();
            int item = first(search, "ViewItem\\.php\\?itemId=(\\d+)");
            assertTrue(search.contains("&page=1&nbOfItems=5"), "next-page link");
            String page1 = h.get("/PHP/SearchItemsByCategory.php?category=1&categoryName=Antiques&page=1&nbOfItems=5")
                    .body();
            assertTrue(
                    page1.contains("&page=0&nbOfItems=5") && page1.contains("&page=2&nbOfItems=5"),
                    "previous and next links");
            String byRegion = h.get(
                            "/PHP/SearchItemsByRegion.php?region=1&category=1&categoryName=Antiques&page=0&nbOfItems=5")
                    .body();
            assertTrue(byRegion.contains("ViewItem.php?itemId=") || byRegion.contains("Sorry"), byRegion);

            String view = h.get("/PHP/ViewItem.php?itemId=" + item).body();
            int seller = first(view, "userId=(\\d+)");
            assertEquals(seller, first(view, "to=(\\d+)"));
            assertTrue(
                    h.get("/PHP/ViewUserInfo.php?userId=" + seller).body().contains("Information about user" + seller));
            assertTrue(h.get("/PHP/ViewBidHistory.php?itemId=" + item).body().contains("ViewItem.php?itemId=" + item));

            assertTrue(h.get("/PHP/PutBidAuth.php?itemId=" + item).body().contains("itemId=" + item));
            String putBid = h.get("/PHP/PutBid.php?itemId=" + item + "&nickname=user3&password=password3")
                    .body();
            assertTrue(putBid.contains("name=minBid value=") && putBid.contains("name=maxQty value="), putBid);
            assertTrue(h.get("/PHP/BuyNowAuth.php?itemId=" + item).body().contains("itemId=" + item));
            String buyNow = h.get("/PHP/BuyNow.php?itemId=" + item + "&nickname=user3&password=password3")
                    .body();
            assertTrue(buyNow.contains("name=maxQty value="), buyNow);
            assertTrue(h.get("/PHP/StoreBuyNow.php?itemId=" + item + "&userId=3&qty=1&maxQty=1")
                    .body()
                    .contains("successfully bought"));

            String auth = h.get("/PHP/PutCommentAuth.php?itemId=" + item + "&to=" + seller)
                    .body();
            assertTrue(auth.contains("to=" + seller), auth);
            String putComment = h.get("/PHP/PutComment.php?itemId=" + item + "&to=" + seller
                            + "&nickname=user3&password=password3")
                    .body();
            assertEquals(seller, first(putComment, "name=to value=(\\d+)"));
            assertTrue(h.get("/PHP/StoreComment.php?itemId=" + item + "&to=" + seller
                            + "&from=3&rating=5&comment=Great+seller")
                    .body()
                    .contains("comment has been posted"));
            assertTrue(
                    h.get("/PHP/ViewUserInfo.php?userId=" + seller).body().contains("Great seller"),
                    "the comment is visible");

            assertTrue(h.get("/PHP/BrowseCategories.php?nickname=user3&password=password3")
                    .body()
                    .contains("SellItemForm.php?user=3&category=1"));
            assertTrue(h.get("/PHP/SellItemForm.php?user=3&category=2").body().contains("name=categoryId value=2"));
            String registered = h.get(
                            "/PHP/RegisterItem.php?name=Lamp&description=Nice&initialPrice=10&reservePrice=0&buyNow=0&duration=3&quantity=1&userId=3&categoryId=2")
                    .body();
            int newItem = first(registered, "Item number (\\d+)");
            assertTrue(h.get("/PHP/ViewItem.php?itemId=" + newItem).body().contains("<h2>Lamp</h2>"));
            assertTrue(h.get(
                            "/PHP/RegisterUser.php?firstname=A&lastname=B&nickname=newbie77&email=a@b&password=pw&region=AZ--Phoenix")
                    .body()
                    .contains("registration has been processed"));
            assertTrue(h.get("/PHP/AboutMe.php?nickname=newbie77&password=pw")
                    .body()
                    .contains("Information about newbie77"));
            assertEquals(200, h.get("/PHP/bid_now.jpg").status());
        }
    }

    @Test
    void aStoredBidIsVisibleInTheBidHistory() throws Exception {
        try (RawHttp h = new RawHttp(server.port())) {
            String putBid = h.get("/PHP/PutBid.php?itemId=3&nickname=user9&password=password9")
                    .body();
            Matcher m = Pattern.compile("name=minBid value=([0-9.]+)").matcher(putBid);
            assertTrue(m.find());
            double min = Double.parseDouble(m.group(1));
            double bid = min + 7;
            String stored = h.get("/PHP/StoreBid.php?itemId=3&userId=9&minBid=" + min + "&bid=" + bid + "&maxBid="
                            + (bid + 7) + "&maxQty=1&qty=1")
                    .body();
            assertTrue(stored.contains("successfully processed"), stored);
            String history = h.get("/PHP/ViewBidHistory.php?itemId=3").body();
            assertTrue(
                    history.contains(String.format(Locale.ROOT, "%.2f", bid)) && history.contains(">user9<"), history);
            String again = h.get("/PHP/PutBid.php?itemId=3&nickname=user9&password=password9")
                    .body();
            assertTrue(
                    again.contains("name=minBid value=" + String.format(Locale.ROOT, "%.2f", bid + 1)),
                    "the minimum bid rose");
        }
    }

    @Test
    void badParametersGiveTheErrorPageAndUnknownPaths404() throws Exception {
        try (RawHttp h = new RawHttp(server.port())) {
            for (String bad : List.of(
                    "/PHP/ViewItem.php",
                    "/PHP/ViewItem.php?itemId=abc",
                    "/PHP/ViewItem.php?itemId=99999999",
                    "/PHP/PutBid.php?itemId=1&nickname=user1&password=wrong",
                    "/PHP/AboutMe.php?nickname=nobody&password=x",
                    "/PHP/SearchItemsByCategory.php?categoryName=x",
                    "/PHP/StoreBid.php?itemId=1&userId=1&minBid=10&bid=5&maxBid=6&maxQty=1&qty=1",
                    "/PHP/RegisterUser.php?firstname=A&lastname=B&nickname=user1&email=x&password=p&region=AZ--Phoenix")) {
                RawHttp.Reply r = h.get(bad);
                assertEquals(200, r.status(), bad);
                assertTrue(r.body().contains("ERROR"), bad + "\n" + r.body());
                assertFalse(
                        r.body().contains("Exception") || r.body().contains("\tat "), "no stack trace: " + r.body());
            }
            RawHttp.Reply sorry =
                    h.get("/PHP/SearchItemsByCategory.php?category=0&categoryName=None&page=0&nbOfItems=20");
            assertTrue(sorry.body().contains("Sorry, but there are no items available in this category !"));
            assertFalse(sorry.body().contains("ERROR"), "category 0 is the original's quirk: Sorry, not ERROR");
            assertEquals(404, h.get("/PHP/NoSuchScript.php").status());
            assertEquals(404, h.get("/etc/passwd").status());
        }
    }
}
