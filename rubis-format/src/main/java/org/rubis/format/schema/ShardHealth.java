package org.rubis.format.schema;

/**
 * A merged run's {@code client_health.shards[]}: one shard's own health section.
 */
public record ShardHealth(long index, ClientHealth clientHealth) {}
