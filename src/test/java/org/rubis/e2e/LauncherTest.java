package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launchers in bin/ as a user on a machine whose default {@code java} is 17: they find a Java 25+ where the build
 * looks (here the JDK running this test, the only one in the search list the tests give through RUBIS_JDK_DIRS), run
 * the jar with exec (signals and exit statuses pass through), and say in one line what is missing when there is no
 * JDK 25+ or no jar.
 */
class LauncherTest {

    private static final Path ROOT = Path.of(
                    System.getProperty("rubis.client.jar", "../../rubis-cli/target/rubis-client.jar"))
            .toAbsolutePath()
            .normalize()
            .getParent()
            .getParent()
            .getParent();

    @TempDir
    Path work;
    /** A directory holding only a {@code java} that says it is Java 17 and fails if it is asked to run anything. */
    private Path java17;
    /** The search list: one directory with a link to the JDK running this test. */
    private Path jdks;

    @BeforeEach
    void machine() throws IOException {
        java17 = Files.createDirectories(work.resolve("java17-bin"));
        Path fake = java17.resolve("java");
        Files.writeString(fake, """
                #!/bin/sh
                if [ "$1" = "-version" ]; then
                    echo 'openjdk version "17.0.15" 2025-04-15' >&2
                    exit 0
                fi
                echo "the Java 17 on PATH ran: $*" >&2
                exit 99
                """);
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
        jdks = Files.createDirectories(work.resolve("jdks"));
        Files.createSymbolicLink(jdks.resolve("test-jdk"), Path.of(System.getProperty("java.home")));
    }

    /** The launcher with PATH's java being 17, no JAVA_HOME, and {@code jdkDirs} as the search list. */
    private ProcessBuilder launcher(Path launcher, Path jdkDirs, String... args) {
        List<String> cmd = new ArrayList<>();
        if (Cli.sigintIgnored()) {
            cmd.addAll(List.of("env", "--default-signal=INT")); // as Cli.client: Ctrl-C must reach the run
        }
        cmd.add(launcher.toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(work.toFile());
        Map<String, String> env = pb.environment();
        env.remove("JAVA_HOME");
        env.put("PATH", java17 + ":/usr/bin:/bin");
        env.put("RUBIS_JDK_DIRS", jdkDirs.toString());
        return pb;
    }

    private Cli.Result run(ProcessBuilder pb) throws IOException, InterruptedException {
        Path out = Files.createTempFile(work, "out", ".txt");
        Path err = Files.createTempFile(work, "err", ".txt");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(pb.command() + " did not finish");
        }
        return new Cli.Result(
                p.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    /**
     * The jars themselves, run with a real Java 17's {@code java -jar} (Debian 12's default): each says in one line which
     * Java it needs (its manifest's Rubis-Java, the build's release) and what it found, and exits; the JMH jar too,
     * instead of listing the 2 benchmarks of 13 that an old JVM can load. Skipped without a JDK 17 under /usr/lib/jvm
     * (package openjdk-17-jre-headless); the JMH jar only when it is built (module jmh).
     */
    @Test
    void eachJarRunWithJava17SaysInOneLineWhatItNeeds() throws Exception {
        Path java17 = Path.of("/usr/lib/jvm/java-17-openjdk-amd64/bin/java");
        Assumptions.assumeTrue(Files.isExecutable(java17), "no Java 17 at " + java17 + " (openjdk-17-jre-headless)");
        Map<String, Integer> jars = new LinkedHashMap<>();
        jars.put("rubis-cli/target/rubis-client.jar", 64);
        jars.put("rubis-server/target/rubis-server.jar", 1);
        jars.put("rubis-analysis/target/rubis-analysis.jar", 1);
        if (Files.isRegularFile(ROOT.resolve("jmh/target/benchmarks.jar"))) {
            jars.put("jmh/target/benchmarks.jar", 1);
        }
        for (Map.Entry<String, Integer> jar : jars.entrySet()) {
            Path file = ROOT.resolve(jar.getKey());
            String release;
            try (JarFile j = new JarFile(file.toFile())) {
                release = j.getManifest().getMainAttributes().getValue("Rubis-Java");
            }
            assertTrue(release != null && release.matches("[0-9]+"), jar.getKey() + ": Rubis-Java " + release);
            Cli.Result r = run(
                    new ProcessBuilder(java17.toString(), "-jar", file.toString(), "--help").directory(work.toFile()));
            assertEquals(jar.getValue(), r.status(), r.err());
            assertEquals("", r.out(), jar.getKey());
            List<String> lines = r.err().lines().toList();
            assertEquals(1, lines.size(), r.err());
            assertTrue(
                    lines.get(0).contains(" needs Java " + release + "+ (found 17 at "),
                    jar.getKey() + ": " + lines.get(0));
        }
    }

    @Test
    void eachLauncherFindsAJava25AndRunsItsProgram() throws Exception {
        Cli.Result v = run(launcher(ROOT.resolve("bin/rubis-client"), jdks, "--version"));
        assertEquals(0, v.status(), v.err());
        assertEquals("rubis-client 0.1.0", v.out().strip());
        Cli.Result h = run(launcher(ROOT.resolve("bin/rubis-client"), jdks, "--help"));
        assertEquals(0, h.status(), h.err());
        assertTrue(h.out().startsWith("Usage: rubis-client") && h.out().contains("run"), h.out());
        Cli.Result server = run(launcher(ROOT.resolve("bin/rubis-server"), jdks, "--version"));
        assertEquals("rubis-server 0.1.0", server.out().strip(), server.err());
        // The program's own statuses pass through: rubis-analysis with no command is a usage error.
        Cli.Result analysis = run(launcher(ROOT.resolve("bin/rubis-analysis"), jdks));
        assertEquals(2, analysis.status(), analysis.err());
        assertTrue(analysis.err().startsWith("Usage: rubis-analysis"), analysis.err());
    }

    /**
     * A tiny run through the launcher: the process it started is the JVM itself (exec), so Ctrl-C's SIGINT reaches the
     * run, which stops cleanly with a partial summary and the partial status (130). The signal is sent once a request
     * has succeeded (its line in requests.csv): a run stopped before any did is failed, not partial. It reads only the
     * client's files: the shared server.
     */
    @Test
    void aRunThroughTheLauncherIsTheJvmItself() throws Exception {
        Path log = work.resolve("run.log");
        Process p = launcher(
                        ROOT.resolve("bin/rubis-client"),
                        jdks,
                        "run",
                        "--users",
                        "2",
                        "--ramp-up",
                        "0",
                        "--duration",
                        "60s",
                        "--ramp-down",
                        "0",
                        "--out",
                        "r",
                        "--target",
                        SharedServer.target())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (System.nanoTime() < deadline && !Files.readString(log).contains("Run: ") && p.isAlive()) {
                Thread.sleep(200);
            }
            assertTrue(Files.readString(log).contains("Run: "), Files.readString(log));
            Path requests = work.resolve("r/requests.csv");
            while (System.nanoTime() < deadline && !aRequestSucceeded(requests) && p.isAlive()) {
                Thread.sleep(100);
            }
            assertTrue(aRequestSucceeded(requests), "a request succeeded: " + Files.readString(log));
            String command = p.toHandle().info().command().orElse("");
            assertTrue(
                    command.startsWith(Path.of(System.getProperty("java.home"))
                            .toRealPath()
                            .toString()),
                    "the launcher's process became the JVM found: " + command);
            new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        } finally {
            p.destroyForcibly();
        }
        assertEquals(130, p.exitValue(), Files.readString(log));
        RunDir d = new RunDir(work.resolve("r"));
        assertEquals("partial", d.json("summary.json").get("status").asText());
    }

    /** Whether the run's requests.csv (flushed within about 200 ms of a record) has a request without an error. */
    private static boolean aRequestSucceeded(Path requests) throws IOException {
        if (!Files.isRegularFile(requests)) {
            return false;
        }
        List<String> lines = Files.readAllLines(requests);
        if (lines.isEmpty()) {
            return false;
        }
        List<String> header = List.of(lines.get(0).split(","));
        int error = header.indexOf("error");
        return lines.stream()
                .skip(1)
                .map(RunDir::split)
                .anyMatch(f -> f.size() == header.size() && f.get(error).isEmpty()); // a whole line
    }

    @Test
    void noJava25IsOneLineSayingHowToInstallOne() throws Exception {
        Path empty = Files.createDirectories(work.resolve("no-jdks"));
        Cli.Result r = run(launcher(ROOT.resolve("bin/rubis-client"), empty, "--version"));
        assertEquals(127, r.status(), r.err());
        assertEquals("", r.out());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(
                r.err()
                        .startsWith(
                                "rubis-client: no Java 25 or newer found (java on PATH is Java 17; no JDK 25+ under "
                                        + empty
                                        + "): install one (e.g. Temurin 25: apt-get install -y temurin-25-jdk from Adoptium's apt"
                                        + " repository, or its tarball under /opt/java) or set JAVA_HOME to one"),
                r.err());
        // A JAVA_HOME that is 17 is passed over the same way.
        ProcessBuilder pb = launcher(ROOT.resolve("bin/rubis-server"), empty, "--version");
        pb.environment().put("JAVA_HOME", work.toString());
        Files.createDirectories(work.resolve("bin"));
        Files.copy(java17.resolve("java"), work.resolve("bin/java"));
        Cli.Result home = run(pb);
        assertEquals(127, home.status(), home.err());
        assertTrue(home.err().contains("JAVA_HOME=" + work + " is Java 17; java on PATH is Java 17"), home.err());
        // A Java 21 (the baseline before java.lang.foreign was needed) is passed over too.
        Path home21 = Files.createDirectories(work.resolve("jdk21/bin"));
        Files.writeString(
                home21.resolve("java"),
                Files.readString(java17.resolve("java"))
                        .replace("17.0.15", "21.0.7")
                        .replace("Java 17", "Java 21"));
        Files.setPosixFilePermissions(home21.resolve("java"), PosixFilePermissions.fromString("rwxr-xr-x"));
        ProcessBuilder pb21 = launcher(ROOT.resolve("bin/rubis-client"), empty, "--version");
        pb21.environment().put("JAVA_HOME", home21.getParent().toString());
        Cli.Result old = run(pb21);
        assertEquals(127, old.status(), old.err());
        assertTrue(old.err().contains("JAVA_HOME=" + home21.getParent() + " is Java 21;"), old.err());
    }

    /** A launcher copied into a tree where its jar was not built says to build it. */
    @Test
    void aJarNotBuiltIsOneLineSayingHowToBuildIt() throws Exception {
        Path tree = Files.createDirectories(work.resolve("tree/bin"));
        for (String f : List.of("rubis-analysis", "find-java.sh")) {
            Files.copy(ROOT.resolve("bin").resolve(f), tree.resolve(f), StandardCopyOption.COPY_ATTRIBUTES);
        }
        Cli.Result r = run(launcher(tree.resolve("rubis-analysis"), jdks, "--version"));
        assertEquals(127, r.status(), r.err());
        assertEquals(
                "rubis-analysis: rubis-analysis/target/rubis-analysis.jar is not built: run mvn -B -DskipTests"
                        + " package in " + tree.getParent().toRealPath(),
                r.err().strip());
    }
}
