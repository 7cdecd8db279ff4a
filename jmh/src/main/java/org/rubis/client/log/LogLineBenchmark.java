package org.rubis.client.log;

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
import org.rubis.client.workload.Interaction;
import org.rubis.format.run.Phase;

/**
 * One request's line of requests.csv, formatted as the log writer does it for every request: at the
 * highest rates this is most of the writer thread's CPU. In the log's own package because the
 * formatter is not public (run it with {@code java -jar jmh/target/benchmarks.jar LogLineBenchmark}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class LogLineBenchmark {

    /** A search page's request as the netty backend logs it: the path is the longest text field. */
    final RequestRecord record = new RequestRecord(
            1_234_567,
            "user1234",
            17,
            Interaction.SEARCH_ITEMS_IN_CATEGORY,
            "/PHP/SearchItemsByCategory.php?category=12&categoryName=Coins%20%26%20Stamps&page=0&nbOfItems=20",
            Phase.RUN,
            1_795_575_889_027_123_456L,
            1_795_575_889_027_456_789L,
            81_234,
            1_234_567,
            2_161,
            200,
            null,
            false,
            "127.0.0.1:40512>127.0.0.1:8080#17",
            true,
            "netty",
            0,
            0,
            1,
            -1,
            "",
            null);

    final CsvLine line = new CsvLine(256);

    @Benchmark
    public int requestLine() {
        line.truncate(0);
        record.appendCsv(line);
        return line.length();
    }
}
