package org.rubis.client.config;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import org.rubis.client.input.ConfigException;

/**
 * Which part of the global workload this process runs, and when the run's t = 0 is (docs/SHARDING.md).
 * Shard {@code index} of {@code count} owns closed-mode user {@code u} and hybrid arrival {@code k}
 * when {@code u mod count == index} (resp. {@code k}); everything else about a session stays a
 * function of the run seed, so N shards send what one process sends. Built once, checked against
 * the loaded configuration, before anything is sent.
 *
 * @param index   this shard, 0-based
 * @param count   shards in the run (1: not sharded)
 * @param startAt the run's t = 0 on the wall clock, or null to start at once (a shard of run --shards N: until its
 *                parent gives it)
 * @param host    the host name recorded in the summary (a pod's {@code HOSTNAME}), or null
 * @param shard   started with {@code --shard} (even 0/1): the summary carries the fields merge needs
 */
public record ShardPlan(int index, int count, Instant startAt, String host, boolean shard) {

    /** One process, starting at once. */
    public static final ShardPlan SINGLE = new ShardPlan(0, 1, null, null, false);

    /**
     * {@code --start-at ready} (or {@code RUBIS_START_AT=ready}): the shards start together as soon as every one is
     * ready, shard 0 giving the instant over their directories on a shared volume (process/StartHandshake).
     */
    public static final String READY = "ready";

    /** Whether the start instant given ({@code --start-at}, else RUBIS_START_AT) is {@link #READY}. */
    public static boolean startsWhenReady(String startAt, Map<String, String> env) {
        return READY.equals(startAt != null ? startAt.strip() : blankToNull(env.get("RUBIS_START_AT")));
    }

    /** More than a day ahead is almost always a typo. */
    static final Duration MAX_AHEAD = Duration.ofHours(24);

    /** True when this shard runs closed-mode user {@code u} or hybrid arrival {@code k}. */
    public boolean owns(long k) {
        return Math.floorMod(k, (long) count) == index;
    }

    /** This shard's part of a global concurrency cap {@code c}: c / N, plus one for the first c mod N shards. */
    public int capShare(int c) {
        return c == 0 ? 0 : c / count + (index < c % count ? 1 : 0);
    }

    /**
     * The plan from the options, else the environment (an option always wins), checked against the
     * configuration. {@code shard} and {@code startAt} are the option values or null.
     */
    public static ShardPlan resolve(
            String shard, String startAt, Map<String, String> env, ClientConfig c, Instant now) {
        String shardText = shard;
        String shardName = "--shard " + shard;
        if (shardText == null) {
            String index = env.get("JOB_COMPLETION_INDEX");
            String count = env.get("RUBIS_SHARD_COUNT");
            if (count != null && !count.isBlank()) {
                if (index == null || !index.strip().matches("\\d{1,9}")) {
                    throw new ConfigException("JOB_COMPLETION_INDEX = \"" + (index == null ? "" : index)
                            + "\" is not a shard index; expected a whole number 0.."
                            + (count.strip().matches("\\d{1,9}")
                                    ? String.valueOf(Integer.parseInt(count.strip()) - 1)
                                    : "N-1")
                            + " (RUBIS_SHARD_COUNT = " + count.strip() + " asks for a sharded run)");
                }
                shardText = index.strip() + "/" + count.strip();
                shardName = "JOB_COMPLETION_INDEX/RUBIS_SHARD_COUNT " + shardText;
            }
        }
        String startText = startAt != null ? startAt : blankToNull(env.get("RUBIS_START_AT"));
        String startName = startAt != null ? "--start-at " + startAt : "RUBIS_START_AT " + startText;
        if (startText != null && READY.equals(startText.strip())) {
            if (shardText == null) {
                throw new ConfigException(startName + " needs --shard I/N (or JOB_COMPLETION_INDEX and "
                        + "RUBIS_SHARD_COUNT): the shards of one run start together once all are ready");
            }
            return checkedShard(shardName, shardText, null, env, c); // its instant comes from shard 0
        }
        Instant start = startText == null ? null : instant(startName, startText, now);
        if (shardText == null) {
            return start == null ? SINGLE : new ShardPlan(0, 1, start, null, false);
        }
        if (start == null) {
            indexAndCount(shardName, shardText); // a malformed --shard first
            throw new ConfigException(
                    "--shard needs --start-at (or RUBIS_START_AT): every shard must start at the same instant");
        }
        return checkedShard(shardName, shardText, start, env, c);
    }

    /**
     * A shard of {@code run --shards N} whose parent gives the start instant once every shard is ready
     * (process/StartHandshake): the plan has no instant until then ({@link #startingAt}); RUBIS_START_AT is not read.
     */
    public static ShardPlan resolveStartingWhenReady(String shard, Map<String, String> env, ClientConfig c) {
        if (shard == null) {
            throw new ConfigException(
                    "--start-when-ready needs --shard I/N: it is how run --shards N starts its shards");
        }
        return checkedShard("--shard " + shard, shard, null, env, c);
    }

    /** This plan with its start instant, once given. */
    public ShardPlan startingAt(Instant instant) {
        return new ShardPlan(index, count, instant, host, shard);
    }

    private static ShardPlan checkedShard(
            String shardName, String shardText, Instant start, Map<String, String> env, ClientConfig c) {
        int[] in = indexAndCount(shardName, shardText);
        if (!c.seedGiven()) {
            throw new ConfigException(
                    "--shard needs an explicit seed (--seed or client_seed): a random seed differs per process");
        }
        if (c.embedded()) {
            throw new ConfigException(
                    "--shard with the embedded target would give each shard its own server; give every shard the same --target URL "
                            + "(run --shards N shares one embedded server)");
        }
        if (c.arrivals() == Arrivals.CLOSED && in[1] > c.users()) {
            throw new ConfigException(shardName + " has no users (" + c.users() + " users over " + in[1]
                    + " shards): use at most " + c.users() + " shards");
        }
        String host = blankToNull(env.get("HOSTNAME"));
        return new ShardPlan(in[0], in[1], start, host, true);
    }

    /** {@code I/N} with 0 <= I < N. */
    static int[] indexAndCount(String name, String text) {
        String[] p = text.strip().split("/", -1);
        if (p.length != 2 || !p[0].matches("\\d{1,9}") || !p[1].matches("\\d{1,9}") || Integer.parseInt(p[1]) == 0) {
            throw new ConfigException(name + ": expected I/N with 0 <= I < N, e.g. --shard 0/4");
        }
        int i = Integer.parseInt(p[0]);
        int n = Integer.parseInt(p[1]);
        if (i >= n) {
            throw new ConfigException(name + ": the index must be in 0.." + (n - 1) + " (shard I of N, 0-based)");
        }
        return new int[] {i, n};
    }

    /** An ISO-8601 instant or epoch milliseconds, in the future but less than a day ahead. */
    static Instant instant(String name, String text, Instant now) {
        Instant t;
        try {
            t = text.strip().matches("\\d{1,15}")
                    ? Instant.ofEpochMilli(Long.parseLong(text.strip()))
                    : Instant.parse(text.strip());
        } catch (DateTimeParseException e) {
            throw new ConfigException(
                    name + ": expected an ISO-8601 instant (2026-11-22T06:00:00Z) or epoch milliseconds");
        }
        if (!t.isAfter(now)) {
            double s = Duration.between(t, now).toNanos() / 1e9;
            throw new ConfigException(String.format(
                    Locale.ROOT,
                    "%s is %.1f s in the past (now %s); give the same instant a few minutes ahead to every shard",
                    name,
                    s,
                    now));
        }
        if (Duration.between(now, t).compareTo(MAX_AHEAD) > 0) {
            throw new ConfigException(name + " is more than 24 h ahead (now " + now + "); check the date");
        }
        return t;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
