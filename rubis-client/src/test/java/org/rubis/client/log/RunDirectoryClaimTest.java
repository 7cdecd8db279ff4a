package org.rubis.client.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
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
import org.rubis.client.input.ConfigException;

/**
 * A run's directory is its own: runs started in the same second get different, newly created directories; a given one
 * must be new or empty, --force empties only a previous run's, and no file is written or deleted through a link.
 */
class RunDirectoryClaimTest {

    @TempDir
    Path tmp;

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
            assertTrue(
                    dirs.contains(runs.resolve("20261126-093005"))
                            && dirs.contains(runs.resolve("20261126-093005-" + n)),
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

    @Test
    void aGivenDirectoryIsCreatedOrMustBeEmpty() throws Exception {
        Path fresh = tmp.resolve("a/b/run");
        assertEquals(fresh, RunDirectoryClaim.claim(fresh, false));
        assertTrue(Files.isDirectory(fresh));
        assertEquals(fresh, RunDirectoryClaim.claim(fresh, false), "an empty directory is taken as it is");
        Files.writeString(fresh.resolve("summary.json"), "{}");
        ConfigException e = assertThrows(ConfigException.class, () -> RunDirectoryClaim.claim(fresh, false));
        assertEquals(
                "--out " + fresh
                        + ": not empty (summary.json is there); a run writes only into a new or empty directory: give another "
                        + "--out, or add --force to delete the previous run's files in it",
                e.getMessage());
        assertEquals("{}", Files.readString(fresh.resolve("summary.json")), "nothing deleted without --force");
    }

    private static int exec(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor(20, java.util.concurrent.TimeUnit.SECONDS) ? p.exitValue() : -1;
    }

    /**
     * A disk with less free space than the logs' reserve (a 200 KiB tmpfs): one line before the run, and nothing left
     * on it; the reserve's own failure (the disk filled after the claim) leaves no part of it behind either. The run
     * ended in exit 3, a stack trace, no summary and a partial .disk-reserve.tmp.
     */
    @Test
    void aDiskWithoutRoomForTheReserveIsOneLineBeforeTheRun() throws Exception {
        Path disk = Files.createDirectories(tmp.resolve("disk"));
        boolean mounted = exec("mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", disk.toString()) == 0;
        org.junit.jupiter.api.Assumptions.assumeTrue(
                mounted, "skipped: cannot mount a 200 KiB tmpfs here (needs root and CAP_SYS_ADMIN)");
        try {
            Path out = disk.resolve("run");
            ConfigException e = assertThrows(ConfigException.class, () -> RunDirectoryClaim.claim(out, false));
            assertTrue(e.getMessage().startsWith("--out " + out + ": "), e.getMessage());
            assertTrue(
                    e.getMessage().contains("KiB free on its disk, less than the 576 KiB a run needs"), e.getMessage());
            assertEquals(-1, e.getMessage().indexOf('\n'));
            ConfigException r = assertThrows(ConfigException.class, () -> new RunLog(out, x -> {}, x -> {}));
            assertTrue(
                    r.getMessage().contains("no room for the 512 KiB the logs keep for the summary"), r.getMessage());
            assertFalse(
                    Files.exists(out.resolve(org.rubis.format.run.RunFiles.DISK_RESERVE)),
                    "no part of the reserve left");
        } finally {
            exec("umount", disk.toString());
        }
    }

    /** A link to nothing is named as such, not "a file". */
    @Test
    void aDanglingLinkIsNamedAsALink() throws Exception {
        Path link = Files.createSymbolicLink(tmp.resolve("out"), tmp.resolve("gone"));
        ConfigException e = assertThrows(ConfigException.class, () -> RunDirectoryClaim.claim(link, false));
        assertEquals(
                "--out " + link + ": a symbolic link to " + tmp.resolve("gone")
                        + ", which does not exist; give a new or empty directory, or make the link's target first",
                e.getMessage());
    }

    /** --force deletes a previous run's files, and the links among them as links: their targets outside stay as they were. */
    @Test
    void forceEmptiesAPreviousRunWithoutFollowingItsLinks() throws Exception {
        Path victim = Files.writeString(tmp.resolve("victim.txt"), "precious");
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("keep.txt"), "keep");
        Path run = Files.createDirectories(tmp.resolve("run"));
        Files.writeString(run.resolve("summary.json"), "{}");
        Files.createDirectories(run.resolve("shard-0/server"));
        Files.writeString(run.resolve("shard-0/server/requests.csv"), "x");
        Files.writeString(run.resolve(".summary.json.tmp"), "half");
        Files.createSymbolicLink(run.resolve("requests.csv"), victim);
        Files.createSymbolicLink(run.resolve("server"), outside);
        assertEquals(run, RunDirectoryClaim.claim(run, true));
        try (var s = Files.list(run)) {
            assertEquals(0, s.count(), "emptied");
        }
        assertEquals("precious", Files.readString(victim));
        assertEquals("keep", Files.readString(outside.resolve("keep.txt")));
    }

    @Test
    void forceNeverEmptiesADirectoryThatIsNotARunsAlone() throws Exception {
        Path home = Files.createDirectories(tmp.resolve("home"));
        Files.writeString(home.resolve("requests.csv"), "old");
        Files.writeString(home.resolve("thesis.tex"), "years of work");
        ConfigException e = assertThrows(ConfigException.class, () -> RunDirectoryClaim.claim(home, true));
        assertEquals(
                "--out " + home
                        + ": holds thesis.tex, which no run writes; --force deletes only a previous run's files: give another --out",
                e.getMessage());
        assertEquals("years of work", Files.readString(home.resolve("thesis.tex")));
        assertEquals("old", Files.readString(home.resolve("requests.csv")), "nothing deleted");
    }

    /** The logs are opened without following a link planted in the directory: its target is not overwritten. */
    @Test
    void theRunLogNeverWritesThroughALink() throws Exception {
        Path victim = Files.writeString(tmp.resolve("victim.txt"), "precious");
        Path run = Files.createDirectories(tmp.resolve("run"));
        Files.createSymbolicLink(run.resolve("requests.csv"), victim);
        IOException e = assertThrows(IOException.class, () -> new RunLog(run, r -> {}, s -> {}).close());
        assertTrue(e.getMessage().contains("requests.csv is a symbolic link"), e.getMessage());
        assertEquals("precious", Files.readString(victim));
    }
}
