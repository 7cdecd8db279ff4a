package org.rubis.client.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run's directory is its own: runs started in the same second get different, newly created directories. */
class RunDirectoryClaimTest {

    @TempDir Path tmp;

    @Test
    void runsOfTheSameSecondGetDistinctNewDirectories() throws Exception {
        LocalDateTime now = LocalDateTime.of(2026, 11, 26, 9, 30, 5);
        Path runs = tmp.resolve("runs");
        int n = 8;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        List<Future<Path>> made = new ArrayList<>();
        try {
            Callable<Path> claim = () -> RunDirectoryClaim.createNew(runs, now);
            for (int i = 0; i < n; i++) {
                made.add(pool.submit(claim));
            }
            Set<Path> dirs = new HashSet<>();
            for (Future<Path> f : made) {
                Path d = f.get();
                assertTrue(Files.isDirectory(d), d + " exists");
                dirs.add(d);
            }
            assertEquals(n, dirs.size(), "every run got a directory of its own: " + dirs);
            assertTrue(dirs.contains(runs.resolve("20261126-093005")) && dirs.contains(runs.resolve("20261126-093005-" + n)),
                    "the first keeps the readable name, the others get -2, -3, ...: " + dirs);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aNameTakenByAnythingIsSkipped() throws Exception {
        LocalDateTime now = LocalDateTime.of(2026, 11, 26, 9, 30, 5);
        Path runs = Files.createDirectories(tmp.resolve("runs"));
        Files.writeString(runs.resolve("20261126-093005"), "a file, not a run");
        assertEquals(runs.resolve("20261126-093005-2"), RunDirectoryClaim.createNew(runs, now));
        assertEquals("a file, not a run", Files.readString(runs.resolve("20261126-093005")));
    }
}
