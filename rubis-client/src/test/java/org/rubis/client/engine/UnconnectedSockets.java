package org.rubis.client.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Counts the process's sockets that are in no kernel socket table (TCP, UDP, Unix): TCP sockets created, never bound
 * nor connected, the only state a prepared socket ({@link org.rubis.client.backend.Backend#prepare}) can be in; how the
 * engine's tests see that a prepared socket is the one its request connects, and that none is left behind.
 */
final class UnconnectedSockets {

    private UnconnectedSockets() {}

    static int count() throws IOException {
        Set<String> inTables = new HashSet<>();
        inodes("/proc/net/tcp", 9, inTables);
        inodes("/proc/net/tcp6", 9, inTables);
        inodes("/proc/net/udp", 9, inTables);
        inodes("/proc/net/udp6", 9, inTables);
        inodes("/proc/net/unix", 6, inTables);
        int n = 0;
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                String link;
                try {
                    link = Files.readSymbolicLink(fd).toString();
                } catch (IOException e) {
                    continue; // closed meanwhile (the listing's own descriptor)
                }
                if (link.startsWith("socket:[")) {
                    String inode = link.substring(8, link.length() - 1);
                    if (!inTables.contains(inode)) {
                        n++;
                    }
                }
            }
        }
        return n;
    }

    /** {@link #count}, where an I/O failure is the test's failure. */
    static int countNow() {
        try {
            return count();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Adds the inode column ({@code column}, from 0) of each socket in a /proc/net table. */
    private static void inodes(String table, int column, Set<String> into) throws IOException {
        Path p = Path.of(table);
        if (!Files.exists(p)) {
            return;
        }
        List<String> lines = Files.readAllLines(p);
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.trim().split("\\s+");
            if (f.length > column) {
                into.add(f[column]);
            }
        }
    }
}
