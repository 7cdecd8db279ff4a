package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run writes only into a directory of its own (docs/RUN-DIRECTORY.md, "Which directory"). */
@Order(1) // among the longest classes: starts first (src/test/pom.xml, testclass.order)
class RunDirectoryTest {

    @TempDir
    Path work;

    /** A run of 2 users for 2 s, then {@code more}: against an embedded server of its own unless they give --target. */
    private static List<String> shortRun(String... more) {
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--users",
                "2",
                "--ramp-up",
                "0",
                "--duration",
                "2s",
                "--ramp-down",
                "0",
                "--think-scale",
                "0.05",
                "--no-progress",
                "-Dserver_size=0.01"));
        args.addAll(List.of(more));
        return args;
    }

    /** Two runs started together in one folder, no --out: two directories, each run's logs and ground truth in its own. */
    @Test
    void twoRunsStartedTogetherGetTwoDirectories() throws Exception {
        List<Process> runs = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            runs.add(Cli.client(work, shortRun().toArray(String[]::new))
                    .redirectErrorStream(true)
                    .redirectOutput(work.resolve("run" + i + ".txt").toFile())
                    .start());
        }
        for (int i = 0; i < 2; i++) {
            assertTrue(runs.get(i).waitFor(120, TimeUnit.SECONDS), "run " + i + " ended");
            assertEquals(0, runs.get(i).exitValue(), Files.readString(work.resolve("run" + i + ".txt")));
        }
        List<Path> dirs;
        try (Stream<Path> s = Files.list(work.resolve("runs"))) {
            dirs = s.sorted().toList();
        }
        assertEquals(2, dirs.size(), "one directory per run: " + dirs);
        for (Path d : dirs) {
            RunDir r = new RunDir(d);
            int client = r.csv("requests.csv").size();
            int server = r.csv("server/requests.csv").size();
            assertTrue(client > 0, d + ": the run sent requests");
            assertEquals(client, server, d + ": its server's ground truth holds this run's requests, no other's");
            assertEquals(client, r.json("summary.json").path("requests").asInt(), d + ": the summary is this run's");
        }
    }

    /**
     * An --out holding a previous run is refused in one line; --force empties it first, and the link planted in it is deleted,
     * its target outside never written. The same through a child JVM (--jvm-profile), whose GC log the parent's claim allows.
     * The forced runs read only the client's files (the shared server): the previous run's server/requests.csv is gone.
     */
    @Test
    void aNonEmptyOutIsRefusedAndForceEmptiesItWithoutFollowingLinks() throws Exception {
        Path victim = Files.writeString(work.resolve("victim.txt"), "precious");
        for (String profile : List.of("", "default")) {
            Path out = Files.createDirectories(work.resolve("old" + profile));
            Files.writeString(out.resolve("summary.json"), "{\"status\": \"complete\"}");
            Files.createDirectories(out.resolve("server"));
            Files.writeString(out.resolve("server/requests.csv"), "stale");
            Files.createSymbolicLink(out.resolve("requests.csv"), victim);
            List<String> args = shortRun("--out", out.toString(), "--target", SharedServer.target());
            if (!profile.isEmpty()) {
                args.addAll(List.of("--jvm-profile", profile));
            }
            Cli.Result refused = Cli.run(work, 60, args.toArray(String[]::new));
            assertEquals(64, refused.status(), refused.out() + refused.err());
            assertEquals(
                    "error: --out " + out
                            + ": not empty (.. is there); a run writes only into a new or empty directory: give another --out,"
                                    .replace("..", "requests.csv")
                            + " or add --force to delete the previous run's files in it",
                    refused.err().strip());
            assertEquals("stale", Files.readString(out.resolve("server/requests.csv")), "nothing touched");
            args.add("--force");
            Cli.Result forced = Cli.run(work, 120, args.toArray(String[]::new));
            assertEquals(0, forced.status(), forced.out() + forced.err());
            assertEquals("precious", Files.readString(victim), "the link's target was not written");
            assertTrue(!Files.isSymbolicLink(out.resolve("requests.csv")), "requests.csv is the run's own file");
            assertTrue(new RunDir(out).csv("requests.csv").size() > 0, "the run's own log");
            assertTrue(!Files.exists(out.resolve("server/requests.csv")), "the previous run's server log is gone");
            assertEquals(
                    profile.isEmpty(),
                    !Files.exists(out.resolve("gc.log")),
                    "a child JVM's GC log is in its run directory");
        }
    }

    /**
     * An output that cannot be written is one line, no stack trace: run's --out a file, under a file, in a read-only
     * folder (exit 64); rubis-analysis compare --out a directory, report on a read-only run directory (exit 1).
     */
    @Test
    void anOutputThatCannotBeWrittenIsOneLine() throws Exception {
        Files.writeString(work.resolve("afile"), "not a directory");
        Cli.Result file = Cli.run(work, 60, "run", "--duration", "1s", "--out", "afile");
        assertOneLine(64, "error: --out afile: a file, not a directory; give a new or empty directory", file);
        Cli.Result under = Cli.run(work, 60, "run", "--duration", "1s", "--out", "afile/run");
        assertOneLine(
                64,
                "error: --out afile/run: " + work.resolve("afile")
                        + ": a file is in the way; give a new or empty directory this " + "user may write",
                under);
        SharedRuns.copy(SharedRuns.closed().dir(), work.resolve("done")); // a real run, written below
        Files.createDirectories(work.resolve("cmp"));
        Cli.Result cmp = Cli.analysis(work, "compare", "done", "done", "--out", "cmp");
        assertOneLine(1, "error: --out cmp: a directory; give a file name, e.g. cmp/comparison.html", cmp);

        List<String> nobody = Cli.unprivileged();
        Assumptions.assumeTrue(nobody != null, "root without setpriv: permissions cannot be tested");
        Files.setPosixFilePermissions(
                work, PosixFilePermissions.fromString("rwxrwxrwx")); // the unprivileged user may enter
        Path ro = Files.createDirectories(work.resolve("ro"));
        Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-xr-xr-x"));
        Cli.Result denied =
                Cli.runWith(nobody, work, 60, Cli.clientJar(), "run", "--duration", "1s", "--out", "ro/run");
        assertOneLine(
                64,
                "error: --out ro/run: permission denied; give a new or empty directory this user " + "may write",
                denied);
        Cli.Result noRuns = Cli.runWith(nobody, ro, 60, Cli.clientJar(), "run", "--duration", "1s");
        assertOneLine(
                64,
                "error: cannot create a run directory in runs: permission denied; run from a folder this user may write, or "
                        + "give --out DIR",
                noRuns);
        try (var walk = Files.walk(work.resolve("done"))) {
            for (Path p : walk.toList()) {
                Files.setPosixFilePermissions(
                        p, PosixFilePermissions.fromString(Files.isDirectory(p) ? "r-xr-xr-x" : "r--r--r--"));
            }
        }
        Cli.Result report = Cli.runWith(nobody, work, 120, Cli.analysisJar(), "report", "done");
        assertOneLine(
                1,
                "error: cannot write done/report.html: permission denied (" + work.resolve("done")
                        + " is not writable); give --out " + "FILE.html in a folder this user may write",
                report);
        Path elsewhere = Files.createDirectories(work.resolve("elsewhere"));
        Files.setPosixFilePermissions(elsewhere, PosixFilePermissions.fromString("rwxrwxrwx"));
        Cli.Result ok =
                Cli.runWith(nobody, work, 120, Cli.analysisJar(), "report", "done", "--out", "elsewhere/r.html");
        assertEquals(0, ok.status(), ok.out() + ok.err());
        assertTrue(
                Files.isRegularFile(elsewhere.resolve("analysis.json"))
                        && Files.isRegularFile(elsewhere.resolve("response-times.hlog")),
                "everything the report writes is beside it");
    }

    private static void assertOneLine(int status, String line, Cli.Result r) {
        assertEquals(status, r.status(), r.out() + r.err());
        assertEquals(line, r.err().strip(), "one line, no stack trace");
    }
}
