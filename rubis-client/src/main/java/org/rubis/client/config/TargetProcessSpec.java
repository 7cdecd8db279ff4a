package org.rubis.client.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rubis.client.input.ConfigException;

/**
 * The target's own processes on this host that the user names ({@code --target-processes NAME,...}, or a cgroup
 * directory): their CPU is the server's, not other processes' load. A RUBiS deployment is several programs (lighttpd,
 * php-cgi, MariaDB); the one listening on the target's port and its children are found without a name, the database
 * server needs one. Names are compared with {@code /proc/PID/comm}; nothing is ever run.
 *
 * @param names  process names (comm, at most 15 characters), each with its child processes
 * @param cgroup a cgroup v2 directory whose {@code cgroup.procs} lists more of them, or null
 */
public record TargetProcessSpec(List<String> names, Path cgroup) {

    /** Nothing named. */
    public static final TargetProcessSpec NONE = new TargetProcessSpec(List.of(), null);

    public TargetProcessSpec {
        names = List.copyOf(names);
    }

    /** "lighttpd,php-cgi,mariadbd" or "/sys/fs/cgroup/system.slice/x.service" or both, comma-separated. */
    static TargetProcessSpec parse(String where, String text) {
        if (text == null || text.isBlank()) {
            return NONE;
        }
        List<String> names = new ArrayList<>();
        Path cgroup = null;
        for (String part : text.split(",")) {
            String p = part.strip();
            if (p.startsWith("/")) {
                Path dir = Path.of(p);
                if (cgroup != null || !Files.isRegularFile(dir.resolve("cgroup.procs"))) {
                    throw new ConfigException(where + " = \"" + text + "\": " + p
                            + (cgroup != null
                                    ? ": one cgroup only"
                                    : " is not a cgroup directory (no cgroup.procs in it)")
                            + "; expected process names and at most one cgroup path, comma-separated");
                }
                cgroup = dir;
            } else if (p.matches("[A-Za-z0-9._+@:-]{1,15}")) {
                names.add(p);
            } else {
                throw new ConfigException(where + " = \"" + text + "\": \"" + p + "\" is not a process name (1-15 of"
                        + " A-Z a-z 0-9 . _ + @ : -, as /proc/PID/comm holds it) nor a cgroup path");
            }
        }
        return new TargetProcessSpec(names, cgroup);
    }

    public boolean isEmpty() {
        return names.isEmpty() && cgroup == null;
    }
}
