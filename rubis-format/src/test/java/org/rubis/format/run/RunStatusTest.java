package org.rubis.format.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How shard statuses combine (docs/SHARDING.md), and the labels summary.json holds. */
class RunStatusTest {

    /** The precedence docs/SHARDING.md states, worst first. */
    private static final List<RunStatus> WORST_FIRST =
            List.of(RunStatus.TARGET_DIED, RunStatus.INVALID, RunStatus.FAILED, RunStatus.PARTIAL, RunStatus.COMPLETE);

    @Test
    void theWorseStatusWinsWhicheverComesFirst() {
        for (int i = 0; i < WORST_FIRST.size(); i++) {
            for (int j = i; j < WORST_FIRST.size(); j++) {
                RunStatus worse = WORST_FIRST.get(i);
                RunStatus milder = WORST_FIRST.get(j);
                assertEquals(worse, worse.worst(milder), worse + " and " + milder);
                assertEquals(worse, milder.worst(worse), milder + " and " + worse);
            }
        }
    }

    /** A shard that measured nothing is never hidden behind "partial" (as a merged run once said). */
    @Test
    void aMergedRunWithAFailedOrDeadShardIsNotAMeasurement() {
        assertEquals(
                RunStatus.FAILED, RunStatus.COMPLETE.worst(RunStatus.FAILED).worst(RunStatus.PARTIAL));
        assertEquals(
                RunStatus.TARGET_DIED,
                RunStatus.PARTIAL.worst(RunStatus.TARGET_DIED).worst(RunStatus.INVALID));
        assertFalse(RunStatus.FAILED.measured());
        assertFalse(RunStatus.TARGET_DIED.measured());
        assertTrue(RunStatus.PARTIAL.measured());
    }

    @Test
    void labelsAreTheFilesWordsAndParseBack() {
        assertEquals(
                List.of("complete", "partial", "failed", "invalid", "target-died"),
                Arrays.stream(RunStatus.values()).map(RunStatus::label).toList());
        for (RunStatus s : RunStatus.values()) {
            assertEquals(s, RunStatus.parse(s.label()));
        }
        assertNull(RunStatus.parse("stopped"));
        assertNull(RunStatus.parse(null));
    }
}
