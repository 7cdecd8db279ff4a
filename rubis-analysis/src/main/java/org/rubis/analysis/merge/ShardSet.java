package org.rubis.analysis.merge;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.rubis.analysis.io.AnalysisException;

/**
 * The shards of one run, checked to belong together: same seed, same configuration, same start
 * instant, same shard count, each index exactly once. Sorted by index.
 */
public final class ShardSet {

    private final List<ShardInfo> shards;

    private ShardSet(List<ShardInfo> shards) {
        this.shards = shards;
    }

    public static ShardSet of(List<Path> dirs) {
        if (dirs.isEmpty()) {
            throw new AnalysisException(
                    "merge: no shard directories given; pass every shard's run directory, e.g. results/shard-*");
        }
        List<ShardInfo> list = new ArrayList<>();
        for (Path d : dirs) {
            list.add(ShardInfo.read(d));
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
        if (!missing.isEmpty()) {
            throw new AnalysisException("merge: shard" + (missing.size() > 1 ? "s " : " ") + missing + " of "
                    + first.count() + " missing (given: "
                    + list.stream()
                            .sorted(Comparator.comparingInt(ShardInfo::index))
                            .map(x -> x.index() + "=" + x.dir().dir())
                            .toList()
                    + "); pass every shard's directory");
        }
        return new ShardSet(List.of(byIndex));
    }

    private static String abbrev(String sha) {
        return sha.length() > 12 ? sha.substring(0, 12) : sha;
    }

    /** Shards in index order. */
    public List<ShardInfo> shards() {
        return shards;
    }

    public ShardInfo first() {
        return shards.get(0);
    }
}
