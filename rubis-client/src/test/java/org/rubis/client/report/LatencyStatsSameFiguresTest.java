package org.rubis.client.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rubis.analysis.OldBin;
import org.rubis.analysis.merge.OldMergedCell;
import org.rubis.analysis.stats.Latency;
import org.rubis.format.LatencyStats;
import org.rubis.format.Percentiles;

/**
 * The same times through the four old latency classes (the summary's LatencyCell, the report's Latency, the time
 * line's RunAnalysis.Bin, the merge's MergedStats.Cell) and through LatencyStats give the same figures as written
 * (summary.json, analysis.json, a merged summary.json: 3 decimals of ms). Kept until the old classes go.
 */
class LatencyStatsSameFiguresTest {

    private static final double[] PERCENTILES = {0, 50, 90, 95, 99, 99.9, 100};

    /** A group: 0 to 3000 times, mostly log-normal around 1 ms, with errors and the edges (0, 1 ns, over an hour). */
    private static long[] times(SplittableRandom rnd) {
        int n = rnd.nextInt(4) == 0 ? rnd.nextInt(4) : rnd.nextInt(3000);
        long[] t = new long[n];
        for (int i = 0; i < n; i++) {
            int edge = rnd.nextInt(500);
            t[i] = edge == 0 ? 0 : edge == 1 ? 1 : edge == 2 ? Percentiles.MAX_NS + rnd.nextInt(1000)
                    : (long) Math.exp(Math.log(1e6) + rnd.nextGaussian() * 2);
        }
        return t;
    }

    /** As Summary, HtmlReport and MergedStats round what they write. */
    private static double r3(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    @Test
    void theSummaryCellsFiguresAreUnchangedSingleAndAdded() {
        SplittableRandom rnd = new SplittableRandom(31);
        for (int group = 0; group < 400; group++) {
            LatencyCell oldTotal = new LatencyCell();
            LatencyStats newTotal = new LatencyStats();
            for (int part = 0; part < 1 + rnd.nextInt(5); part++) {
                LatencyCell old = new LatencyCell();
                LatencyStats now = new LatencyStats();
                for (long ns : times(rnd)) {
                    boolean error = rnd.nextInt(20) == 0;
                    old.record(ns, error);
                    now.record(ns, error);
                }
                assertSame(Summary.cell(node(), old), cell(now));
                oldTotal.add(old);
                newTotal.add(now);
            }
            assertSame(Summary.cell(node(), oldTotal), cell(newTotal));
        }
    }

    @Test
    void theReportsFiguresAreUnchanged() {
        SplittableRandom rnd = new SplittableRandom(32);
        int meansOffInTheLastBit = 0;
        for (int group = 0; group < 2000; group++) {
            Latency old = new Latency();
            LatencyStats now = new LatencyStats();
            Latency oldTotal = new Latency();
            LatencyStats newTotal = new LatencyStats();
            for (long ns : times(rnd)) {
                boolean error = rnd.nextInt(20) == 0;
                old.add(ns, error);
                now.record(ns, error);
            }
            oldTotal.add(old);
            newTotal.add(now);
            for (var pair : List.of(List.of(old, now), List.of(oldTotal, newTotal))) {
                Latency o = (Latency) pair.get(0);
                LatencyStats n = (LatencyStats) pair.get(1);
                assertEquals(o.count(), n.count());
                assertEquals(o.errors(), n.errors());
                assertEquals(r3(o.meanMs()), r3(n.meanMs()), "mean as written");
                meansOffInTheLastBit += o.meanMs() == n.meanMs() ? 0 : 1;
                assertEquals(o.minMs(), n.minMs());
                assertEquals(o.maxMs(), n.maxMs());
                for (double p : PERCENTILES) {
                    assertEquals(o.percentileMs(p), n.percentileMs(p), "p" + p);
                }
                assertEquals(o.histogram(), n.histogram());
            }
        }
        System.out.println("report means that differ in the last bit (not in the 3 decimals written): " + meansOffInTheLastBit);
    }

    @Test
    void theTimeLinesFiguresAreUnchanged() {
        SplittableRandom rnd = new SplittableRandom(33);
        for (int second = 0; second < 2000; second++) {
            OldBin old = new OldBin();
            LatencyStats now = LatencyStats.coarse();
            for (long ns : times(rnd)) {
                boolean error = rnd.nextInt(20) == 0;
                old.add(ns, error);
                now.record(ns, error);
            }
            assertEquals(old.bin().requests, now.count());
            assertEquals(old.bin().errors, now.errors());
            assertEquals(r3(old.bin().meanMs()), r3(now.meanMs()), "mean as written");
            assertEquals(old.bin().p99Ms(), now.percentileMs(99), "p99");
        }
    }

    @Test
    void theMergedSummarysFiguresAreUnchanged() {
        SplittableRandom rnd = new SplittableRandom(34);
        for (int group = 0; group < 2000; group++) {
            OldMergedCell old = new OldMergedCell();
            LatencyStats now = new LatencyStats();
            for (long ns : times(rnd)) {
                long v = rnd.nextInt(50) == 0 ? -ns : ns; // session start lateness can be negative: the merge counts it as 0
                boolean error = rnd.nextInt(20) == 0;
                old.add(v, error);
                now.record(Math.max(0, v), error);
            }
            assertSame(old.write(), cell(now));
        }
    }

    private static ObjectNode node() {
        return JsonNodeFactory.instance.objectNode();
    }

    /** summary.json's cell keys, as Summary.cell and MergedStats.Cell.write put them. */
    private static ObjectNode cell(LatencyStats c) {
        ObjectNode n = node();
        n.put("count", c.count());
        n.put("errors", c.errors());
        n.put("mean", r3(c.meanMs()));
        n.put("min", r3(c.minMs()));
        n.put("max", r3(c.maxMs()));
        n.put("p50", r3(c.percentileMs(50)));
        n.put("p90", r3(c.percentileMs(90)));
        n.put("p99", r3(c.percentileMs(99)));
        n.put("p99_9", r3(c.percentileMs(99.9)));
        return n;
    }

    private static void assertSame(ObjectNode old, ObjectNode now) {
        assertEquals(old.toString(), now.toString());
    }
}
