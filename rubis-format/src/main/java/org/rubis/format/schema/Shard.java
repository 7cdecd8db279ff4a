package org.rubis.format.schema;

/**
 * summary.json {@code shard}: which shard of a sharded run wrote it (docs/SHARDING.md).
 */
public record Shard(long index, long count, String startAt, long startAtEpochNs, String host) {}
