package org.rubis.analysis.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.rubis.analysis.AnalysisException;

/** A rubis-client run directory (the contract in docs/RUN-DIRECTORY.md), checked on opening. */
public final class RunDirectory {

    public static final List<String> REQUEST_COLUMNS = List.of("session_id", "user", "request_index", "state", "path", "phase",
            "intended_send_epoch_ns", "send_epoch_ns", "ttfb_ns", "response_ns", "bytes", "status", "error", "connection_id",
            "new_connection", "backend");
    public static final List<String> SESSION_COLUMNS = List.of("session_id", "intended_start_epoch_ns", "start_epoch_ns", "end_epoch_ns",
            "requests", "end_reason");
    public static final List<String> SERVER_REQUEST_COLUMNS = List.of("connection_id", "arrival_epoch_ns", "completion_epoch_ns",
            "service_ns", "interaction", "status", "bytes", "path");

    /** Columns read as whole numbers: a line where one is not is skipped and counted. */
    public static final List<String> REQUEST_NUMERIC = List.of("session_id", "intended_send_epoch_ns", "send_epoch_ns", "response_ns");
    public static final List<String> SESSION_NUMERIC = List.of("session_id", "start_epoch_ns", "end_epoch_ns", "requests");
    public static final List<String> SERVER_REQUEST_NUMERIC = List.of("completion_epoch_ns", "service_ns");
    public static final List<String> GC_NUMERIC = List.of("end_epoch_ms", "duration_ms");

    private final Path dir;
    private final JsonNode summary;

    public RunDirectory(Path dir) {
        this.dir = dir;
        if (!Files.isDirectory(dir)) {
            throw new AnalysisException(dir + ": no such directory; expected a run directory written by rubis-client run");
        }
        if (!Files.isRegularFile(dir.resolve("requests.csv"))) {
            throw new AnalysisException(dir + ": not a rubis-client run directory (no requests.csv); pass the directory given to run --out");
        }
        JsonNode s = null;
        Path sp = dir.resolve("summary.json");
        if (Files.isRegularFile(sp)) {
            try {
                s = new ObjectMapper().readTree(sp.toFile());
            } catch (IOException e) {
                throw new AnalysisException(sp + ": not valid JSON (" + e.getMessage().lines().findFirst().orElse("") + ")");
            }
        }
        this.summary = s;
    }

    public Path dir() {
        return dir;
    }

    public String name() {
        return dir.toAbsolutePath().normalize().getFileName().toString();
    }

    public Path requests() {
        return dir.resolve("requests.csv");
    }

    public Path sessions() {
        return dir.resolve("sessions.csv");
    }

    public Path serverRequests() {
        return dir.resolve("server").resolve("requests.csv");
    }

    public Path gc() {
        return dir.resolve("client-gc.csv");
    }

    public Path health() {
        return dir.resolve("client-health.csv");
    }

    public boolean hasServer() {
        return Files.isRegularFile(serverRequests());
    }

    /** summary.json, or null when the run was killed before writing it. */
    public JsonNode summary() {
        return summary;
    }
}
