package org.rubis.client.process;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.rubis.client.input.ConfigException;

/**
 * Runs {@code rubis-client run} in a child JVM ({@link ClientCommandLine}): with a JVM profile's flags and a given java
 * executable (the paper advises naming it exactly) for {@code run --jvm-profile}, as a shard, or as one run of an
 * experiment. The parent only waits: Ctrl-C in the parent stops the child cleanly (SIGTERM, and the child writes its
 * summary), and the child's exit status is returned.
 */
public final class ChildJvm {

    /**
     * The hidden option of {@code run} that says it runs for a parent rubis-client: its {@code --out} is the parent's
     * directory, which the parent made its own (run --jvm-profile, --shards, the experiments), and it stops, as a
     * Ctrl-C would stop it, when the parent exits or closes its standard input (org.rubis.format.io.ParentWatch).
     */
    public static final String CHILD = "--child";

    /** How long a stopped child has to write its summary before it is killed. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(90);

    private ChildJvm() {}

    /** The java to use: {@code javaPath} if given (checked), else the one running this process. */
    public static String java(Path javaPath) {
        if (javaPath == null) {
            return EmbeddedServerProcess.javaExecutable();
        }
        if (!Files.isRegularFile(javaPath) || !Files.isExecutable(javaPath)) {
            throw new ConfigException("--java " + javaPath + ": not an executable file; give the path of a java "
                    + "binary, e.g. /usr/lib/jvm/temurin-25-jdk-amd64/bin/java");
        }
        return javaPath.toString();
    }

    /**
     * Runs the child with this process's standard output and error and waits for it. Its standard input is a pipe only
     * this process holds: its end, at any death of this process (even {@code kill -9}), stops the child.
     */
    public static int run(ClientCommandLine line) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(line.command())
                .redirectOutput(ProcessBuilder.Redirect.INHERIT)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        return await(p, null);
    }

    /**
     * The child's GC logging option. -Xlog splits its argument at {@code :} and its output options at {@code ,}, so
     * the file name is quoted, as -Xlog allows, and a run directory with those characters works; -Xlog has no escape
     * for a double quote, so a path with one is refused in one line.
     */
    public static String gcLog(Path file) {
        String name = file.toString();
        if (name.indexOf('"') >= 0) {
            throw new ConfigException(
                    "--out " + file.getParent() + ": a double quote in the path cannot be given to the"
                            + " child JVM's GC log (-Xlog has no escape for it); choose a directory name without one");
        }
        return "-Xlog:gc*:file=\"" + name + "\":time,uptime,level,tags";
    }

    /** Starts the child with its output (standard output and error) in {@code output}, or discarded when null. */
    public static Process start(ClientCommandLine line, Path output) throws IOException {
        ProcessBuilder b = new ProcessBuilder(line.command()).redirectErrorStream(true);
        b.redirectOutput(
                output == null ? ProcessBuilder.Redirect.DISCARD : ProcessBuilder.Redirect.to(output.toFile()));
        return b.start();
    }

    /**
     * Runs the child with its output in {@code output} (null: discarded) and waits for it, at most {@code limit} (null:
     * no limit; past it the child is stopped as by Ctrl-C). Returns its exit status.
     */
    public static int run(ClientCommandLine line, Path output, Duration limit)
            throws IOException, InterruptedException {
        return await(start(line, output), limit);
    }

    /**
     * Waits for the child; stops it (SIGTERM, then SIGKILL after a grace period) past {@code limit} or on Ctrl-C here.
     */
    private static int await(Process p, Duration limit) throws InterruptedException {
        Thread hook = new Thread(() -> stop(p), "child-jvm-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            if (limit == null) {
                return p.waitFor();
            }
            if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                stop(p);
            }
            return p.waitFor();
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running
            }
        }
    }

    private static void stop(Process p) {
        if (!p.isAlive()) {
            return;
        }
        p.destroy(); // SIGTERM: the child stops its run cleanly and writes its summary
        try {
            if (!p.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** The client jar this process runs from (further JVMs start it). */
    static String selfJar() {
        try {
            Path p = Path.of(ChildJvm.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            if (!Files.isRegularFile(p)) {
                throw new ConfigException(
                        "a child JVM needs rubis-client.jar (run java -jar " + "rubis-cli/target/rubis-client.jar)");
            }
            return p.toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("the client jar's location: " + e, e);
        }
    }
}
