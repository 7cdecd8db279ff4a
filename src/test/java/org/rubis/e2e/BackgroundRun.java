package org.rubis.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A client run started now and awaited later, so that the independent runs of a class go side by side instead of one
 * after another: most of a run is waiting (JVM start, the server's population, calibration, its phases), and a class's
 * wall is the sum of its runs when they go in turn. Started as {@link Cli#run} starts one ({@link Cli#client}).
 */
final class BackgroundRun {

    private final Process process;
    private final Path out;
    private final Path err;
    private final String command;

    private BackgroundRun(Process process, Path out, Path err, String command) {
        this.process = process;
        this.out = out;
        this.err = err;
        this.command = command;
    }

    /** Starts {@code rubis-client args} in {@code workDir}, its output in temporary files there. */
    static BackgroundRun start(Path workDir, String... args) throws IOException {
        Path out = Files.createTempFile(workDir, "out", ".txt");
        Path err = Files.createTempFile(workDir, "err", ".txt");
        Process p = Cli.client(workDir, args)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        return new BackgroundRun(p, out, err, "rubis-client " + String.join(" ", args));
    }

    /** Starts every run of {@code runs} at once, then waits for each; the results in the same order. */
    static List<Cli.Result> all(Path workDir, long timeoutSeconds, List<String[]> runs)
            throws IOException, InterruptedException {
        List<BackgroundRun> started = new ArrayList<>();
        try {
            for (String[] args : runs) {
                started.add(start(workDir, args));
            }
            List<Cli.Result> results = new ArrayList<>();
            for (BackgroundRun r : started) {
                results.add(r.await(timeoutSeconds));
            }
            return results;
        } finally {
            started.forEach(BackgroundRun::stop);
        }
    }

    /** The run's exit status and output once it has ended; fails, killing it, after {@code timeoutSeconds} more. */
    Cli.Result await(long timeoutSeconds) throws IOException, InterruptedException {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(command + " did not finish in " + timeoutSeconds + " s; output:\n"
                    + Files.readString(out) + Files.readString(err));
        }
        return new Cli.Result(
                process.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    /** Kills the run if it is still going (a test that failed before awaiting it). */
    void stop() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
