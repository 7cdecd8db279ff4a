package org.rubis.lab.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Programs of the host that {@code bench rate} runs beside the client: lighttpd (the static server), taskset (pinning),
 * wrk and httperf (the tools it compares with). They are not JVMs and get no configured string: each command line is
 * written by the benchmark from its own constants and numbers. Used only when installed (never by tests).
 */
public final class HostProgram {

    private HostProgram() {}

    /** The executable on PATH (or in /usr/sbin, /sbin, /usr/local/sbin), or null. */
    public static Path which(String name) {
        List<String> dirs = new ArrayList<>(
                List.of(System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")));
        dirs.addAll(List.of("/usr/sbin", "/sbin", "/usr/local/sbin"));
        for (String d : dirs) {
            Path p = Path.of(d, name);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    /** Starts {@code cmd} with its output (standard output and error) in {@code output}. */
    public static Process start(List<String> cmd, Path output) throws IOException {
        return new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
    }

    /** Runs {@code cmd} to its end with its output saved in {@code save}; returns that output. */
    public static String output(List<String> cmd, Path save) throws IOException, InterruptedException {
        start(cmd, save).waitFor();
        return Files.readString(save, StandardCharsets.UTF_8);
    }
}
