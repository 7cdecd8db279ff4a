package org.rubis.client.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.rubis.client.cli.ExitStatus;
import org.junit.jupiter.api.Test;

/** A merged sharded run that did not complete exits as one run with its status would (a failed one once exited 130). */
class MergedExitStatusTest {

    @Test
    void everyStatusButCompleteExitsAsASingleRunWould() {
        for (String status : new String[] {"partial", "invalid", "failed", "target-died"}) {
            assertEquals(ExitStatus.of(status), LocalShards.exitStatusOf(status), status);
        }
    }
}
