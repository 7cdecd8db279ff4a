package org.rubis.client.workload;

import java.util.List;
import org.rubis.client.TestFiles;

/** Reply fixtures shaped like RUBiS PHP pages, and a workload model for tests. */
final class Fixtures {
    private Fixtures() {}

    static final String SEARCH_PAGE = """
            <h2>Items in category Books</h2><br><br>
            <TABLE border="1" summary="List of items">
            <TR><TD><a href="/PHP/ViewItem.php?itemId=101">Item 101</a><TD>10.00<TD>3
            <TD><a href="/PHP/PutBidAuth.php?itemId=101"><IMG SRC="/PHP/bid_now.jpg"></a>
            <TR><TD><a href="/PHP/ViewItem.php?itemId=202">Item 202</a><TD>10.00<TD>3
            <TR><TD><a href="/PHP/ViewItem.php?itemId=303&extra=1">Item 303</a><TD>10.00<TD>3
            </TABLE>
            <p><CENTER><a href="/PHP/SearchItemsByCategory.php?category=2&categoryName=Books&page=1&nbOfItems=20">Previous page</a>
            &nbsp<a href="/PHP/SearchItemsByCategory.php?category=2&categoryName=Books&page=3&nbOfItems=20">Next page</a></CENTER>
            """;

    static final String FIRST_PAGE = """
            <TR><TD><a href="/PHP/ViewItem.php?itemId=7">Item 7</a>
            <a href="/PHP/SearchItemsByCategory.php?category=2&categoryName=Books&page=1&nbOfItems=20">Next page</a>
            """;

    static final String PUT_BID_PAGE = """
            <TR><TD>Seller<TD><a href="/PHP/ViewUserInfo.php?userId=3567">user3567</a>
            (<a href="/PHP/PutCommentAuth.php?to=3567&itemId=5">Leave a comment</a>)
            <form action="/PHP/StoreBid.php" method=GET>
            <input type=hidden name=userId value=1>
            <input type=hidden name=itemId value=5>
            <input type=hidden name=minBid value=86.50>
            <input type=hidden name=maxQty value=4>
            """;

    static final String PUT_COMMENT_PAGE = """
            <form action="/PHP/StoreComment.php" method=GET>
            <input type=hidden name=to value=42>
            <input type=hidden name=from value=1>
            <input type=hidden name=itemId value=9>
            """;

    static final String SORRY_PAGE = "<h2>Sorry, but there are no items available in this category !</h2>";
    static final String ERROR_PAGE = "<h2>ERROR</h2><h3>You must provide a category!</h3>";

    static WorkloadModel model(TransitionMode mode, int maxTransitions) {
        TransitionTable t = TransitionTable.parse(TestFiles.shipped("default_transitions.txt"), 27, 29);
        WorkloadData data = WorkloadData.load(
                TestFiles.shipped("ebay_regions.txt"), TestFiles.shipped("ebay_simple_categories.txt"));
        DatabasePolicy policy = new DatabasePolicy(1000, 0, 80, 40, 10, 10, 100, 20, 5, 50);
        return WorkloadModel.of(
                t,
                mode,
                true,
                UrlLayout.of(UrlLayout.Version.PHP, "/PHP", "/PHP"),
                data,
                policy,
                20,
                maxTransitions,
                false,
                WorkloadModel.ERROR_PAGES_WITHOUT_THINK);
    }

    static List<String> regions() {
        return model(TransitionMode.COMPATIBLE, 10).data().regions();
    }
}
