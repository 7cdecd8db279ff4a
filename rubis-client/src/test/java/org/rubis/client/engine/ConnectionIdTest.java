package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.rubis.client.config.ShardPlan;

/**
 * requests.csv's {@code connection_id}: the backend's serial of the connection, and in shard i of N its place among
 * every shard's, so that a merged run's ids still name one connection each.
 */
class ConnectionIdTest {

    private static Recorder recorder(ShardPlan shard) {
        return new Recorder(null, null, null, null, "netty", shard);
    }

    @Test
    void aSerialIsTheIdAndShardsKeepTheirsApart() {
        assertEquals("", recorder(ShardPlan.SINGLE).connectionId(0), "no connection");
        assertEquals("7", recorder(ShardPlan.SINGLE).connectionId(7));
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 3; i++) {
            Recorder r = recorder(new ShardPlan(i, 3, Instant.EPOCH, null, true));
            for (long serial = 1; serial <= 100; serial++) {
                assertEquals(true, ids.add(r.connectionId(serial)), "shard " + i + " serial " + serial);
            }
        }
        assertEquals(
                "1", recorder(new ShardPlan(0, 3, Instant.EPOCH, null, true)).connectionId(1));
        assertEquals(
                "6", recorder(new ShardPlan(2, 3, Instant.EPOCH, null, true)).connectionId(2));
    }
}
