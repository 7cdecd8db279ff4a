package org.rubis.client.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.rubis.client.input.ConfigException;

/**
 * Runs {@code rubis-client run} in a child JVM with the flags of a JVM profile (and, optionally, a
 * given java executable: the paper advises naming it exactly), with GC logging into the run
 * directory. The parent only waits: it forwards Ctrl-C (SIGTERM to the child) and returns the
 * child's exit status. The child stops by itself when the parent dies ({@link #CHILD}: even a
 * {@code kill -9} of the parent does not leave it loading the target).
 */
public final class ChildJvm {

    /**
     * The hidden option of {@code run} that says it runs for a parent rubis-client: its {@code --out} is the parent's
     * directory, which the parent made its own (run --jvm-profile, --shards, the experiments), and it stops, as a
     * Ctrl-C would stop it, when the parent exits or closes its standard input (org.rubis.format.ParentWatch).
     */
    public static final String CHILD = "--child";

    private ChildJvm() {}

    /** The java to use: {@code javaPath} if given (checked), else the one running this process. */
    public static String java(Path javaPath) {
        if (javaPath == null) {
            return EmbeddedServerProcess.javaExecutable();
        }
        if (!Files.isRegularFile(javaPath) || !Files.isExecutable(javaPath)) {
            throw new ConfigException("--java " + javaPath + ": not an executable file; give the path of a java binary, e.g. /usr/lib/jvm/temurin-25-jdk-amd64/bin/java");
        }
        return javaPath.toString();
    }

    /** The command line of the child: java, profile flags, GC log, the client jar and the run arguments. */
    public static List<String> command(String java, String profile, List<String> flags, Path runDir, List<String> runArgs) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(flags);
        cmd.add(gcLog(runDir.resolve("gc.log")));
        cmd.add("-Drubis.jvm.profile=" + profile);
        cmd.add("-jar");
        cmd.add(selfJar());
        cmd.add("run");
        cmd.add(CHILD); // the run directory is the parent's, the GC log already in it
        cmd.addAll(runArgs);
        cmd.add("--out");
        cmd.add(runDir.toString());
        return cmd;
    }

    /**
     * The child's GC logging option. -Xlog splits its argument at {@code :} and its output options at {@code ,}, so
     * the file name is quoted, as -Xlog allows, and a run directory with those characters works; -Xlog has no escape
     * for a double quote, so a path with one is refused in one line.
     */
    public static String gcLog(Path file) {
        String name = file.toString();
        if (name.indexOf('"') >= 0) {
            throw new ConfigException("--out " + file.getParent() + ": a double quote in the path cannot be given to the child JVM's GC log "
                    + "(-Xlog has no escape for it); choose a directory name without one");
        }
        return "-Xlog:gc*:file=\"" + name + "\":time,uptime,level,tags";
    }

    /** Starts the child with inherited standard streams and waits for it. */
    public static int run(List<String> cmd) throws IOException, InterruptedException {
        // Output shared; standard input a pipe only this process holds: its end, at any death of this process, stops the child.
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.INHERIT).redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        Thread hook = new Thread(() -> {
            if (p.isAlive()) {
                p.destroy(); // SIGTERM: the child stops its run cleanly
                try {
                    p.waitFor(90, TimeUnit.SECONDS);
                } catch (InterruptedException ignored) {
                    // exiting anyway
                }
            }
        }, "child-jvm-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        int status = p.waitFor();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running
        }
        return status;
    }

    /** The client jar this process runs from (further JVMs start it). */
    public static String selfJar() throws IOException {
        try {
            Path p = Path.of(ChildJvm.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (!Files.isRegularFile(p)) {
                throw new ConfigException("--jvm-profile needs rubis-client.jar (run java -jar rubis-client/target/rubis-client.jar)");
            }
            return p.toString();
        } catch (java.net.URISyntaxException e) {
            throw new IOException(e);
        }
    }

    /**
     * The original arguments of {@code run} without the options that select the child JVM and
     * without {@code --out} (the parent fixes the run directory).
     */
    public static List<String> runArgs(List<String> original, List<String> drop) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < original.size(); i++) {
            String a = original.get(i);
            String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            if (drop.contains(name)) {
                if (!a.contains("=")) {
                    i++; // skip the value
                }
                continue;
            }
            out.add(a);
        }
        return out;
    }
}
