package org.rubis.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Class data sharing for the client JVMs the tests start (about a hundred): a JVM that maps an archive of the client's
 * classes instead of loading and verifying each from the jar starts on less CPU (a 2 s run: 1.55 instead of 1.9
 * CPU-s, 0.2 s sooner, measured with {@code /usr/bin/time}). The archive is made once per test JVM, in the background,
 * by a short run against the {@link SharedServer} ({@code -XX:ArchiveClassesAtExit}); runs started before it is
 * ready start without it. It is written under a temporary name and renamed once whole, and the JVM's {@code cds} log
 * is off: a missing, stale or unusable archive is then only slower, never an extra line in the output tests read.
 * Nothing here changes what a run does: the same classes, from a memory-mapped copy.
 */
final class SharedClasses {

    private static final Path DIR = Path.of("target", "cds").toAbsolutePath();
    private static final Path ARCHIVE = DIR.resolve("rubis-client.jsa");
    private static final String QUIET = "-Xlog:cds*=off";
    private static boolean started;
    private static volatile boolean ready;

    private SharedClasses() {}

    /** The options of a client JVM: the archive once it is made (its making starts on the first call). */
    static List<String> options() {
        synchronized (SharedClasses.class) {
            if (!started) {
                started = true;
                Thread.ofPlatform().daemon().name("cds-archive").start(SharedClasses::make);
            }
        }
        return ready ? List.of(QUIET, "-XX:SharedArchiveFile=" + ARCHIVE) : List.of();
    }

    private static void make() {
        try {
            Files.createDirectories(DIR);
            Files.deleteIfExists(ARCHIVE); // a previous build's, made from another jar
            Path partial = DIR.resolve("rubis-client.jsa.part");
            Files.deleteIfExists(partial);
            Path work = Files.createTempDirectory(DIR, "run");
            Process p = new ProcessBuilder(
                            Cli.java(),
                            QUIET,
                            "-XX:ArchiveClassesAtExit=" + partial,
                            "-jar",
                            Cli.clientJar().toString(), // as Cli.client names it: the archive records the path
                            "run",
                            "--target",
                            SharedServer.target(),
                            "--users",
                            "2",
                            "--duration",
                            "1s",
                            "--ramp-up",
                            "0",
                            "--ramp-down",
                            "0",
                            "--think-scale",
                            "0.05",
                            "--jit-warmup",
                            "off",
                            "--no-progress",
                            "--out",
                            work.resolve("run").toString())
                    .redirectOutput(work.resolve("out.txt").toFile())
                    .redirectError(work.resolve("err.txt").toFile())
                    .start();
            if (p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0 && Files.size(partial) > 0) {
                Files.move(partial, ARCHIVE, StandardCopyOption.ATOMIC_MOVE);
                ready = true;
            } else {
                p.destroyForcibly();
            }
        } catch (IOException | RuntimeException e) {
            // no archive: the client JVMs start as they would without it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
