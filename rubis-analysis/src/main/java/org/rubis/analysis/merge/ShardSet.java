package org.rubis.analysis.merge;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.rubis.analysis.io.AnalysisException;
import org.rubis.format.run.RunFiles;

/**
 * The shards of one run, checked to belong together: same seed, same configuration, same start
 * instant, same shard count, each index at most once. Sorted by index. A shard may be missing (its
 * pod was lost: a Kubernetes Job's other shards go on) or given without a summary (killed before its
 * end): the merge is then of the shards that ran, and says which are missing.
 */
public final class ShardSet {

    private final List<ShardInfo> shards;
    private final List<Integer> missingIndices;
    private final List<String> missing;

    private ShardSet(List<ShardInfo> shards, List<Integer> missingIndices, List<String> missing) {
        this.shards = shards;
        this.missingIndices = missingIndices;
        this.missing = missing;
    }

    public static ShardSet of(List<Path> dirs) {
        if (dirs.isEmpty()) {
            throw new AnalysisException(
                    "merge: no shard directories given; pass every shard's run directory, e.g. results/shard-*");
        }
        List<ShardInfo> list = new ArrayList<>();
        List<Path> killed = new ArrayList<>();
        for (Path d : dirs) {
            if (Files.isRegularFile(d.resolve(RunFiles.REQUESTS)) && !Files.exists(d.resolve(RunFiles.SUMMARY_JSON))) {
                killed.add(d); // its logs hold no summary to check them against: left out, and said so
            } else {
                list.add(ShardInfo.read(d));
            }
        }
        if (list.isEmpty()) {
            ShardInfo.read(killed.get(0)); // the one-line error of a shard without summary.json
        }
        ShardInfo first = list.get(0);
        ShardInfo[] byIndex = new ShardInfo[first.count()];
        for (ShardInfo s : list) {
            Path p = s.dir().dir();
            Path f = first.dir().dir();
            if (s.seed() != first.seed()) {
                throw new AnalysisException(p + ": seed " + s.seed() + " differs from " + f + " (seed " + first.seed()
                        + "): these are not shards of one run; give every shard the same --seed");
            }
            if (!s.configSha256().equals(first.configSha256())) {
                throw new AnalysisException(p + ": its configuration (config_sha256 " + abbrev(s.configSha256())
                        + ") differs from " + f + " (" + abbrev(first.configSha256())
                        + "); run every shard with the same properties and options");
            }
            if (!s.arrivals().equals(first.arrivals())) {
                throw new AnalysisException(p + ": arrivals " + s.arrivals() + " differ from " + f + " ("
                        + first.arrivals() + "); run every shard with the same workload");
            }
            if (s.count() != first.count()) {
                throw new AnalysisException(p + ": shard " + s.index() + " of " + s.count() + ", but " + f
                        + " is shard " + first.index() + " of " + first.count() + "; merge the shards of one run only");
            }
            if (s.startAtEpochNs() != first.startAtEpochNs()) {
                throw new AnalysisException(p + ": start instant "
                        + s.summary().path("shard").path("start_at").asText() + " differs from " + f + " ("
                        + first.summary().path("shard").path("start_at").asText()
                        + "); these shards were not started as one run (same --start-at)");
            }
            ShardInfo dup = byIndex[s.index()];
            if (dup != null) {
                throw new AnalysisException(p + ": shard index " + s.index() + " is also "
                        + dup.dir().dir() + "; pass each shard's directory once");
            }
            byIndex[s.index()] = s;
        }
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < byIndex.length; i++) {
            if (byIndex[i] == null) {
                missing.add(i);
            }
        }
        List<String> lost = new ArrayList<>();
        for (int i : missing) {
            lost.add("shard " + i + " of " + first.count() + ": missing ("
                    + (killed.isEmpty()
                            ? "no directory given"
                            : "no summary.json in " + killed + ": killed before its end")
                    + "; its requests are not in this run)");
        }
        return new ShardSet(
                Arrays.stream(byIndex).filter(x -> x != null).toList(), List.copyOf(missing), List.copyOf(lost));
    }

    private static String abbrev(String sha) {
        return sha.length() > 12 ? sha.substring(0, 12) : sha;
    }

    /** Shards in index order. */
    public List<ShardInfo> shards() {
        return shards;
    }

    /** The shards that did not run to a summary, each said in words (index, why); empty when every shard is here. */
    public List<String> missing() {
        return missing;
    }

    /** The indices of {@link #missing}. */
    public List<Integer> missingIndices() {
        return missingIndices;
    }

    public ShardInfo first() {
        return shards.get(0);
    }
}
