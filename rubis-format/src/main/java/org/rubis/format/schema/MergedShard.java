package org.rubis.format.schema;

import org.rubis.format.run.RunStatus;

/**
 * One of {@code merged.shards}: a shard as the merge found it.
 */
public record MergedShard(
        long index,
        String dir,
        RunStatus status,
        long requests,
        long anchorEpochNs,
        long runStartEpochNs,
        double startOffsetMs,
        String host,
        Jvm jvm) {}
