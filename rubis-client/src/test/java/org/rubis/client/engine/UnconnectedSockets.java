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
 * nor connected, the only state a prepared socket ({@link org.rubis.client.backend.PreparingBackend#prepare}) can be in; how the
 * engine's tests see that a prepared socket is the one its request connects (its inode then in the TCP table), and that
 * none is left behind.
 */
final class UnconnectedSockets {

    private UnconnectedSockets() {}

    static int count() throws IOException {
        return inodes().size();
    }

    /** The inodes of the process's unconnected sockets (as {@code socket:[INODE]} names them in /proc/self/fd). */
    static Set<String> inodes() throws IOException {
        Set<String> inTables = new HashSet<>();
        inodes("/proc/net/tcp", 9, inTables);
        inodes("/proc/net/tcp6", 9, inTables);
        inodes("/proc/net/udp", 9, inTables);
        inodes("/proc/net/udp6", 9, inTables);
        inodes("/proc/net/unix", 6, inTables);
        Set<String> unconnected = new HashSet<>();
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
                        unconnected.add(inode);
                    }
                }
            }
        }
        return unconnected;
    }

    /** The inodes of the sockets in the kernel's TCP tables (bound, listening or connected: no longer unconnected). */
    static Set<String> tcpInodesNow() {
        Set<String> tcp = new HashSet<>();
        try {
            inodes("/proc/net/tcp", 9, tcp);
            inodes("/proc/net/tcp6", 9, tcp);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return tcp;
    }

    /** {@link #inodes}, where an I/O failure is the test's failure. */
    static Set<String> inodesNow() {
        try {
            return inodes();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
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
