package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Run directories that several test classes read: a closed run against its own embedded server costs a client JVM, a
 * server JVM and the population of its database, so the classes that only read such a run (ClosedRunTest, AnalysisTest,
 * MergeTest, RunDirectoryTest) read one. Made on first use by whichever class comes first (classes run concurrently),
 * in {@code target/shared-runs}. The directory is never written: a class that writes into a run (report, merge, damaged
 * copies) works on its own {@link #copy}.
 */
final class SharedRuns {

    /** A finished run: its directory and what the client printed. */
    record Run(Path dir, Cli.Result result) {}

    private static Run closed;

    private SharedRuns() {}

    /**
     * The client's arguments for the closed run: the default backend (legacy), 25 users, ramp-up 1 s, 6 s run, ramp-down
     * 1 s, seed 4242, an embedded server of its own.
     */
    static String[] closedArgs(String out) {
        return new String[] {
            "run",
            "--users",
            "25",
            "--ramp-up",
            "1s",
            "--duration",
            "6s",
            "--ramp-down",
            "1s",
            "--think-scale",
            "0.03",
            "--seed",
            "4242",
            "--out",
            out,
            "--no-progress",
            "-Dserver_size=0.02",
            Cli.SMALL_SERVER
        };
    }

    /** The closed run of {@link #closedArgs}, made on first use; it exited 0. */
    static synchronized Run closed() throws IOException, InterruptedException {
        if (closed == null) {
            Path work = Path.of("target", "shared-runs").toAbsolutePath();
            delete(work); // the previous build's
            Files.createDirectories(work);
            Cli.Result r = Cli.run(work, 120, closedArgs("closed"));
            assertEquals(0, r.status(), r.out() + r.err());
            closed = new Run(work.resolve("closed"), r);
        }
        return closed;
    }

    /** A copy of a run directory at {@code to}, for a test that writes into it. */
    static Path copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target);
                }
            }
        }
        return to;
    }

    private static void delete(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            try (Stream<Path> old = Files.walk(dir)) {
                for (Path f : old.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(f);
                }
            }
        }
    }
}
