package org.rubis.analysis.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.rubis.format.run.Columns;
import org.rubis.format.run.RunFiles;
import org.rubis.format.schema.SummaryJson;

/**
 * A rubis-client run directory (the contract in docs/RUN-DIRECTORY.md), checked on opening. File
 * names and columns come from the shared schema ({@link RunFiles}, {@link Columns}) the client writes with.
 */
public final class RunDirectory {

    /** Columns read as whole numbers: a line where one is not is skipped and counted. */
    public static final List<String> REQUEST_NUMERIC =
            List.of("session_id", "intended_send_epoch_ns", "send_epoch_ns", "response_ns", "status");

    public static final List<String> SESSION_NUMERIC =
            List.of("session_id", "start_epoch_ns", "end_epoch_ns", "requests");
    public static final List<String> SERVER_REQUEST_NUMERIC = List.of("completion_epoch_ns", "service_ns");
    public static final List<String> GC_NUMERIC = List.of("end_epoch_ms", "duration_ms");

    private final Path dir;
    private final JsonNode summary;
    private final String summaryProblem;
    private SummaryJson record;

    public RunDirectory(Path dir) {
        this.dir = dir;
        if (!Files.isDirectory(dir)) {
            throw new AnalysisException(
                    dir + ": no such directory; expected a run directory written by rubis-client run");
        }
        if (!Files.isRegularFile(RunFiles.requests(dir))) {
            throw new AnalysisException(dir
                    + ": not a rubis-client run directory (no requests.csv); pass the directory given to run --out");
        }
        JsonNode s = null;
        String problem = null;
        Path sp = RunFiles.summaryJson(dir);
        if (Files.isRegularFile(sp)) {
            // A summary cut off mid-write (the run killed while writing it) is treated as a missing one: the logs are
            // still there.
            try {
                s = new ObjectMapper().readTree(sp.toFile());
                if (s == null || !s.isObject()) {
                    problem =
                            sp + " is not a JSON object (empty or cut off?): ignored, figures come from the logs alone";
                    s = null;
                }
            } catch (IOException e) {
                problem = sp + " is not valid JSON ("
                        + e.getMessage().lines().findFirst().orElse("") + "; cut off mid-write?): ignored, "
                        + "figures come from the logs alone";
            }
        }
        this.summary = s;
        this.summaryProblem = problem;
    }

    public Path dir() {
        return dir;
    }

    public String name() {
        return dir.toAbsolutePath().normalize().getFileName().toString();
    }

    public Path requests() {
        return RunFiles.requests(dir);
    }

    public Path sessions() {
        return RunFiles.sessions(dir);
    }

    public Path serverRequests() {
        return RunFiles.serverRequests(dir);
    }

    public Path gc() {
        return RunFiles.clientGc(dir);
    }

    public Path health() {
        return RunFiles.clientHealth(dir);
    }

    public boolean hasServer() {
        return Files.isRegularFile(serverRequests());
    }

    /** summary.json, or null when the run was killed before writing it or it is unreadable ({@link #summaryProblem()}). */
    public JsonNode summary() {
        return summary;
    }

    /**
     * summary.json as the typed schema's record, or null when there is none or it does not fit the schema (a file
     * written by another program): the readers' one way to its figures.
     */
    public SummaryJson record() {
        if (record == null && summary != null) {
            try {
                record = SummaryJson.of(summary);
            } catch (UncheckedIOException e) {
                return null;
            }
        }
        return record;
    }

    /** Why summary.json, present, was ignored (one line naming the file), or null. */
    public String summaryProblem() {
        return summaryProblem;
    }
}
