package org.rubis.client.cli;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ShardPlan;
import org.rubis.client.process.ClientCommandLine;
import org.rubis.client.shard.LocalShards;

/**
 * {@code run --shards N}: N child JVMs on this host, started together, their run directories merged into this one;
 * the children get the user's arguments with the shard wiring in place of --shards.
 */
final class InLocalShards {

    private InLocalShards() {}

    /** The merged run's exit status (its assertions are checked by the caller, on the merged summary). */
    static int run(ClientConfig c, int shards, String startAt, ClientCommandLine child, Path dir, String metricsGiven)
            throws Exception {
        Instant start = startAt == null
                ? null
                : ShardPlan.resolve(null, startAt, Map.of(), c, Instant.now()).startAt();
        LocalShards local = new LocalShards(c, shards, dir, System.out);
        try (LiveView live = LiveView.startShards(c.measurement().metrics(), metricsGiven, shards, System.out)) {
            if (live != null) {
                live.watchShards(local, shards, dir);
            }
            int status = local.run(child, start);
            if (live != null) {
                live.shardsFinished(dir, status);
            }
            return status;
        }
    }
}
