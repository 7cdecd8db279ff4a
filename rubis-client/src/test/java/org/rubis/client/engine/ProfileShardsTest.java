package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rubis.client.TestFiles;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ConfigLoader;
import org.rubis.client.config.ShardPlan;
import org.rubis.client.profile.LoadProfile;
import org.rubis.client.report.IntervalLoad;

/**
 * Shards of a closed run with a load profile (docs/WORKLOAD.md, Load profiles; docs/SHARDING.md): user u is shard
 * u mod N's at every point, so at every instant the users the shards want are exactly the users one process wants,
 * and the shards' planned users per interval add up to one process's.
 */
class ProfileShardsTest {

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"0 20\n10s 100\n20s 40\n30s end\n", "shape ramp\n0 7\n10s 41\n20s 25\n25s 25\n30s end\n"})
    void threeShardsWantTheUsersOneProcessWants(String profile) {
        Path f = TestFiles.write(tmp, "p.txt", profile);
        ClientConfig c = ConfigLoader.load(
                (Path) null, Map.of("workload_profile_file", f.toString(), "workload_up_ramp_time_in_ms", "0"));
        LoadProfile p = c.profile();
        RunClock clock = new RunClock(c, Instant.now());
        List<IntervalLoad> one = new Population(c, clock, ShardPlan.SINGLE).figures(clock.endNano());
        List<List<IntervalLoad>> shards = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            shards.add(
                    new Population(c, clock, new ShardPlan(i, 3, Instant.now(), null, true)).figures(clock.endNano()));
        }
        for (int i = 0; i < p.intervals(); i++) {
            double sumMean = 0;
            double sumStart = 0;
            for (List<IntervalLoad> s : shards) {
                sumMean += s.get(i).plannedMean();
                sumStart += s.get(i).plannedStart();
            }
            assertEquals(one.get(i).plannedMean(), sumMean, 1e-6, "interval " + i);
            assertEquals(one.get(i).plannedStart(), sumStart, 1e-9, "interval " + i);
            assertEquals(
                    p.meanValue(i),
                    one.get(i).plannedMean(),
                    0.5,
                    "one process plans the profile's users, interval " + i);
        }
        // Every 100 ms: user u is wanted when the profile's value is above u + 1/2, whichever shard owns it.
        for (long t = 0; t < p.lengthNs(); t += 100_000_000L) {
            double v = p.valueAt(t);
            if (v - 0.5 == Math.rint(v - 0.5)) {
                continue; // the very instant a user's half is crossed: it joins or leaves there
            }
            int wanted = 0;
            for (int u = 0; u < c.users(); u++) {
                boolean in = p.nextChange(u, t, true) == t;
                boolean out = p.nextChange(u, t, false) == t;
                assertTrue(in != out, "user " + u + " at " + t + " is either wanted or not");
                wanted += in ? 1 : 0;
            }
            assertEquals(Math.max(0, Math.ceil(v - 0.5)), wanted, "users wanted at " + t / 1e9 + " s");
        }
    }
}
