package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/WORKLOAD.md, Load profiles, Shards: a step profile of users on the browsing mix, as one process and as three
 * local shards (run --shards 3): each interval's planned and achieved users add up over the shards to one process's,
 * and the same sessions run in each interval (requests.csv's interval column, merged); the merged summary's intervals
 * add up the shards'.
 */
@Order(1) // among the longest classes: starts first (src/test/pom.xml, testclass.order)
class ProfileShardsRunTest {

    @TempDir
    Path work;

    private String[] args(Path profile, String out, String... more) {
        String[] base = {
            "run",
            "--profile",
            profile.toString(),
            "--ramp-up",
            "2s",
            "--ramp-down",
            "0",
            "--think-scale",
            "0.05",
            "--backend",
            "dedicated",
            "--seed",
            "5",
            "--out",
            out,
            "--no-progress",
            "--jit-warmup",
            "off",
            "-Dserver_size=0.02",
            Cli.SMALL_SERVER,
            "-Dworkload_transition_table=browse_only_transitions.txt"
        };
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    /** Interval -> the sessions that sent a request in it. */
    private static Map<String, Set<String>> sessionsByInterval(RunDir d) throws Exception {
        Map<String, Set<String>> m = new HashMap<>();
        for (Map<String, String> r : d.csv("requests.csv")) {
            m.computeIfAbsent(r.get("interval"), k -> new HashSet<>()).add(r.get("session_id"));
        }
        return m;
    }

    @Test
    void threeShardsOfAProfileAddUpToOneProcess() throws Exception {
        Path profile = Files.writeString(work.resolve("steps.txt"), "0 6\n4s 15\n8s 9\n12s end\n");
        Cli.Result one = Cli.run(work, 180, args(profile, "single"));
        assertEquals(0, one.status(), one.out() + one.err());
        Cli.Result three = Cli.run(work, 240, args(profile, "sharded", "--shards", "3"));
        assertEquals(0, three.status(), three.out() + three.err());
        JsonNode single =
                new RunDir(work.resolve("single")).json("summary.json").get("intervals");
        assertEquals(3, single.size());
        double[] planned = new double[3];
        double[] achieved = new double[3];
        long[] requests = new long[3];
        for (int s = 0; s < 3; s++) {
            JsonNode intervals = new RunDir(work.resolve("sharded").resolve("shard-" + s))
                    .json("summary.json")
                    .get("intervals");
            for (int i = 0; i < 3; i++) {
                planned[i] += intervals.get(i).get("users_planned").asDouble();
                achieved[i] += intervals.get(i).get("users_achieved").asDouble();
                requests[i] += intervals.get(i).get("requests").asLong();
            }
        }
        double[] profileUsers = {6, 15, 9};
        for (int i = 0; i < 3; i++) {
            assertEquals(profileUsers[i], single.get(i).get("users_planned").asDouble(), 1e-9, "interval " + i);
            assertEquals(single.get(i).get("users_planned").asDouble(), planned[i], 1e-6, "planned, interval " + i);
            // Achieved adds the users still finishing a session after the profile let them go: the same users, at
            // instants that differ by the shards' scheduling only.
            assertEquals(single.get(i).get("users_achieved").asDouble(), achieved[i], 0.5, "achieved, interval " + i);
        }
        // The merged summary has the whole run's intervals: the shards' planned users added up, their requests too.
        JsonNode merged =
                new RunDir(work.resolve("sharded")).json("summary.json").get("intervals");
        assertEquals(3, merged.size());
        for (int i = 0; i < 3; i++) {
            assertEquals(planned[i], merged.get(i).get("users_planned").asDouble(), 1e-6, "merged, interval " + i);
            assertEquals(requests[i], merged.get(i).get("requests").asLong(), "merged requests, interval " + i);
        }
        Map<String, Set<String>> a = sessionsByInterval(new RunDir(work.resolve("single")));
        Map<String, Set<String>> b = sessionsByInterval(new RunDir(work.resolve("sharded")));
        for (String i : new String[] {"0", "1", "2"}) {
            Set<String> both = new HashSet<>(a.get(i));
            both.retainAll(b.get(i));
            assertTrue(
                    both.size() >= a.get(i).size() - 1
                            && both.size() >= b.get(i).size() - 1,
                    "interval " + i + ": sessions " + a.get(i) + " vs " + b.get(i));
        }
    }
}
