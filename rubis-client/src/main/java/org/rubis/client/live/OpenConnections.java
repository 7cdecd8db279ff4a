package org.rubis.client.live;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * The client's established TCP connections to the target's port, counted from the kernel's tables once a second (the
 * sockets of {@code /proc/self/net/tcp} and {@code tcp6} in state established whose remote port is the target's, and
 * whose inode is one of this process's file descriptors): the connections actually open, whichever backend holds them,
 * with nothing added to the request path. Linux only; elsewhere unknown.
 */
final class OpenConnections {

    private static final String ESTABLISHED = "01";
    private final int port;
    private final Path proc;

    OpenConnections(int port) {
        this(port, Path.of("/proc/self"));
    }

    /** Tests: another process's directory (its tables and descriptors). */
    OpenConnections(int port, Path proc) {
        this.port = port;
        this.proc = proc;
    }

    /** The count now, or -1 when the tables cannot be read. */
    long count() {
        Set<String> inodes = new HashSet<>();
        boolean read = established(proc.resolve("net/tcp"), inodes) | established(proc.resolve("net/tcp6"), inodes);
        if (!read) {
            return -1;
        }
        if (inodes.isEmpty()) {
            return 0;
        }
        long n = 0;
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(proc.resolve("fd"))) {
            for (Path fd : fds) {
                String link;
                try {
                    link = Files.readSymbolicLink(fd).toString();
                } catch (IOException | UnsupportedOperationException e) {
                    continue; // closed meanwhile
                }
                if (link.startsWith("socket:[") && inodes.contains(link.substring(8, link.length() - 1))) {
                    n++;
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return n;
    }

    /** Adds the inodes of the table's established sockets whose remote port is the target's; false if unreadable. */
    private boolean established(Path table, Set<String> inodes) {
        try (BufferedReader r = Files.newBufferedReader(table, StandardCharsets.US_ASCII)) {
            r.readLine(); // the header
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 10 || !ESTABLISHED.equals(f[3])) {
                    continue;
                }
                int colon = f[2].lastIndexOf(':');
                if (colon > 0 && Integer.parseInt(f[2].substring(colon + 1), 16) == port) {
                    inodes.add(f[9]);
                }
            }
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
