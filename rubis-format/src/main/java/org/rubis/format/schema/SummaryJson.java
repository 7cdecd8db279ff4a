package org.rubis.format.schema;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.rubis.format.run.RunStatus;

/**
 * summary.json as one typed value: what the client writes at the end of a run and {@code rubis-analysis merge}
 * writes for a merged one, read back by the report, the merge, the lab and the assertions through {@link #read} instead of
 * key strings in every reader. Keys are the components' names in snake_case (docs/RUN-DIRECTORY.md); sections a run
 * did not write are null.
 */
public record SummaryJson(
        long schemaVersion,
        RunStatus status,
        boolean partial,
        String stopReason,
        String startedAt,
        String runDir,
        String properties,
        String target,
        long seed,
        String writeSalt,
        String configSha256,
        Clock clock,
        String backend,
        String threads,
        String execution,
        String arrivals,
        String arrivalProcess,
        long users,
        long usersStarted,
        String transitionTable,
        String transitionMode,
        double thinkScale,
        PhasesMs phasesMs,
        long requests,
        long requestsServed,
        long errors,
        Map<String, Long> errorsByClass,
        long requestsLogged,
        long recordsLost,
        double throughputRps,
        double attemptedRps,
        double runSeconds,
        long sessionsStarted,
        long sessionsCompleted,
        long sessionsAbortedAtEnd,
        long sessionsStuckAtEnd,
        long sessionsLogged,
        long sessionsDelayedByCap,
        long sessionsDroppedByCap,
        long peakActiveSessions,
        double meanSessionS,
        long connectionsOpened,
        long retriedRequests,
        ErrorPageBound errorPageBound,
        long distinctConnections,
        long requestsWithoutConnectionId,
        long imageRequests,
        StationarityJson stationarity,
        Times responseTimeMs,
        Times responseTimeFromIntendedMs,
        ClientHealth clientHealth,
        Jvm jvm,
        ServerStats server,
        List<String> warnings,
        JitWarmup jitWarmup,
        WireCheck wireCheck,
        String accuracyVerdict,
        KernelTimestamps kernelTimestamps,
        String responseTimeClock,
        Shard shard,
        Merged merged,
        List<AssertionResult> assertions,
        EndOfRunStall endOfRunStall,
        Profile profile,
        List<Interval> intervals,
        HeapPerUser heapPerUser,
        Times responseTimeMsClient,
        Probe probe) {

    /**
     * The version this reader knows. A file without {@code schema_version} was written before the key existed and
     * reads as 0 (every key it has keeps its meaning); one with a higher version is refused, not guessed at.
     */
    public static final int SCHEMA_VERSION = 1;

    /** The file's summary, leniently (keys added by a later writer are ignored). */
    public static SummaryJson read(Path file) throws IOException {
        return read(file, SchemaMapper.LENIENT);
    }

    /**
     * The file's summary with the given mapper; an unreadable, foreign or too-new file is refused with one line that
     * names it (an {@link IOException} whose message is that line).
     */
    public static SummaryJson read(Path file, ObjectMapper mapper) throws IOException {
        JsonNode root;
        try {
            root = mapper.readTree(Files.readAllBytes(file));
        } catch (JacksonException e) {
            throw new IOException(file + ": not a readable summary.json (" + e.getOriginalMessage() + ")", e);
        }
        return of(root, file.toString(), mapper);
    }

    /** A summary already parsed (a file read elsewhere, a shard's summary in memory), leniently. */
    public static SummaryJson of(JsonNode root) {
        try {
            return of(root, "summary.json", SchemaMapper.LENIENT);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static SummaryJson of(JsonNode root, String name, ObjectMapper mapper) throws IOException {
        if (root == null || !root.isObject() || !root.has("status")) {
            throw new IOException(name + ": not a summary.json of rubis-client (no status key)");
        }
        long version = root.path("schema_version").asLong(0);
        if (version > SCHEMA_VERSION) {
            throw new IOException(name + ": schema_version " + version + " is newer than this program reads ("
                    + SCHEMA_VERSION + "); read it with the rubis-client version that wrote it");
        }
        try {
            // Through the bytes the file holds, not the tree: a tree built in memory may hold nodes no file has
            // (a missing node where a shard lacked a section), which the writer leaves out.
            return mapper.readValue(mapper.writeValueAsBytes(root), SummaryJson.class);
        } catch (JacksonException e) {
            throw new IOException(
                    name + ": summary.json of schema_version " + version + " does not fit the schema ("
                            + e.getOriginalMessage() + ")",
                    e);
        }
    }
}
