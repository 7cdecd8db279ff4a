package org.rubis.lab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.client.input.ConfigException;
import org.rubis.format.run.RunStatus;
import picocli.CommandLine;

/**
 * {@code bench soak}'s exit statuses mean one thing each: a run too short to be judged exited 2, as a failed run did,
 * after running to its end; it is now refused before it starts (64), and 2 means only "no judgment".
 */
class SoakBenchTest {

    @TempDir
    Path tmp;

    @Test
    void aRunTooShortToJudgeIsRefusedBeforeItStarts() throws Exception {
        SoakBench soak = new SoakBench();
        new CommandLine(soak).parseArgs("--duration", "2m", "--users", "10", "--out", tmp.toString());
        ConfigException e = assertThrows(ConfigException.class, soak::call);
        assertEquals(
                "bench soak --duration 2m: the trend is judged after the up ramp and a minute of warm-up (65 s) on 3 "
                        + "one-minute points, so the up ramp and the run need 240 s; give --duration 235s or more",
                e.getMessage());
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(0, left.count(), "nothing was run");
        }
    }

    @Test
    void theShortestRunItAcceptsLeavesEverySeriesItsPoints() {
        // The points are one-minute bins from the end of the warm-up on: the minimum reaches MIN_POINTS of them.
        double skip = 65;
        double needed = SoakTrend.minimumRunSeconds(skip);
        long bins = (long) Math.floor((needed - 1) / 60) - (long) Math.floor(skip / 60) + 1;
        assertTrue(bins >= SoakTrend.MIN_POINTS, "bins " + bins);
    }

    @Test
    void eachExitStatusMeansOneThing() {
        assertEquals(SoakBench.FLAT, SoakBench.status(RunStatus.COMPLETE, true, true));
        assertEquals(SoakBench.GROWING, SoakBench.status(RunStatus.COMPLETE, true, false));
        assertEquals(SoakBench.NO_JUDGMENT, SoakBench.status(RunStatus.COMPLETE, false, true), "too few points");
        assertEquals(SoakBench.NO_JUDGMENT, SoakBench.status(RunStatus.PARTIAL, true, false), "a growth in a cut run");
        assertEquals(SoakBench.NO_JUDGMENT, SoakBench.status(RunStatus.INVALID, true, true));
        assertEquals(SoakBench.NO_JUDGMENT, SoakBench.status(null, true, true), "a status this client does not know");
    }
}
