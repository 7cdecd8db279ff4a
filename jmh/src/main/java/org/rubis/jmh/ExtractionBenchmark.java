package org.rubis.jmh;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.rubis.client.workload.ReplyFacts;
import org.rubis.client.workload.WordSearch;

/** The reply-text extraction the client does after every page (plain indexOf scans). */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class ExtractionBenchmark {

    /** A search page of 20 items shaped like the embedded server's (about 6 KB). */
    final String page = buildPage();

    final SplittableRandom random = new SplittableRandom(1);
    final ReplyFacts facts = ReplyFacts.of(page);

    static String buildPage() {
        StringBuilder b = new StringBuilder("<html><body><h2>Items in category Books</h2><TABLE>\n");
        for (int i = 0; i < 20; i++) {
            b.append("<TR><TD><a href=\"/PHP/ViewItem.php?itemId=")
                    .append(1000 + i)
                    .append("\">RUBiS automatically generated item #")
                    .append(1000 + i)
                    .append("</a><TD>12.00<TD>3<TD>2026-11-23<TD><a href=\"/PHP/PutBidAuth.php?itemId=")
                    .append(1000 + i)
                    .append("\"><IMG SRC=\"/PHP/bid_now.jpg\"></a>\n");
        }
        b.append(
                        "</TABLE><a href=\"/PHP/SearchItemsByCategory.php?category=2&categoryName=Books&page=1&nbOfItems=20\">Previous page</a>")
                .append(
                        "<a href=\"/PHP/SearchItemsByCategory.php?category=2&categoryName=Books&page=3&nbOfItems=20\">Next page</a></body></html>");
        return b.toString();
    }

    /** What the client does with every reply: extract the facts the next request may need. */
    @Benchmark
    public ReplyFacts extractFacts() {
        return ReplyFacts.of(page);
    }

    /** What the next request does with them: draw one itemId link. */
    @Benchmark
    public int randomItemId() {
        return facts.randomItemId(random);
    }

    /** The original's check of every reply, as the JDK's substring search does it. */
    @Benchmark
    public boolean errorCheckContains() {
        return page.contains("ERROR") || page.contains("Sorry");
    }

    /** The same check as the client does it: through a rare letter of each word ({@link WordSearch}). */
    @Benchmark
    public boolean errorCheckWordSearch() {
        return WordSearch.contains(page, "ERROR", 3) || WordSearch.contains(page, "Sorry", 0);
    }
}
