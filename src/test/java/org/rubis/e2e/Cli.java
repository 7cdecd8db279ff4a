package org.rubis.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the packaged jars as a user would: a separate JVM, real arguments, exit status and output. */
final class Cli {

    record Result(int status, String out, String err) {}

    /** A run's embedded server with a 512 MB heap, compiling with C1 only ({@link #embeddedServerJit}). */
    static final String SMALL_SERVER = "-Dserver_java_options=-Xmx512m -XX:TieredStopAtLevel=1";

    /**
     * JVM options that keep a client's JIT as a user's (C1 and C2): for the classes that judge the client's speed, CPU,
     * timing or allocation (its verdict, its times against the wire, its heap per user, bench, the reproduction), which
     * would otherwise get {@link #QUICK_JIT}.
     */
    static final List<String> FULL_JIT = List.of("-XX:TieredStopAtLevel=4");

    /**
     * A client or analysis JVM the tests start compiles with C1 only unless the test names its own level
     * ({@link #FULL_JIT}): a short run's C2 compilations cost more CPU than they save (a 4 s run of 25 users against
     * a running server took 2.0 CPU-s instead of 2.75, and made more requests on a loaded host, 3 runs each), and the
     * suite starts some 150 client JVMs on two cores. The programs' behaviour does not depend on the JIT.
     */
    static final String QUICK_JIT = "-XX:TieredStopAtLevel=1";

    private Cli() {}

    /** {@code jvmOptions} with {@link #QUICK_JIT} first unless they name a compilation level of their own. */
    static List<String> jit(List<String> jvmOptions) {
        if (jvmOptions.stream().anyMatch(o -> o.startsWith("-XX:TieredStopAtLevel"))) {
            return jvmOptions;
        }
        List<String> all = new ArrayList<>(List.of(QUICK_JIT));
        all.addAll(jvmOptions);
        return all;
    }

    static String java() {
        return ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    static Path clientJar() {
        Path p = Path.of(System.getProperty("rubis.client.jar", "../../rubis-cli/target/rubis-client.jar"));
        if (!Files.isRegularFile(p)) {
            throw new IllegalStateException(p + " not built: run mvn verify from the top directory");
        }
        return p;
    }

    static Path analysisJar() {
        Path p = Path.of(System.getProperty("rubis.analysis.jar", "../../rubis-analysis/target/rubis-analysis.jar"));
        if (!Files.isRegularFile(p)) {
            throw new IllegalStateException(p + " not built: run mvn verify from the top directory");
        }
        return p;
    }

    static Path serverJar() {
        Path p = Path.of(System.getProperty("rubis.server.jar", "../../rubis-server/target/rubis-server.jar"));
        if (!Files.isRegularFile(p)) {
            throw new IllegalStateException(p + " not built: run mvn verify from the top directory");
        }
        return p;
    }

    static Result analysis(Path workDir, String... args) throws IOException, InterruptedException {
        List<String> cmd =
                new ArrayList<>(List.of(java(), QUICK_JIT, "-jar", analysisJar().toString()));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(workDir, "aout", ".txt");
        Path err = Files.createTempFile(workDir, "aerr", ".txt");
        Process p = new ProcessBuilder(cmd)
                .directory(workDir.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("rubis-analysis " + String.join(" ", args) + " did not finish");
        }
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    /**
     * The client as a user starts it from a terminal. A shell without job control (a script's {@code cmd &},
     * {@code nohup}) starts background commands with SIGINT ignored, the JVM keeps an inherited SIG_IGN for it, and
     * the Ctrl-C tests would then find a client that cannot be interrupted: in that case the child gets SIGINT's
     * default disposition back (coreutils' {@code env --default-signal}).
     */
    static ProcessBuilder client(Path workDir, String... args) {
        return client(workDir, List.of(), args);
    }

    /** {@link #client(Path, String...)} with options for its JVM (system properties of test hooks). */
    static ProcessBuilder client(Path workDir, List<String> jvmOptions, String... args) {
        List<String> cmd = new ArrayList<>();
        if (sigintIgnored()) {
            cmd.addAll(List.of("env", "--default-signal=INT"));
        }
        cmd.add(java());
        cmd.addAll(jit(jvmOptions));
        cmd.addAll(List.of("-jar", clientJar().toString()));
        cmd.addAll(List.of(args));
        cmd.addAll(embeddedServerJit(args));
        return new ProcessBuilder(cmd).directory(workDir.toFile());
    }

    /**
     * The embedded server of a {@code run} compiles with C1 only unless the test sets {@code server_java_options}:
     * it is ready after 1.5-1.8 CPU-s instead of 2.6-3.7 (C2 compiling H2's population while the test waits), and the
     * suite starts some 60 of them on two cores. No test here judges the embedded server's speed; those that drive it
     * hard (ScaleRunTest, VerdictRunTest) set their own options without it, those that only want a smaller heap use
     * {@link #SMALL_SERVER}, and runs against {@code --target} have no embedded server.
     */
    static List<String> embeddedServerJit(String... args) {
        List<String> all = List.of(args);
        boolean run = !all.isEmpty() && all.get(0).equals("run");
        boolean own = all.stream().anyMatch(a -> a.startsWith("-Dserver_java_options=") || a.startsWith("--target"));
        return run && !own ? List.of("-Dserver_java_options=-Xmx1g -XX:TieredStopAtLevel=1") : List.of();
    }

    /** Whether this process ignores SIGINT (inherited; /proc/self/status SigIgn, bit 1 for signal 2). */
    static boolean sigintIgnored() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("SigIgn:")) {
                    return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & (1L << 1)) != 0;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // no /proc: nothing to correct
        }
        return false;
    }

    static Result run(Path workDir, long timeoutSeconds, String... args) throws IOException, InterruptedException {
        return run(workDir, timeoutSeconds, List.of(), args);
    }

    /** {@link #run(Path, long, String...)} with options for the client's JVM (e.g. {@link #FULL_JIT}). */
    static Result run(Path workDir, long timeoutSeconds, List<String> jvmOptions, String... args)
            throws IOException, InterruptedException {
        Path out = Files.createTempFile(workDir, "out", ".txt");
        Path err = Files.createTempFile(workDir, "err", ".txt");
        Process p = client(workDir, jvmOptions, args)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("rubis-client " + String.join(" ", args) + " did not finish in " + timeoutSeconds
                    + " s; output:\n" + Files.readString(out) + Files.readString(err));
        }
        return new Result(
                p.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    /**
     * The command prefix that runs a program as an unprivileged user, so that file permissions apply (root may write
     * anywhere): {@code setpriv} to nobody when this process is root, nothing otherwise; null when root has no setpriv.
     */
    static List<String> unprivileged() {
        try {
            if ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid") != 0) {
                return List.of();
            }
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
        return Files.isExecutable(Path.of("/usr/bin/setpriv"))
                ? List.of("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups")
                : null;
    }

    /** A program run with {@code prefix} before its java command line (e.g. {@link #unprivileged()}), with its exit status and output. */
    static Result runWith(List<String> prefix, Path workDir, long timeoutSeconds, Path jar, String... args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.addAll(List.of(java(), QUICK_JIT, "-jar", jar.toAbsolutePath().toString()));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(workDir, "out", ".txt");
        Path err = Files.createTempFile(workDir, "err", ".txt");
        Process p = new ProcessBuilder(cmd)
                .directory(workDir.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", cmd) + " did not finish in " + timeoutSeconds + " s");
        }
        return new Result(
                p.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
