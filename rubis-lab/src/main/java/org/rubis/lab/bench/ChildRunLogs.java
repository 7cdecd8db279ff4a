package org.rubis.lab.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.rubis.format.run.RunFiles;
import picocli.CommandLine.Option;

/**
 * {@code --keep-runs}: a benchmark reports figures from its child runs' summaries, not their per-request logs, which
 * grow with the rate ({@code bench rate} left 410 MB of them). So once a child run's figures are read, its
 * per-request and per-packet files are deleted unless asked to keep them; the summaries, the client's health samples,
 * the server's stats and the console output stay.
 */
final class ChildRunLogs {

    @Option(
            names = "--keep-runs",
            description =
                    "Keep the child runs' per-request logs (requests.csv, sessions.csv, the server's requests.csv "
                            + "and connections.csv, the capture and the wire check's CSVs); by default they are deleted once "
                            + "the run's figures are read.")
    boolean keep;

    /** The files of a run directory that this option keeps, and deletes without it. */
    static List<Path> perRequestFiles(Path run) {
        return List.of(
                RunFiles.requests(run),
                RunFiles.sessions(run),
                RunFiles.serverRequests(run),
                RunFiles.serverConnections(run),
                RunFiles.probe(run),
                run.resolve(RunFiles.CAPTURE_PCAP),
                run.resolve(RunFiles.WIRE_CSV),
                run.resolve(RunFiles.WIRE_CONNECTIONS_CSV));
    }

    /** Deletes {@code run}'s per-request files unless {@code --keep-runs}; returns the bytes freed. */
    long tidy(Path run) throws IOException {
        if (keep) {
            return 0;
        }
        long freed = 0;
        for (Path f : perRequestFiles(run)) {
            if (Files.isRegularFile(f)) {
                freed += Files.size(f);
                Files.delete(f);
            }
        }
        return freed;
    }
}
