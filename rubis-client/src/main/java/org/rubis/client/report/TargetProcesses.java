package org.rubis.client.report;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.rubis.client.config.TargetProcessSpec;

/**
 * The processes of a target on this host, found from Linux's {@code /proc}: the one listening on the target's port
 * ({@code /proc/net/tcp} and {@code tcp6} give the listening socket's inode, {@code /proc/PID/fd} the process holding
 * it), those the user named ({@link TargetProcessSpec}), and all their descendants (php-cgi's children, Apache's
 * workers). Their CPU is the server's: with the server on the client's host (the usual small lab), calling it other
 * processes' load blamed the HOST for the target's own work. One {@code /proc/PID/stat} read per process a second
 * gives each process's name, parent and CPU together.
 */
final class TargetProcesses {

    /** Linux's USER_HZ: {@code /proc/PID/stat} times are in these ticks. */
    private static final long NS_PER_TICK = 10_000_000L;

    private final Set<Long> listeners;
    private final TargetProcessSpec spec;
    private final long self;
    /** CPU ticks of each process of the set at the last sample. */
    private Map<Long, Long> lastTicks = new HashMap<>();

    private String lastWords = "";

    private TargetProcesses(Set<Long> listeners, TargetProcessSpec spec) {
        this.listeners = listeners;
        this.spec = spec;
        this.self = ProcessHandle.current().pid();
    }

    /**
     * The target's processes: those listening on the URL's port when its host is this machine, plus {@code spec}'s;
     * null when there are none to watch (a remote target and nothing named, or no {@code /proc}).
     */
    static TargetProcesses of(String target, TargetProcessSpec spec) {
        Set<Long> listeners = new HashSet<>();
        try {
            URI u = URI.create(target);
            if (u.getHost() != null && local(u.getHost())) {
                int port = u.getPort() >= 0 ? u.getPort() : "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
                listeners.addAll(listening(port));
            }
        } catch (IllegalArgumentException e) {
            // not a URL (embedded): nothing listens for it yet
        }
        listeners.remove(ProcessHandle.current().pid());
        if (listeners.isEmpty() && spec.isEmpty()) {
            return null;
        }
        TargetProcesses t = new TargetProcesses(Set.copyOf(listeners), spec);
        t.sample(); // the first readings, to take differences from
        return t;
    }

    /** True for a loopback address or one of this machine's interfaces. */
    private static boolean local(String host) {
        try {
            InetAddress a = InetAddress.getByName(host);
            return a.isLoopbackAddress() || a.isAnyLocalAddress() || NetworkInterface.getByInetAddress(a) != null;
        } catch (UnknownHostException | java.net.SocketException e) {
            return false;
        }
    }

    /** The processes holding a socket that listens on {@code port} (IPv4 or IPv6). */
    static Set<Long> listening(int port) {
        Set<String> inodes = new HashSet<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            try {
                for (String line : Files.readAllLines(Path.of(table))) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length < 10 || !f[3].equals("0A")) { // 0A: TCP_LISTEN
                        continue;
                    }
                    String local = f[1];
                    int colon = local.lastIndexOf(':');
                    if (colon > 0 && Integer.parseInt(local.substring(colon + 1), 16) == port) {
                        inodes.add("socket:[" + f[9] + "]");
                    }
                }
            } catch (IOException | RuntimeException e) {
                // no such table (no IPv6) or no /proc
            }
        }
        Set<Long> pids = new HashSet<>();
        if (inodes.isEmpty()) {
            return pids;
        }
        for (long pid : pids()) {
            try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "fd"))) {
                for (Path fd : fds) {
                    try {
                        if (inodes.contains(Files.readSymbolicLink(fd).toString())) {
                            pids.add(pid);
                            break;
                        }
                    } catch (IOException e) {
                        // closed meanwhile
                    }
                }
            } catch (IOException | RuntimeException e) {
                // another user's process, or ended
            }
        }
        return pids;
    }

    private static List<Long> pids() {
        List<Long> pids = new ArrayList<>();
        try (DirectoryStream<Path> proc = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path p : proc) {
                pids.add(Long.parseLong(p.getFileName().toString()));
            }
        } catch (IOException | RuntimeException e) {
            // no /proc
        }
        return pids;
    }

    /** One process's line of /proc/PID/stat: name, parent, CPU ticks. */
    private record Stat(String name, long parent, long ticks) {}

    private static Stat stat(long pid) {
        try {
            String s = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            int open = s.indexOf('(');
            int close = s.lastIndexOf(')');
            String[] f = s.substring(close + 2).split(" ");
            // after the name: state ppid ... utime(14) stime(15): index 1 is ppid, 11 and 12 the times
            return new Stat(
                    s.substring(open + 1, close), Long.parseLong(f[1]), Long.parseLong(f[11]) + Long.parseLong(f[12]));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The set's CPU since the last call, in ns: each process's ticks minus its last reading (a process new since then
     * counts all its ticks), or 0 at the first call.
     */
    long sample() {
        Map<Long, Stat> all = new HashMap<>();
        for (long pid : pids()) {
            Stat st = stat(pid);
            if (st != null) {
                all.put(pid, st);
            }
        }
        Set<Long> roots = new HashSet<>(listeners);
        all.forEach((pid, st) -> {
            if (spec.names().contains(st.name())) {
                roots.add(pid);
            }
        });
        if (spec.cgroup() != null) {
            try {
                for (String line : Files.readAllLines(spec.cgroup().resolve("cgroup.procs"))) {
                    if (!line.isBlank()) {
                        roots.add(Long.parseLong(line.strip()));
                    }
                }
            } catch (IOException | RuntimeException e) {
                // the cgroup went away
            }
        }
        roots.remove(self);
        Set<Long> members = new HashSet<>();
        for (long pid : all.keySet()) {
            for (long p = pid, hops = 0;
                    p > 1 && hops < 64;
                    p = all.containsKey(p) ? all.get(p).parent() : 0, hops++) {
                if (roots.contains(p)) {
                    members.add(pid);
                    break;
                }
            }
        }
        members.remove(self);
        long ns = 0;
        Map<Long, Long> ticks = new HashMap<>();
        Map<String, List<Long>> byName = new TreeMap<>();
        for (long pid : members) {
            Stat st = all.get(pid);
            ticks.put(pid, st.ticks());
            Long before = lastTicks.get(pid);
            ns += (st.ticks() - (before == null ? 0 : before)) * NS_PER_TICK;
            byName.computeIfAbsent(st.name(), k -> new ArrayList<>()).add(pid);
        }
        boolean first = lastTicks.isEmpty() && lastWords.isEmpty();
        lastTicks = ticks;
        StringBuilder w = new StringBuilder();
        byName.forEach((name, p) -> w.append(w.isEmpty() ? "" : ", ")
                .append(name)
                .append(p.size() > 1 ? " x" + p.size() : " (pid " + p.getFirst() + ")"));
        lastWords = w.isEmpty() ? "none found" : w.toString();
        return first ? 0 : Math.max(0, ns);
    }

    /** "lighttpd (pid 12), mariadbd (pid 40), php-cgi x5": the processes of the last sample by name. */
    String words() {
        return lastWords;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "TargetProcesses[%s]", lastWords);
    }
}
