package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.apache.commons.math3.distribution.ChiSquaredDistribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.client.TestFiles;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ConfigLoader;
import org.rubis.client.workload.RequestGenerator;
import org.rubis.client.workload.StationaryVisits;
import org.rubis.client.workload.TransitionTable;
import org.rubis.client.workload.UserSession;

/**
 * docs/WORKLOAD.md, Load profiles, Mix: a point's mix is the transition table of the sessions that begin from it on,
 * and a session in progress keeps its own. Sessions begun before a switch from bidding to browsing and sessions begun
 * after it are made and driven as the engine makes them ({@link Population#mixAt}, {@link UserSession}; in-JVM, no
 * server and no clock), and the states of their requests are tested, with Pearson's chi-square, against each shipped
 * table's stationary distribution ({@link StationaryVisits}): each group fits its own table (p > 0.001) and is
 * rejected against the other (p < 0.001).
 *
 * <p>Requests of one session are not independent, so each session gives at most one: it is kept with probability
 * its length over the longest a session may be ({@value #MAX_TRANSITIONS} requests), and one of its requests drawn
 * uniformly (a length-biased session, a uniform request in it), which is an independent draw from the stationary
 * distribution. {@value #SAMPLES} requests a group: the 17 states the browsing table never reaches take about 36 % of
 * the bidding table's requests, so a wrong table gives a statistic in the thousands against a critical value near 45
 * (about 20 degrees of freedom at 0.001); a few hundred requests would do, and 4,000 also catch smaller departures
 * (a reply without a user's link, which made the sessions skip ViewUserInfo, failed the fit). The figures are in the
 * failure message.
 */
class MixSwitchTest {

    private static final int SAMPLES = 4000;
    private static final int MAX_TRANSITIONS = 50;
    private static final double ALPHA = 0.001;
    private static final long SWITCH_NS = 10_000_000_000L;
    /** A reply that names an item and a user, so that every state has the ids its request needs (none is skipped). */
    private static final String PAGE = "<TR><TD><a href=\"/PHP/ViewItem.php?itemId=101\">Item 101</a><TD>10.00<TD>3\n"
            + "<TR><TD>Seller<TD><a href=\"/PHP/ViewUserInfo.php?userId=3567\">user3567</a>";

    @TempDir
    Path tmp;

    @Test
    void sessionsTakeTheMixInForceWhenTheyBegin() {
        Path f = TestFiles.write(tmp, "mix.txt", "0 10 bidding\n10s 10 browsing\n20s end\n");
        ClientConfig c = ConfigLoader.load(
                (Path) null,
                Map.of(
                        "workload_profile_file",
                        f.toString(),
                        "workload_up_ramp_time_in_ms",
                        "0",
                        "client_seed",
                        "20261127",
                        "workload_maximum_number_of_transitions",
                        String.valueOf(MAX_TRANSITIONS)));
        RunClock clock = new RunClock(c, Instant.now());
        long switchNano = clock.upEndNano() + SWITCH_NS;
        double[] bidding = StationaryVisits.of(table("default_transitions.txt"), MAX_TRANSITIONS);
        double[] browsing = StationaryVisits.of(table("browse_only_transitions.txt"), MAX_TRANSITIONS);

        // Begun in the 10 s before the switch, the first at its last nanosecond; and in the 10 s from the switch on.
        long[] before = sample(c, clock, switchNano - 1, -1, 0, 1);
        long[] after = sample(c, clock, switchNano, 1, 1_000_000_000L, 2);

        double fitBefore = pValue(before, bidding);
        double fitAfter = pValue(after, browsing);
        double crossBefore = pValue(before, browsing);
        double crossAfter = pValue(after, bidding);
        String figures = "p: before/bidding " + fitBefore + ", after/browsing " + fitAfter + ", before/browsing "
                + crossBefore + ", after/bidding " + crossAfter + "; before " + Arrays.toString(before) + ", after "
                + Arrays.toString(after) + " expected "
                + Arrays.toString(
                        Arrays.stream(bidding).map(x -> Math.round(x * SAMPLES)).toArray()) + " / "
                + Arrays.toString(Arrays.stream(browsing)
                        .map(x -> Math.round(x * SAMPLES))
                        .toArray());
        assertTrue(fitBefore > ALPHA, "sessions begun before the switch follow the bidding table: " + figures);
        assertTrue(fitAfter > ALPHA, "sessions begun after the switch follow the browsing table: " + figures);
        assertTrue(crossBefore < ALPHA, "the test tells the tables apart: " + figures);
        assertTrue(crossAfter < ALPHA, "the test tells the tables apart: " + figures);
    }

    /**
     * {@value #SAMPLES} independent requests' states (counts by table column) of sessions begun within 10 s of {@code
     * anchor} in {@code direction} (the first at the anchor), session ids from {@code firstId} on, one stream of draws
     * per {@code seed}.
     */
    private static long[] sample(ClientConfig c, RunClock clock, long anchor, int direction, long firstId, long seed) {
        RequestGenerator generator = new RequestGenerator(c.workload());
        SplittableRandom pick = new SplittableRandom(seed);
        long[] counts = new long[c.workload().table().columns()];
        int taken = 0;
        int[] states = new int[MAX_TRANSITIONS];
        for (long id = firstId; taken < SAMPLES; id++) {
            long start = anchor + direction * Math.floorMod((id - firstId) * 7_919_000_003L, SWITCH_NS);
            UserSession s = new UserSession(Population.mixAt(c, clock, start), generator, id, c.seed());
            int n = 0;
            do {
                s.nextPath();
                states[n++] = s.pendingState().ordinal();
            } while (s.onReply(PAGE, false) == UserSession.Next.REQUEST);
            if (pick.nextInt(MAX_TRANSITIONS) < n) {
                counts[states[pick.nextInt(n)]]++;
                taken++;
            }
        }
        return counts;
    }

    private static TransitionTable table(String name) {
        return TransitionTable.parse(TestFiles.shipped(name), 27, 29);
    }

    /**
     * Pearson's chi-square p-value of {@code observed} counts against {@code shares}: the states whose expected count
     * is below 5 pooled into one cell, with the next smallest until the pool's is 5 or more (an impossible state seen
     * lands in the pool and weighs heavily).
     */
    static double pValue(long[] observed, double[] shares) {
        long n = Arrays.stream(observed).sum();
        Integer[] order = IntStream.range(0, shares.length).boxed().toArray(Integer[]::new);
        Arrays.sort(order, Comparator.comparingDouble(i -> shares[i]));
        double poolExpected = 0;
        long poolObserved = 0;
        int k = 0;
        while (k < order.length && (n * shares[order[k]] < 5 || (k > 0 && poolExpected < 5))) {
            poolExpected += n * shares[order[k]];
            poolObserved += observed[order[k]];
            k++;
        }
        double stat = k == 0 ? 0 : square(poolObserved - poolExpected) / poolExpected;
        int cells = k == 0 ? 0 : 1;
        for (; k < order.length; k++) {
            double e = n * shares[order[k]];
            stat += square(observed[order[k]] - e) / e;
            cells++;
        }
        assertTrue(cells >= 2, "too few cells for a chi-square test");
        return 1 - new ChiSquaredDistribution(cells - 1).cumulativeProbability(stat);
    }

    private static double square(double x) {
        return x * x;
    }
}
