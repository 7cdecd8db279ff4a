package org.rubis.client.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class RequestGeneratorTest {

    private final WorkloadModel model = Fixtures.model(TransitionMode.COMPATIBLE, 100);
    private final RequestGenerator gen = new RequestGenerator(model);

    private static RequestGenerator.Context ctx(String reply, int itemId) {
        SplittableRandom r = new SplittableRandom(9);
        return new RequestGenerator.Context() {
            @Override
            public int userId() {
                return 41;
            }

            @Override
            public ReplyFacts reply() {
                return ReplyFacts.of(reply);
            }

            @Override
            public int itemId() {
                return itemId;
            }

            @Override
            public RandomGenerator random() {
                return r;
            }
        };
    }

    @Test
    void phpLayoutPathsOfEveryState() {
        var c = ctx(Fixtures.PUT_BID_PAGE, 5);
        assertEquals("/PHP/index.html", gen.path(Interaction.HOME, c));
        assertEquals("/PHP/register.html", gen.path(Interaction.REGISTER, c));
        assertEquals("/PHP/browse.html", gen.path(Interaction.BROWSE, c));
        assertEquals("/PHP/BrowseCategories.php", gen.path(Interaction.BROWSE_CATEGORIES, c));
        assertEquals("/PHP/BrowseRegions.php", gen.path(Interaction.BROWSE_REGIONS, c));
        assertEquals("/PHP/sell.html", gen.path(Interaction.SELL, c));
        assertEquals("/PHP/about_me.html", gen.path(Interaction.ABOUT_ME_AUTH, c));
        assertEquals("/PHP/AboutMe.php?nickname=user42&password=password42", gen.path(Interaction.ABOUT_ME, c));
        assertEquals(
                "/PHP/BrowseCategories.php?nickname=user42&password=password42",
                gen.path(Interaction.SELECT_CATEGORY_TO_SELL_ITEM, c));
        assertEquals("/PHP/ViewItem.php?itemId=5", gen.path(Interaction.VIEW_ITEM, c));
        assertEquals("/PHP/ViewUserInfo.php?userId=3567", gen.path(Interaction.VIEW_USER_INFO, c));
        assertEquals("/PHP/ViewBidHistory.php?itemId=5", gen.path(Interaction.VIEW_BID_HISTORY, c));
        assertEquals("/PHP/BuyNowAuth.php?itemId=5", gen.path(Interaction.BUY_NOW_AUTH, c));
        assertEquals("/PHP/BuyNow.php?itemId=5&nickname=user42&password=password42", gen.path(Interaction.BUY_NOW, c));
        assertEquals("/PHP/PutBidAuth.php?itemId=5", gen.path(Interaction.PUT_BID_AUTH, c));
        assertEquals("/PHP/PutBid.php?itemId=5&nickname=user42&password=password42", gen.path(Interaction.PUT_BID, c));
        assertEquals("/PHP/PutCommentAuth.php?itemId=5&to=3567", gen.path(Interaction.PUT_COMMENT_AUTH, c));
        assertEquals(
                "/PHP/PutComment.php?itemId=5&to=3567&nickname=user42&password=password42",
                gen.path(Interaction.PUT_COMMENT, c));
    }

    @Test
    void formParametersComeFromThePreviousReply() {
        String bid = gen.path(Interaction.STORE_BID, ctx(Fixtures.PUT_BID_PAGE, 5));
        assertTrue(
                bid.matches(
                        "/PHP/StoreBid\\.php\\?itemId=5&userId=42&minBid=86\\.5&bid=(\\d+\\.\\d+)&maxBid=(\\d+\\.\\d+)&maxQty=4&qty=[1-4]"),
                bid);
        double b = Double.parseDouble(bid.replaceAll(".*&bid=([0-9.]+)&.*", "$1"));
        double max = Double.parseDouble(bid.replaceAll(".*&maxBid=([0-9.]+)&.*", "$1"));
        assertTrue(b >= 87.5 && b <= 96.5 && max - 86.5 == 2 * (b - 86.5), bid);
        String buy = gen.path(Interaction.STORE_BUY_NOW, ctx(Fixtures.PUT_BID_PAGE, 5));
        assertTrue(buy.matches("/PHP/StoreBuyNow\\.php\\?itemId=5&userId=42&qty=[1-4]&maxQty=4"), buy);
        String comment = gen.path(Interaction.STORE_COMMENT, ctx(Fixtures.PUT_COMMENT_PAGE, 9));
        assertTrue(
                comment.matches(
                        "/PHP/StoreComment\\.php\\?itemId=9&to=42&from=42&rating=(-5|-3|0|3|5)&comment=\\S{1,50}"),
                comment);
    }

    @Test
    void searchesUseTheOriginalZeroBasedIdsAndThePageOfTheReply() {
        String s = gen.path(Interaction.SEARCH_ITEMS_IN_CATEGORY, ctx(Fixtures.FIRST_PAGE, 5));
        assertTrue(
                s.matches("/PHP/SearchItemsByCategory\\.php\\?category=(1?\\d)&categoryName=[^&]+&page=1&nbOfItems=20"),
                s);
        int zero = 0;
        for (int i = 0; i < 2000; i++) {
            SplittableRandom r = new SplittableRandom(i);
            var c = new RequestGenerator.Context() {
                @Override
                public int userId() {
                    return 0;
                }

                @Override
                public ReplyFacts reply() {
                    return ReplyFacts.NONE;
                }

                @Override
                public int itemId() {
                    return -1;
                }

                @Override
                public RandomGenerator random() {
                    return r;
                }
            };
            if (gen.path(Interaction.SEARCH_ITEMS_IN_CATEGORY, c).contains("?category=0&")) {
                zero++;
            }
        }
        // About one search in twenty (20 categories) asks for category 0, which does not exist.
        assertEquals(100, zero, 40);
        String region = gen.path(Interaction.BROWSE_CATEGORIES_IN_REGION, ctx(null, -1));
        assertTrue(region.startsWith("/PHP/BrowseCategories.php?region="), region);
        String name = URLDecoder.decode(region.substring(region.indexOf('=') + 1), StandardCharsets.UTF_8);
        assertTrue(Fixtures.regions().contains(name), name);
    }

    @Test
    void missingIdsMeanGoBack() {
        assertNull(gen.path(Interaction.VIEW_ITEM, ctx("<html></html>", -1)));
        assertNull(gen.path(Interaction.VIEW_USER_INFO, ctx("<html></html>", 3)));
        assertNull(gen.path(Interaction.PUT_BID, ctx("<html></html>", -1)));
    }

    @Test
    void servletsAndEjbLayouts() {
        UrlLayout servlets = UrlLayout.of(UrlLayout.Version.SERVLETS, "/Servlet_HTML", "/servlet");
        assertEquals("/Servlet_HTML/index.html", servlets.page("index.html"));
        assertEquals("/servlet/edu.rice.rubis.servlets.ViewItem", servlets.script("ViewItem"));
        UrlLayout ejb = UrlLayout.of(UrlLayout.Version.EJB, "/ejb_rubis_web/", "ejb_rubis_web/servlet");
        assertEquals("/ejb_rubis_web/servlet/edu.rice.rubis.beans.servlets.ViewItem", ejb.script("ViewItem"));
        assertEquals("/ejb_rubis_web/sell.html", ejb.page("sell.html"));
    }

    /**
     * A run's salt goes into everything it writes that a persistent database could already hold (nicknames, item
     * names, comments), and only there: the same seed gives the same requests but for the salt.
     */
    @Test
    void theWriteSaltMarksWhatARunWritesAndNothingElse() {
        RequestGenerator salted = new RequestGenerator(model.withWriteSalt("k3f9z"));
        for (Interaction state : Interaction.values()) {
            String plain = gen.path(state, ctx(Fixtures.PUT_BID_PAGE, 5));
            String withSalt = salted.path(state, ctx(Fixtures.PUT_BID_PAGE, 5));
            boolean writes = state == Interaction.REGISTER_USER
                    || state == Interaction.REGISTER_ITEM
                    || state == Interaction.STORE_COMMENT;
            if (writes) {
                assertTrue(withSalt.contains("k3f9z"), state + ": " + withSalt);
                assertEquals(plain, withSalt.replace("_k3f9z", "").replace("k3f9z+", ""), state.name());
            } else {
                assertEquals(plain, withSalt, state.name());
            }
        }
        String register = salted.path(Interaction.REGISTER_USER, ctx(Fixtures.PUT_BID_PAGE, 5));
        String nickname =
                URLDecoder.decode(register.replaceAll(".*[?&]nickname=([^&]*).*", "$1"), StandardCharsets.UTF_8);
        assertTrue(nickname.matches("user\\d+_k3f9z"), nickname);
        // RUBiS 1.4.3's users.nickname is VARCHAR(20): the largest draw with the longest salt still fits
        assertTrue(("user" + (model.policy().users() + 1_000_000) + "_abcdef").length() <= 20);
    }
}
