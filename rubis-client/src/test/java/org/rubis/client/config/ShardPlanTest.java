package org.rubis.client.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.client.input.ConfigException;

/** docs/SHARDING.md: who owns what, where the plan comes from, and one line for every bad input. */
class ShardPlanTest {

    static final Instant NOW = Instant.parse("2026-11-22T05:00:12.300Z");
    static final String AHEAD = "2026-11-22T05:05:00Z";

    static ClientConfig config(String... kv) {
        Map<String, String> o = new HashMap<>(Map.of(
                "client_target",
                "http://127.0.0.1:8080",
                "client_seed",
                "7",
                "workload_number_of_clients_per_node",
                "300"));
        for (int i = 0; i < kv.length; i += 2) {
            if (kv[i + 1] == null) {
                o.remove(kv[i]);
            } else {
                o.put(kv[i], kv[i + 1]);
            }
        }
        return ConfigLoader.load((Path) null, o);
    }

    static String error(String shard, String startAt, Map<String, String> env, ClientConfig c) {
        String m = assertThrows(ConfigException.class, () -> ShardPlan.resolve(shard, startAt, env, c, NOW))
                .getMessage();
        assertFalse(m.contains("\n"), m);
        return m;
    }

    @Test
    void theOptionsGiveIndexCountAndInstant() {
        ShardPlan p = ShardPlan.resolve("1/3", AHEAD, Map.of(), config(), NOW);
        assertEquals(1, p.index());
        assertEquals(3, p.count());
        assertEquals(Instant.parse(AHEAD), p.startAt());
        assertTrue(p.shard());
        assertEquals(
                Instant.parse(AHEAD),
                ShardPlan.resolve("0/3", String.valueOf(Instant.parse(AHEAD).toEpochMilli()), Map.of(), config(), NOW)
                        .startAt(),
                "epoch milliseconds");
        assertEquals(
                ShardPlan.SINGLE,
                ShardPlan.resolve(null, null, Map.of(), config("client_target", "embedded", "client_seed", null), NOW));
    }

    @Test
    void theEnvironmentOfAnIndexedJobStandsForTheOptionsWhichWin() {
        Map<String, String> env = Map.of(
                "JOB_COMPLETION_INDEX",
                "2",
                "RUBIS_SHARD_COUNT",
                "4",
                "RUBIS_START_AT",
                AHEAD,
                "HOSTNAME",
                "rubis-client-2-x7k2p");
        ShardPlan p = ShardPlan.resolve(null, null, env, config(), NOW);
        assertEquals(new ShardPlan(2, 4, Instant.parse(AHEAD), "rubis-client-2-x7k2p", true), p);
        ShardPlan q = ShardPlan.resolve("0/2", "2026-11-22T05:06:00Z", env, config(), NOW);
        assertEquals(0, q.index());
        assertEquals(2, q.count());
        assertEquals(Instant.parse("2026-11-22T05:06:00Z"), q.startAt());
    }

    @Test
    void eachUserOrArrivalBelongsToExactlyOneShard() {
        int[] owners = new int[100];
        for (int i = 0; i < 3; i++) {
            ShardPlan p = new ShardPlan(i, 3, null, null, true);
            for (int k = 0; k < owners.length; k++) {
                if (p.owns(k)) {
                    owners[k]++;
                    assertEquals(i, k % 3);
                }
            }
        }
        for (int n : owners) {
            assertEquals(1, n);
        }
        int total = 0;
        for (int i = 0; i < 4; i++) {
            total += new ShardPlan(i, 4, null, null, true).capShare(10);
        }
        assertEquals(10, total, "the cap is split, not multiplied");
        assertEquals(3, new ShardPlan(1, 4, null, null, true).capShare(10));
        assertEquals(2, new ShardPlan(2, 4, null, null, true).capShare(10));
    }

    @Test
    void badInputIsOneLineNamingTheFix() {
        ClientConfig c = config();
        assertEquals(
                "--shard 3/3: the index must be in 0..2 (shard I of N, 0-based)", error("3/3", AHEAD, Map.of(), c));
        for (String bad : new String[] {"2", "a/b", "0/0", "-1/3", "1/2/3"}) {
            assertEquals(
                    "--shard " + bad + ": expected I/N with 0 <= I < N, e.g. --shard 0/4",
                    error(bad, AHEAD, Map.of(), c));
        }
        assertEquals(
                "--start-at 2026-11-22T05:00:00Z is 12.3 s in the past (now 2026-11-22T05:00:12.300Z); give the same instant a few minutes ahead "
                        + "to every shard",
                error("0/2", "2026-11-22T05:00:00Z", Map.of(), c));
        assertEquals(
                "--start-at soon: expected an ISO-8601 instant (2026-11-22T06:00:00Z) or epoch milliseconds",
                error("0/2", "soon", Map.of(), c));
        assertTrue(error("0/2", "2026-11-24T05:00:00Z", Map.of(), c).contains("more than 24 h ahead"));
        assertEquals(
                "--shard needs --start-at (or RUBIS_START_AT): every shard must start at the same instant",
                error("0/2", null, Map.of(), c));
        assertTrue(error(
                        null,
                        null,
                        Map.of("JOB_COMPLETION_INDEX", "x", "RUBIS_SHARD_COUNT", "3", "RUBIS_START_AT", AHEAD),
                        c)
                .startsWith("JOB_COMPLETION_INDEX = \"x\" is not a shard index; expected a whole number 0..2"));
        assertEquals(
                "JOB_COMPLETION_INDEX/RUBIS_SHARD_COUNT 3/3: the index must be in 0..2 (shard I of N, 0-based)",
                error(
                        null,
                        null,
                        Map.of("JOB_COMPLETION_INDEX", "3", "RUBIS_SHARD_COUNT", "3", "RUBIS_START_AT", AHEAD),
                        c));
        assertEquals(
                "--shard 5/8 has no users (5 users over 8 shards): use at most 5 shards",
                error("5/8", AHEAD, Map.of(), config("workload_number_of_clients_per_node", "5")));
        assertTrue(error("0/2", AHEAD, Map.of(), config("client_target", "embedded"))
                .startsWith("--shard with the embedded target"));
        assertEquals(
                "--shard needs an explicit seed (--seed or client_seed): a random seed differs per process",
                error("0/2", AHEAD, Map.of(), config("client_seed", null)));
    }

    @Test
    void theConfigurationHashIgnoresWhereFilesAreAndWhereOutputGoesButNotWhatIsSent(@TempDir Path tmp)
            throws Exception {
        String h = config().configSha256();
        assertEquals(64, h.length());
        assertEquals(
                h,
                config("client_output_dir", "elsewhere", "client_progress", "no")
                        .configSha256());
        assertNotEquals(h, config("client_seed", "8").configSha256());
        assertNotEquals(h, config("workload_think_scale", "0.5").configSha256());
        Path a = Files.createDirectories(tmp.resolve("a")).resolve("regions.txt");
        Path b = Files.createDirectories(tmp.resolve("b")).resolve("regions.txt");
        Files.writeString(a, "Alabama\nAlaska\n");
        Files.writeString(b, "Alabama\nAlaska\n");
        String ha = config("database_regions_file", a.toString()).configSha256();
        assertEquals(
                ha, config("database_regions_file", b.toString()).configSha256(), "the same bytes at another path");
        Files.writeString(b, "Alabama\nArizona\n");
        assertNotEquals(ha, config("database_regions_file", b.toString()).configSha256(), "an edited file");
    }

    @Test
    void aShardStartingWhenReadyHasItsInstantOnlyOnceGivenAndTheChecksOfAnyShard() {
        Map<String, String> env = Map.of("RUBIS_START_AT", AHEAD, "HOSTNAME", "h");
        ShardPlan p = ShardPlan.resolveStartingWhenReady("1/3", env, config());
        assertEquals(new ShardPlan(1, 3, null, "h", true), p, "its parent gives the instant, not the environment");
        assertEquals(new ShardPlan(1, 3, Instant.parse(AHEAD), "h", true), p.startingAt(Instant.parse(AHEAD)));
        assertEquals(
                "--start-when-ready needs --shard I/N: it is how run --shards N starts its shards",
                assertThrows(ConfigException.class, () -> ShardPlan.resolveStartingWhenReady(null, env, config()))
                        .getMessage());
        assertEquals(
                "--shard 3/3: the index must be in 0..2 (shard I of N, 0-based)",
                assertThrows(ConfigException.class, () -> ShardPlan.resolveStartingWhenReady("3/3", env, config()))
                        .getMessage());
        assertTrue(assertThrows(
                        ConfigException.class,
                        () -> ShardPlan.resolveStartingWhenReady("0/2", env, config("client_seed", null)))
                .getMessage()
                .startsWith("--shard needs an explicit seed"));
    }

    /** {@code --start-at ready} (the Kubernetes Job's default, RUBIS_START_AT=ready): a shard whose instant comes later. */
    @Test
    void startAtReadyIsAShardWithoutAnInstantYetFromTheOptionOrTheEnvironment() {
        Map<String, String> job = Map.of(
                "JOB_COMPLETION_INDEX", "2", "RUBIS_SHARD_COUNT", "3", "RUBIS_START_AT", "ready", "HOSTNAME", "pod-2");
        assertEquals(new ShardPlan(2, 3, null, "pod-2", true), ShardPlan.resolve(null, null, job, config(), NOW));
        assertTrue(ShardPlan.startsWhenReady(null, job));
        assertEquals(new ShardPlan(1, 3, null, null, true), ShardPlan.resolve("1/3", "ready", Map.of(), config(), NOW));
        assertTrue(ShardPlan.startsWhenReady(" ready ", Map.of()));
        assertFalse(ShardPlan.startsWhenReady(AHEAD, job), "an option wins over the environment");
        assertEquals(
                "--start-at ready needs --shard I/N (or JOB_COMPLETION_INDEX and RUBIS_SHARD_COUNT): the shards of one "
                        + "run start together once all are ready",
                error(null, "ready", Map.of(), config()));
        assertEquals(
                "--shard 3/3: the index must be in 0..2 (shard I of N, 0-based)",
                error("3/3", "ready", Map.of(), config()));
    }
}
