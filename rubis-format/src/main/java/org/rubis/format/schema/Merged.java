package org.rubis.format.schema;

import java.util.List;

/**
 * summary.json {@code merged}: a merged run's shards, their anchors and start offsets.
 */
public record Merged(
        long shardCount,
        List<String> missingShards,
        String startAt,
        long startAtEpochNs,
        List<MergedShard> shards,
        double runStartSpreadMs) {}
