package org.rubis.client.live;

/**
 * What the live page reads: one run's intervals ({@link LiveRun}), or the sum of a sharded run's ({@link ShardsFeed}).
 */
public interface LiveFeed {

    /**
     * The feed as JSON (docs/LIVE.md): the run's state, its intervals from number {@code from} on, the run phase's
     * figures so far and, once written, the summary.
     *
     * @param histograms whether each interval carries its histograms (for a view that sums shards)
     */
    String json(long from, boolean histograms);
}
