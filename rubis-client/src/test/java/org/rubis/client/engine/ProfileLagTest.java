package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.client.TestFiles;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ConfigLoader;
import org.rubis.client.config.ShardPlan;
import org.rubis.client.report.IntervalLoad;

/**
 * The users above the plan in a profile's intervals (docs/WORKLOAD.md, Load profiles): a user the profile lets go is
 * lag until it leaves or until the profile wants it back, never after. Profile {@code 0 6 / 3s 0 / 6s 6 / 10s end}
 * once reported 12 users achieved in the last interval of a 6-user run, and a lag of 7 s in the 3 s dip: the users that
 * kept their session through the dip were counted as lag to the run's end and again as the users wanted back.
 */
class ProfileLagTest {

    private static final long S = 1_000_000_000L;

    @TempDir
    Path tmp;

    @Test
    void aUserKeptThroughADipIsLagOnlyUntilTheProfileWantsItBack() {
        Path f = TestFiles.write(tmp, "dip.txt", "0 6\n3s 0\n6s 6\n10s end\n");
        ClientConfig c = ConfigLoader.load(
                (Path) null, Map.of("workload_profile_file", f.toString(), "workload_up_ramp_time_in_ms", "0"));
        RunClock clock = new RunClock(c, Instant.now());
        Population p = new Population(c, clock, ShardPlan.SINGLE);
        long t0 = clock.upEndNano();
        Population.User[] users = new Population.User[6];
        for (int u = 0; u < 6; u++) {
            users[u] = new Population.User(p, u, p.firstJoin(u));
            p.started(users[u]);
        }
        // Users 0 and 1 stay in one session all run. Users 2 and 3 end theirs 1 s into the dip and leave until the
        // profile wants them back at 6 s; users 4 and 5 end theirs at 7 s, after they were wanted back: they stay.
        for (int u = 2; u < 4; u++) {
            users[u].sessionEnded(t0 + 4 * S);
            users[u].nextStart(t0 + 4 * S + S / 2, clock.endNano());
        }
        for (int u = 4; u < 6; u++) {
            users[u].sessionEnded(t0 + 7 * S);
            users[u].nextStart(t0 + 7 * S + S / 2, clock.endNano());
        }
        List<IntervalLoad> f3 = p.figures(clock.endNano());
        assertEquals(3, f3.size());
        IntervalLoad before = f3.get(0);
        assertEquals(6, before.plannedMean(), 1e-9);
        assertEquals(6, before.achievedMean(), 1e-9);
        assertEquals(0, before.lagMaxUsers());
        IntervalLoad dip = f3.get(1);
        assertEquals(0, dip.plannedMean(), 1e-9);
        // user-seconds above the plan: 0, 1, 4 and 5 the whole 3 s, 2 and 3 one second each
        assertEquals((4 * 3 + 2 * 1) / 3.0, dip.lagMeanUsers(), 1e-6);
        assertEquals(dip.lagMeanUsers(), dip.achievedMean(), 1e-6);
        assertEquals(6, dip.lagMaxUsers());
        assertEquals(3.0, dip.lagMaxSeconds(), 1e-6, "no user is lag longer than the 3 s the profile did not want it");
        IntervalLoad after = f3.get(2);
        assertEquals(6, after.plannedMean(), 1e-9);
        assertEquals(6, after.achievedMean(), 1e-9, "6 users, each counted once");
        assertEquals(0, after.lagMeanUsers(), 1e-9);
        assertEquals(0, after.lagMaxUsers());
    }
}
