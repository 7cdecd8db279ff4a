package org.rubis.client.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.client.TestFiles;
import org.rubis.client.config.BackendKind;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ConfigLoader;
import org.rubis.client.input.ConfigException;
import org.rubis.client.process.ResourcePlan;

/**
 * Load profile files as a run loads them (docs/WORKLOAD.md, Load profiles): what a file means (intervals, shape,
 * length, mixes, the users each instant wants) and every mistake as one line naming the file, the line and the fix.
 */
class ProfileFileTest {

    @TempDir
    Path tmp;

    private ClientConfig load(String profile, String... extra) {
        Path f = TestFiles.write(tmp, "p.txt", profile);
        Map<String, String> p = new HashMap<>(Map.of("workload_profile_file", f.toString()));
        for (int i = 0; i < extra.length; i += 2) {
            p.put(extra[i], extra[i + 1]);
        }
        return ConfigLoader.load((Path) null, p);
    }

    private String error(String profile, String... extra) {
        String m =
                assertThrows(ConfigException.class, () -> load(profile, extra)).getMessage();
        assertEquals(-1, m.indexOf('\n'), "one line: " + m);
        return m;
    }

    private String p() {
        return tmp.resolve("p.txt").toString();
    }

    @Test
    void aStepProfileSetsTheRunPhaseItsIntervalsAndThePeak() {
        ClientConfig c = load("# steps\n0 20\n30s 100 browsing\n1m 40 - 0.5\n90s end\n");
        LoadProfile p = c.profile();
        assertEquals(ProfileShape.STEP, p.shape());
        assertEquals(3, p.intervals());
        assertEquals(90_000, c.runMs(), "the end line sets the run phase");
        assertEquals(100, c.users(), "closed: the users the run must hold are the peak");
        assertEquals(30_000_000_000L, p.startNs(1));
        assertEquals("browsing", p.points().get(2).mixName(), "'-' keeps the mix in force");
        assertEquals(0.5, p.points().get(2).thinkScale());
        assertEquals(1.0, p.points().get(1).thinkScale(), "the run's think scale until a point names one");
        assertTrue(p.flat(0) && p.flat(1) && p.flat(2));
        assertEquals(100, p.valueAt(45_000_000_000L));
    }

    @Test
    void aRampWantsUsersOneAtATimeAsTheLineCrossesTheirHalf() {
        LoadProfile p = load("shape ramp\n0 0\n10s 10\n20s end\n").profile();
        assertEquals(2, p.intervals(), "the ramp, then the last value held");
        assertTrue(!p.flat(0) && p.flat(1));
        // user 3 is wanted while the value is above 3.5: from 3.5 s on the ramp from 0 to 10 over 10 s
        assertEquals(3_500_000_000L, p.nextChange(3, 0, true));
        assertEquals(Long.MAX_VALUE, p.nextChange(3, 5_000_000_000L, false), "never let go: the value stays 10");
        assertEquals(5.0, p.valueAt(5_000_000_000L), 1e-9);
    }

    @Test
    void withoutAnEndLineTheRunsDurationHoldsAndAPointAfterItIsRefused() {
        ClientConfig c = load("0 5\n10s 8\n", "workload_session_run_time_in_ms", "30000");
        assertEquals(30_000, c.runMs());
        assertEquals(30_000_000_000L, c.profile().lengthNs());
        String m = error("0 5\n40s 8\n", "workload_session_run_time_in_ms", "30000");
        assertTrue(m.startsWith(p() + ":2: a point at 40 s, at or after the end of the run phase (30 s)"), m);
    }

    @Test
    void anEndLineThatDisagreesWithTheDurationIsRefused() {
        String m = error("0 5\n20s end\n", "workload_session_run_time_in_ms", "30000");
        assertTrue(m.contains("the profile " + p() + " is shorter") && m.contains("line 2"), m);
    }

    @Test
    void badPointsAreOneLineNamingFileAndLine() {
        assertEquals(p() + ":2: time 0 again (line 1 has it); each point needs its own time", error("0 5\n0 6\n"));
        assertEquals(
                p() + ":3: time 10s is before the previous point's (line 2); points must be in increasing time order",
                error("0 5\n20s 6\n10s 7\n"));
        assertTrue(error("0 -3\n").startsWith(p() + ":1: -3 users is negative"));
        assertTrue(error("0 2.5\n").startsWith(p() + ":1: 2.5 users is not a whole number"));
        assertTrue(error("0 five\n").startsWith(p() + ":1: \"five\" is not a number of users"));
        assertTrue(error("soon 5\n").startsWith(p() + ":1: \"soon\" is not a time"));
        assertTrue(error("0 5 shopping\n").startsWith(p() + ":1: unknown mix \"shopping\""), error("0 5 shopping\n"));
        assertTrue(error("0 5\n10s end\n20s 6\n").startsWith(p() + ":3: \"20s 6\" after the end line (line 2)"));
        assertTrue(error("# nothing\n").startsWith(p() + ": no points"));
        assertTrue(error("0 0\n10s 0\n").contains("every point is 0 users"));
    }

    @Test
    void aUnitThatDoesNotMatchTheArrivalsIsRefused() {
        assertTrue(error("unit sessions/s\n0 5\n")
                .startsWith(p() + ":1: a profile of sessions per second, but the run has closed " + "arrivals"));
        assertTrue(error("unit users\n0 5\n", "workload_arrivals", "hybrid")
                .startsWith(p() + ":1: a profile of users, but the run has " + "hybrid arrivals"));
    }

    @Test
    void aShapeLineAndADifferentShapeOptionAreRefusedTogether() {
        String m = error("shape ramp\n0 5\n10s 6\n", "workload_profile_shape", "step");
        assertTrue(m.startsWith(p() + ":1: shape ramp, but ") && m.endsWith("drop one of them"), m);
        assertEquals(
                ProfileShape.RAMP,
                load("0 5\n10s 6\n", "workload_profile_shape", "ramp").profile().shape());
    }

    @Test
    void aProfileReplacesTheUsersAndTheRate() {
        String m = error("0 5\n", "workload_number_of_clients_per_node", "10");
        assertTrue(m.contains("the load profile sets the users over the run phase; drop"), m);
        m = error("0 5\n", "workload_arrivals", "hybrid", "workload_session_rate", "3");
        assertTrue(m.contains("the load profile sets the session rate over the run phase; drop"), m);
    }

    /** bench scale's 18,000 users as a profile's peak: the resource plan counts the peak, and it fits as the fixed run does. */
    @Test
    void anEighteenThousandUserPeakFitsTheResourcePlanAsBenchScaleDoes() {
        ClientConfig c = load("0 2000\n1m 18000\n2m 6000\n3m end\n", "client_backend", "netty");
        assertEquals(18_000, c.users());
        ResourcePlan plan = ResourcePlan.of(c);
        assertEquals(18_000, plan.connections(), "one connection per session at the peak");
        assertEquals(
                2,
                new ResourcePlan(plan.connections(), 1_000_000, 28_232).check(true, 1, true, BackendKind.NETTY),
                "on loopback, two source addresses hold the peak's ports, as for bench scale's fixed 18,000 users");
    }

    /** Values are plain decimals within the bound: Java's float suffixes and hex were read as numbers. */
    @Test
    void valuesArePlainDecimalsWithinTheBound() {
        assertTrue(error("0 2d\n6s end\n").startsWith(p() + ":1: \"2d\" is not a number of users"));
        assertTrue(error("0 0x10\n6s end\n").startsWith(p() + ":1: \"0x10\" is not a number of users"));
        assertTrue(error("0 NaN\n6s end\n").startsWith(p() + ":1: \"NaN\" is not a number of users"));
        String big = error("0 1e308\n6s end\n");
        assertTrue(big.startsWith(p() + ":1: 1e308 users is beyond the largest a profile may hold"), big);
        assertFalse(big.contains("9223372036854775807"), big);
        assertEquals(2.0, load("0 2.\n6s end\n").profile().points().get(0).value());
        assertEquals(200.0, load("0 2e2\n6s end\n").profile().points().get(0).value());
    }

    /** The number of points is bounded: 10^5 took 6.1 GB and 10^6 ran out of heap before the first request. */
    @Test
    void theNumberOfPointsIsBounded() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i <= LoadProfile.MAX_POINTS; i++) {
            b.append(i).append("s 1\n");
        }
        String m = error(b.toString());
        assertTrue(
                m.startsWith(
                        p() + ":" + (LoadProfile.MAX_POINTS + 1) + ": more than " + LoadProfile.MAX_POINTS + " points"),
                m);
    }

    /** A point at the end line's time holds for no time: on a ramp it is what the last stretch ramps to. */
    @Test
    void aPointAtTheEndIsTheRampsTarget() {
        LoadProfile p = load("shape ramp\n0 0\n4s 4\n4s end\n").profile();
        assertEquals(1, p.intervals());
        assertEquals(4.0, p.endValue(0));
        assertEquals(1.0, p.valueAt(1_000_000_000L), 1e-9);
        // user 2 (0-based) is wanted once the line passes 2.5: at 2.5 s
        assertEquals(2_500_000_000L, p.nextChange(2, 0, true));
        assertEquals(Long.MAX_VALUE, p.nextChange(2, 3_000_000_000L, false), "after the end the target holds");
        LoadProfile steps = load("0 2\n2s 6\n4s 2\n4s end\n").profile();
        assertEquals(2, steps.intervals(), "on steps the point at the end changes nothing");
        assertEquals(6.0, steps.valueAt(3_999_000_000L));
    }
}
