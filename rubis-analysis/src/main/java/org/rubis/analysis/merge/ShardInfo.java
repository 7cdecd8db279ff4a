package org.rubis.analysis.merge;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.Arrays;
import org.rubis.analysis.io.AnalysisException;
import org.rubis.analysis.io.RunDirectory;
import org.rubis.format.run.RunStatus;

/**
 * What one shard's summary.json says about its place in a sharded run (docs/SHARDING.md): the
 * fields {@code merge} checks before it trusts that the directories are pieces of one workload.
 *
 * @param dir            the shard's run directory
 * @param index          shard index I (0-based)
 * @param count          shard count N
 * @param seed           the run seed
 * @param configSha256   hash of the effective configuration, equal on every shard of one run
 * @param arrivals       {@code closed} or {@code hybrid}: how sessions were assigned to shards
 * @param startAtEpochNs the start instant every shard was given
 * @param anchorEpochNs  the wall-clock reading taken with the shard's nanoTime origin
 * @param runStartEpochNs the run's t = 0 on the shard's clock (its schedule origin)
 * @param status         how the shard's run ended ({@code partial} when its summary names no status)
 * @param summary        the whole summary, for the counts merge cross-checks
 */
public record ShardInfo(
        RunDirectory dir,
        int index,
        int count,
        long seed,
        String configSha256,
        String arrivals,
        long startAtEpochNs,
        long anchorEpochNs,
        long runStartEpochNs,
        RunStatus status,
        JsonNode summary) {

    /** Reads and checks a shard directory; every problem is one line naming the directory and the fix. */
    public static ShardInfo read(Path path) {
        RunDirectory d = new RunDirectory(path);
        JsonNode s = d.summary();
        if (s == null) {
            throw new AnalysisException(path + ": summary.json is "
                    + (d.summaryProblem() != null
                            ? "unreadable (" + d.summaryProblem() + ")"
                            : "missing (the shard was killed before its end)")
                    + "; re-run the whole sharded run: merge needs every shard's summary");
        }
        if (s.has("merged")) {
            throw new AnalysisException(
                    path + ": this is already a merged run; pass the shard directories it was merged from");
        }
        JsonNode shard = s.get("shard");
        if (shard == null || !shard.isObject()) {
            throw new AnalysisException(path
                    + ": not a shard (summary.json has no \"shard\" object); merge takes the directories of one run "
                    + "started with run --shard I/N, one per shard");
        }
        int index = intField(path, shard, "index", "shard.index");
        int count = intField(path, shard, "count", "shard.count");
        if (count < 1 || index < 0 || index >= count) {
            throw new AnalysisException(path + ": summary.json says shard " + index + " of " + count
                    + "; the index must be in 0.." + (count - 1));
        }
        String sha = text(path, s, "config_sha256");
        String arrivals = text(path, s, "arrivals");
        if (!arrivals.equals("closed") && !arrivals.equals("hybrid")) {
            throw new AnalysisException(
                    path + ": summary.json has arrivals \"" + arrivals + "\"; expected closed or hybrid");
        }
        JsonNode clock = s.path("clock");
        long startAt = longField(path, shard, "start_at_epoch_ns", "shard.start_at_epoch_ns");
        long anchor = longField(path, clock, "anchor_epoch_ns", "clock.anchor_epoch_ns");
        long runStart = clock.has("run_start_epoch_ns")
                ? longField(path, clock, "run_start_epoch_ns", "clock.run_start_epoch_ns")
                : anchor;
        return new ShardInfo(
                d,
                index,
                count,
                longField(path, s, "seed", "seed"),
                sha,
                arrivals,
                startAt,
                anchor,
                runStart,
                status(path, s),
                s);
    }

    /** The shard a session belongs to under the contract: closed by emulated user, hybrid by arrival number. */
    public int shardOf(long sessionId, long emulatedUser) {
        long key = arrivals.equals("closed") ? emulatedUser : sessionId;
        return (int) Math.floorMod(key, (long) count);
    }

    /** The shard's status; one without any is taken as stopped early, one this merge does not know is refused. */
    private static RunStatus status(Path p, JsonNode s) {
        if (!s.hasNonNull("status")) {
            return RunStatus.PARTIAL;
        }
        RunStatus status = RunStatus.parse(s.get("status").asText());
        if (status == null) {
            throw new AnalysisException(p + ": summary.json has status \""
                    + s.get("status").asText() + "\"; expected one of "
                    + Arrays.stream(RunStatus.values()).map(RunStatus::label).toList()
                    + " (a newer rubis-client? merge with its own analysis)");
        }
        return status;
    }

    private static String text(Path p, JsonNode n, String key) {
        JsonNode v = n.get(key);
        if (v == null || !v.isTextual() || v.asText().isEmpty()) {
            throw new AnalysisException(p + ": summary.json lacks \"" + key
                    + "\" (written by run --shard); was this shard run by an older rubis-client?");
        }
        return v.asText();
    }

    private static long longField(Path p, JsonNode n, String key, String name) {
        JsonNode v = n.get(key);
        if (v == null || !v.canConvertToLong() || !v.isIntegralNumber()) {
            throw new AnalysisException(p + ": summary.json lacks the whole number \"" + name
                    + "\" (written by run --shard); was this shard run by " + "an older rubis-client?");
        }
        return v.asLong();
    }

    private static int intField(Path p, JsonNode n, String key, String name) {
        long v = longField(p, n, key, name);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new AnalysisException(p + ": summary.json \"" + name + "\" = " + v + " is out of range");
        }
        return (int) v;
    }
}
