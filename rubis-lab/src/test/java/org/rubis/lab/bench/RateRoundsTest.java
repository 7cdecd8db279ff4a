package org.rubis.lab.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** bench rate's rounds: the ratio is taken within each round, the medians over them, and a missing client is said so. */
class RateRoundsTest {

    private static RateRounds.Row row(String client, double us) {
        return new RateRounds.Row(client, 100_000, us, us * 0.7, Double.NaN, us, null, null, "OK");
    }

    @Test
    void theRatioIsTakenWithinEachRoundAndItsMedianQuoted() {
        RateRounds r = new RateRounds();
        // The host slows down between rounds: both clients' figures move together, the ratio hardly at all.
        r.add(List.of(row(RateRounds.NETTY, 9.0), row(RateRounds.WRK, 8.0), row(RateRounds.HTTPERF, 7.9)));
        r.add(List.of(row(RateRounds.NETTY, 11.0), row(RateRounds.WRK, 10.0), row(RateRounds.HTTPERF, 9.6)));
        r.add(List.of(row(RateRounds.NETTY, 9.9), row(RateRounds.WRK, 9.0), row(RateRounds.HTTPERF, 8.7)));
        assertArrayEquals(new double[] {9.0 / 8.0, 11.0 / 10.0, 9.9 / 9.0}, r.nettyOverWrk(), 1e-12);
        assertEquals(1.1, RateRounds.median(r.nettyOverWrk()), 1e-12);
        // A ratio of the medians across rounds would mix minutes: 9.9 / 9.0 here by chance; the test above is what is
        // quoted.
        List<String> s = r.summary();
        assertTrue(s.get(0).startsWith("over 3 rounds"), s.toString());
        assertTrue(s.get(1).contains("9.9 (9.0..11.0), 3 rounds"), s.get(1));
        assertTrue(s.get(2).contains("9.0 (8.0..10.0)"), s.get(2));
        assertTrue(s.get(4).contains("1.13, 1.10, 1.10; median 1.10 (above wrk)"), s.get(4));
    }

    @Test
    void theGapToWrkIsSplitIntoUserAndKernelWithinEachRound() {
        RateRounds r = new RateRounds();
        // netty spends less in the kernel than wrk and more in user code: the two parts must not cancel out in the
        // line.
        r.add(List.of(
                new RateRounds.Row(RateRounds.NETTY, 100_000, 9.2, 6.2, 0.002, 9.3, null, null, "OK"),
                RateRounds.Row.tool(RateRounds.WRK, 120_000, 0.08, 0.72, 100_000)));
        r.add(List.of(
                new RateRounds.Row(RateRounds.NETTY, 100_000, 10.0, 7.0, 0.002, 10.1, null, null, "OK"),
                RateRounds.Row.tool(RateRounds.WRK, 120_000, 0.09, 0.81, 100_000)));
        r.add(List.of(
                new RateRounds.Row(RateRounds.NETTY, 100_000, 9.7, 6.6, 0.002, 9.8, null, null, "OK"),
                RateRounds.Row.tool(RateRounds.WRK, 120_000, 0.09, 0.71, 100_000)));
        r.add(List.of(
                new RateRounds.Row(RateRounds.NETTY, 100_000, 9.5, 6.6, 0.002, 9.6, null, null, "OK"),
                RateRounds.Row.missing(RateRounds.WRK, "failed")));
        double[][] gap = r.nettyMinusWrk();
        assertEquals(3, gap.length, "the round without wrk gives no difference");
        assertEquals(3.0 - 0.8, gap[0][0], 1e-9);
        assertEquals(6.2 - 7.2, gap[0][1], 1e-9);
        assertEquals(3.0 - 0.9, gap[1][0], 1e-9);
        assertEquals(7.0 - 8.1, gap[1][1], 1e-9);
        String last = r.summary().get(r.summary().size() - 1);
        // medians of (2.2, 2.1, 2.2) and (-1.0, -1.1, -0.5)
        assertTrue(last.endsWith("user +2.2 us, kernel -1.0 us a request"), last);
    }

    @Test
    void aClientThatDidNotRunIsNotCountedAndItsRoundGivesNoRatio() {
        RateRounds r = new RateRounds();
        r.add(List.of(
                row(RateRounds.NETTY, 8.0),
                RateRounds.Row.missing(RateRounds.WRK, "not installed (apt-get install -y wrk)"),
                RateRounds.Row.missing(RateRounds.HTTPERF, "not installed")));
        r.add(List.of(
                RateRounds.Row.missing(RateRounds.NETTY, "failed, see x"),
                row(RateRounds.WRK, 8.0),
                row(RateRounds.HTTPERF, 8.0)));
        assertEquals(0, r.nettyOverWrk().length);
        assertArrayEquals(new double[] {8.0}, r.usPerRequest(RateRounds.NETTY));
        List<String> s = r.summary();
        assertEquals(4, s.size(), "no ratio line without a round that measured both: " + s);
        assertTrue(s.get(1).contains("8.0 (8.0..8.0), 1 round"), s.get(1));
        assertTrue(RateRounds.Row.missing(RateRounds.WRK, "not installed (apt-get install -y wrk)")
                .text()
                .endsWith("not installed (apt-get install -y wrk)"));
    }

    @Test
    void aToolsCpuIsItsUserAndSystemSecondsOverItsRequests() {
        RateRounds.Row wrk = RateRounds.Row.tool(RateRounds.WRK, 110_000, 0.2, 1.3, 1_500_000);
        assertEquals(1.0, wrk.usPerRequest(), 1e-12);
        assertEquals(1.3 / 1.5, wrk.kernelUs(), 1e-12);
        assertEquals(wrk.usPerRequest(), wrk.grossUs());
        assertTrue(wrk.text().contains(" 1.0 ") && wrk.text().endsWith("1.0  -"), wrk.text());
    }

    @Test
    void aToolThatCompletedNoRequestGivesNoFigure() {
        RateRounds.Row wrk = RateRounds.Row.tool(RateRounds.WRK, 0, 0.1, 0.2, 0);
        assertTrue(!wrk.measured() && wrk.text().endsWith("no request completed"), wrk.text());
    }

    @Test
    void medianOfEvenAndOddCounts() {
        assertEquals(2.0, RateRounds.median(new double[] {3, 1, 2}));
        assertEquals(2.5, RateRounds.median(new double[] {4, 1, 3, 2}));
        assertTrue(Double.isNaN(RateRounds.median(new double[0])));
    }

    @Test
    void atOrBelowWrkIsSaidOnlyWhenTheMedianRatioIsAtMostOne() {
        RateRounds r = new RateRounds();
        r.add(List.of(row(RateRounds.NETTY, 8.0), row(RateRounds.WRK, 8.0)));
        assertTrue(
                r.summary().stream().anyMatch(l -> l.endsWith("median 1.00 (at or below wrk)")),
                r.summary().toString());
    }
}
