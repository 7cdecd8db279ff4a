package org.rubis.lab.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Against --target each run of a reproduction gets a seed of its own, the same in every reproduction. */
class TargetSeedTest {

    @Test
    void eachRunAgainstATargetHasASeedOfItsOwnAndTheSameEveryTime() {
        List<String[]> runs = List.of(
                new String[] {"connection-sharing", "legacy-100"},
                new String[] {"connection-sharing", "dedicated-100"},
                new String[] {"error-vs-load", "legacy-10"},
                new String[] {"error-vs-load", "legacy-20"},
                new String[] {"ms-timers", "run"});
        Set<Long> seeds = new HashSet<>();
        for (String[] r : runs) {
            seeds.add(Lab.targetSeed(r[0], r[1], 1L));
            assertEquals(Lab.targetSeed(r[0], r[1], 1L), Lab.targetSeed(r[0], r[1], null));
        }
        assertEquals(runs.size(), seeds.size());
    }
}
