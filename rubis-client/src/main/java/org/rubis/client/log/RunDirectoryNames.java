package org.rubis.client.log;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.rubis.format.run.RunFiles;

/**
 * What a run directory may hold (docs/RUN-DIRECTORY.md): the names {@code run --force} may delete. A directory with
 * anything else in it is not a previous run's, and is never emptied.
 */
final class RunDirectoryNames {

    /** Files and directories at the top of a run directory, as run, run --shards, --jvm-profile and report write them. */
    static final Set<String> NAMES = Set.of(
            RunFiles.REQUESTS,
            RunFiles.SESSIONS,
            RunFiles.CLIENT_HEALTH,
            RunFiles.CLIENT_GC,
            RunFiles.SUMMARY_JSON,
            RunFiles.SUMMARY_TXT,
            RunFiles.CLIENT_LOG,
            RunFiles.SERVER_DIR,
            RunFiles.CAPTURE_PCAP,
            RunFiles.CAPTURE_STATS,
            RunFiles.WIRE_CSV,
            "wire-connections.csv",
            RunFiles.PROBE_CSV,
            RunFiles.HEAP_HISTOGRAM_BEFORE,
            RunFiles.HEAP_HISTOGRAM_USERS,
            RunFiles.HEAP_HISTOGRAM_IDLE,
            "end-of-run-stall.txt",
            "end-of-run-threads.txt",
            "gc.log",
            "shards",
            "console.txt",
            "report.html",
            "analysis.json",
            "response-times.hlog");
    /** Shard directories (run --shards), the JVM's rotated GC logs, and the temporary files of an interrupted atomic write. */
    private static final Pattern PATTERNS = Pattern.compile("shard-[0-9]+|gc\\.log\\.[0-9]+|\\..+\\.tmp");

    private RunDirectoryNames() {}

    static boolean isRunName(String name) {
        return NAMES.contains(name) || PATTERNS.matcher(name).matches();
    }

    /** The name of some entry of {@code dir}, or null when it is empty. */
    static String firstEntry(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().findFirst().orElse(null);
        }
    }

    /** The first entry of {@code dir} that no run writes, or null when there is none. */
    static String firstForeign(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString())
                    .filter(n -> !isRunName(n))
                    .sorted()
                    .findFirst()
                    .orElse(null);
        }
    }

    /**
     * Deletes everything inside {@code dir}, keeping {@code dir}. Symbolic links are deleted as links: the walk does
     * not follow them, so nothing outside {@code dir} is read or deleted.
     */
    static void deleteContents(Path dir) throws IOException {
        Path root = dir.toRealPath(); // --out itself may be a link the user chose; nothing below it is followed
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                if (e != null) {
                    throw e;
                }
                if (!d.equals(root)) {
                    Files.delete(d);
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
