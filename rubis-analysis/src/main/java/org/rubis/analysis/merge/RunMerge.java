package org.rubis.analysis.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.rubis.analysis.io.AnalysisException;
import org.rubis.analysis.io.CsvStream;
import org.rubis.analysis.io.RunDirectory;
import org.rubis.format.io.AtomicFile;
import org.rubis.format.run.Columns;
import org.rubis.format.run.Phase;
import org.rubis.format.run.RunFiles;
import org.rubis.format.run.RunStatus;
import org.rubis.format.run.SessionEnd;
import org.rubis.format.run.StopCause;
import org.rubis.format.schema.SummaryJson;
import org.rubis.format.stats.ErrorShare;
import org.rubis.format.stats.LatencyJson;
import org.rubis.format.stats.LatencyStats;

/**
 * {@code rubis-analysis merge}: turns the run directories of N shards (docs/SHARDING.md) into one
 * run directory that {@code report} and {@code compare} read like any other. The logs are merged
 * in time order by a streaming k-way merge, the summary is recomputed from the merged logs, and
 * each shard's clock anchor and start offset are recorded, with a warning when the shards did not
 * start together.
 */
public final class RunMerge {

    /** Shards whose runs started further apart than this get a warning. */
    public static final double START_SPREAD_LIMIT_MS = 1.0;

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final List<String> SESSION_KEYS = List.of(
            "session_id", "emulated_user", "intended_start_epoch_ns", "start_epoch_ns", "end_epoch_ns", "end_reason");

    /**
     * What merge wrote: the merged summary, its status (the worst of the shards', {@link RunStatus#worst}) and its
     * warnings.
     */
    public record Result(Path out, ObjectNode summary, RunStatus status, List<String> warnings) {}

    /** How {@code Stationarity.warning()} begins: a shard's, about its share alone, is not the merged run's. */
    private static final Pattern STATIONARITY_WARNING =
            Pattern.compile("NOT (STEADY: the run phase|JUDGED: whether the run phase)");

    /** A closed run's session ids are {@code user x 1,000,000 + k} (docs/SHARDING.md). */
    private static final long SESSIONS_PER_USER_ID = 1_000_000L;

    private final ShardSet shards;
    private final Path out;
    private final List<String> warnings = new ArrayList<>();

    private RunMerge(ShardSet shards, Path out) {
        this.shards = shards;
        this.out = out;
    }

    public static Result merge(List<Path> dirs, Path out) {
        ShardSet set = ShardSet.of(dirs);
        checkOut(dirs, out);
        return new RunMerge(set, out).run();
    }

    /**
     * The local runner's layout ({@code run --shards N}): the shards are {@code out/shard-I} and the
     * shared embedded server's logs {@code out/server/}; merges into {@code out} beside them. Anything
     * else in {@code out} is refused as by {@link #merge}.
     */
    public static Result mergeInPlace(List<Path> dirs, Path out) {
        ShardSet set = ShardSet.of(dirs);
        try (Stream<Path> s = Files.list(out)) {
            List<Path> inside =
                    dirs.stream().map(d -> d.toAbsolutePath().normalize()).toList();
            Path server = RunFiles.serverDir(out).toAbsolutePath().normalize();
            Path other = s.map(p -> p.toAbsolutePath().normalize())
                    .filter(p -> !inside.contains(p) && !p.equals(server))
                    .findAny()
                    .orElse(null);
            if (other != null) {
                throw new AnalysisException(out + ": holds " + other.getFileName()
                        + " besides the shards; choose a new directory (merge never overwrites a run)");
            }
        } catch (IOException e) {
            throw new AnalysisException(out + ": not a readable directory: " + e.getMessage());
        }
        return new RunMerge(set, out).run();
    }

    private static void checkOut(List<Path> dirs, Path out) {
        Path o = out.toAbsolutePath().normalize();
        for (Path d : dirs) {
            if (d.toAbsolutePath().normalize().equals(o)) {
                throw new AnalysisException(
                        out + ": --out is one of the shard directories; choose a new directory for the merged run");
            }
        }
        if (Files.exists(out)) {
            boolean empty;
            try (Stream<Path> s = Files.list(out)) {
                empty = s.findAny().isEmpty();
            } catch (IOException e) {
                throw new AnalysisException(
                        out + ": exists and is not a readable directory; choose a new directory for --out");
            }
            if (!empty) {
                throw new AnalysisException(out
                        + ": exists and is not empty; choose a new directory for --out (merge never overwrites a run)");
            }
        }
    }

    private Result run() {
        List<ShardInfo> list = shards.shards();
        MergedStats stats = new MergedStats();
        try {
            Files.createDirectories(out);
        } catch (IOException e) {
            throw new AnalysisException(out + ": cannot create: " + e.getMessage());
        }
        runPhase(stats);
        CsvMerge.Result req = CsvMerge.merge(
                files(RunDirectory::requests),
                Columns.REQUESTS_REQUIRED,
                r -> r.getLong("send_epoch_ns") + r.getLong("response_ns"),
                RunFiles.requests(out),
                (shard, r) -> {
                    checkRequest(list.get(shard), r);
                    stats.request(r);
                });
        truncated(req);
        if (list.stream().allMatch(s -> Files.isRegularFile(s.dir().sessions()))) {
            CsvMerge.Result ses = CsvMerge.merge(
                    files(RunDirectory::sessions),
                    SESSION_KEYS,
                    RunMerge::sessionInstant,
                    RunFiles.sessions(out),
                    (shard, r) -> {
                        checkAssignment(list.get(shard), r);
                        stats.session(r);
                    });
            truncated(ses);
        } else {
            warnings.add("some shards have no sessions.csv: the merged run has no session log");
        }
        optional(RunDirectory::health, List.of("epoch_ms"), r -> r.getLong("epoch_ms"), RunFiles::clientHealth);
        optional(RunDirectory::gc, List.of("end_epoch_ms"), r -> r.getLong("end_epoch_ms"), RunFiles::clientGc);
        if (list.stream().allMatch(s -> s.dir().hasServer())) {
            optional(
                    d -> d.serverRequests(),
                    Columns.SERVER_REQUESTS,
                    r -> r.getLong("completion_epoch_ns"),
                    RunFiles::serverRequests);
            optional(
                    d -> RunFiles.serverConnections(d.dir()),
                    List.of("close_epoch_ns"),
                    r -> r.getLong("close_epoch_ns"),
                    RunFiles::serverConnections);
            if (list.size() > 1) {
                warnings.add("each shard ran its own embedded server: server/ merges " + list.size()
                        + " servers' logs (one row per request, "
                        + "with a shard column); the per-server stats.json are under shards/");
            }
        }
        copyShardFiles();
        ObjectNode summary = summary(stats);
        try {
            AtomicFile.writeString(RunFiles.summaryJson(out), JSON.writeValueAsString(summary));
            AtomicFile.writeString(RunFiles.summaryText(out), SummaryText.of(summary));
        } catch (IOException e) {
            throw new AnalysisException(RunFiles.summaryJson(out) + ": cannot write: " + e.getMessage());
        }
        return new Result(out, summary, status(), List.copyOf(warnings));
    }

    private List<Path> files(Function<RunDirectory, Path> f) {
        return shards.shards().stream().map(s -> f.apply(s.dir())).toList();
    }

    /** Merges a log some runs lack, into {@code target}'s place in the merged run (a {@link RunFiles} path). */
    private void optional(
            Function<RunDirectory, Path> f,
            List<String> required,
            ToLongFunction<CsvStream.Row> key,
            Function<Path, Path> target) {
        List<Path> in = files(f);
        Path to = target.apply(out);
        String name = out.relativize(to).toString();
        if (in.stream().allMatch(Files::isRegularFile)) {
            truncated(CsvMerge.merge(in, required, key, to, (s, r) -> {}));
        } else if (in.stream().anyMatch(Files::isRegularFile)) {
            warnings.add("only some shards have " + name + ": not merged");
        }
    }

    private void truncated(CsvMerge.Result r) {
        for (Path p : r.truncated()) {
            warnings.add(p + " ends with an incomplete line (the shard was killed): it was skipped");
        }
    }

    private static long sessionInstant(CsvStream.Row r) {
        long end = r.getLong("end_epoch_ns");
        return end > 0 ? end : r.getLong("intended_start_epoch_ns"); // dropped sessions never started
    }

    private static void checkAssignment(ShardInfo shard, CsvStream.Row r) {
        long sid = r.getLong("session_id");
        long user = r.getLong("emulated_user");
        int owner = shard.shardOf(sid, user);
        if (owner != shard.index()) {
            throw new AnalysisException(r.file() + ":" + r.line() + ": session " + sid
                    + (shard.arrivals().equals("closed") ? " (emulated user " + user + ")" : "")
                    + " belongs to shard " + owner + " of " + shard.count() + ", not " + shard.index()
                    + ": these directories are not the shards of one run (or the client broke docs/SHARDING.md)");
        }
    }

    /**
     * A request line's session must be the shard's too (its emulated user is {@code session_id / 1,000,000} in a
     * closed run, docs/SHARDING.md): a foreign line would be merged and counted as the shard's.
     */
    private static void checkRequest(ShardInfo shard, CsvStream.Row r) {
        long sid = r.getLong("session_id");
        long user = Math.floorDiv(sid, SESSIONS_PER_USER_ID);
        int owner = shard.shardOf(sid, user);
        if (owner != shard.index()) {
            throw new AnalysisException(r.file() + ":" + r.line() + ": the request of session " + sid
                    + (shard.arrivals().equals("closed") ? " (emulated user " + user + ")" : "")
                    + " belongs to shard " + owner + " of " + shard.count() + ", not " + shard.index()
                    + ": these directories are not the shards of one run (or the client broke docs/SHARDING.md)");
        }
    }

    private void copyShardFiles() {
        for (ShardInfo s : shards.shards()) {
            Path target = RunFiles.shardDir(out.resolve(RunFiles.MERGED_SHARDS_DIR), s.index());
            try {
                Files.createDirectories(target);
                for (String name : List.of(RunFiles.SUMMARY_JSON, RunFiles.SUMMARY_TXT, RunFiles.GC_LOG)) {
                    Path src = s.dir().dir().resolve(name);
                    if (Files.isRegularFile(src)) {
                        Files.copy(src, target.resolve(name), StandardCopyOption.REPLACE_EXISTING);
                    }
                }
                Path stats = RunFiles.serverStats(s.dir().dir());
                if (Files.isRegularFile(stats)) {
                    Files.copy(
                            stats,
                            target.resolve(RunFiles.MERGED_SHARD_SERVER_STATS),
                            StandardCopyOption.REPLACE_EXISTING);
                }
            } catch (IOException e) {
                throw new AnalysisException(target + ": cannot write: " + e.getMessage());
            }
        }
    }

    // ------------------------------------------------------------------ the merged summary

    /**
     * The merged summary.json: a single run's keys, recomputed from the merged logs where they hold them, plus {@code
     * merged}.
     */
    private ObjectNode summary(MergedStats st) {
        ObjectNode root = JSON.createObjectNode();
        head(root);
        counts(root, st);
        responseTimes(root.putObject("response_time_ms"), st);
        fromIntended(root.putObject("response_time_from_intended_ms"), st);
        root.set("client_health", health(st));
        st.intervals.write(root, shards.shards(), st.sessions(SessionEnd.LEFT), warnings);
        // The run's own judgement is the summary's warning, as a run's is; merge's warnings are about the merge.
        List<String> judged = new ArrayList<>();
        root.set("stationarity", MergedStationarity.of(root, shards.shards(), st, judged));
        server(root);
        merged(root.putObject("merged"));
        Set<String> w = new LinkedHashSet<>();
        for (ShardInfo s : shards.shards()) {
            // A shard's stationarity warning judged its share only: the merged run's own judgement replaces it.
            s.summary().path("warnings").forEach(x -> {
                if (!STATIONARITY_WARNING.matcher(x.asText()).lookingAt()) {
                    w.add(x.asText());
                }
            });
        }
        w.addAll(warnings);
        w.addAll(judged);
        ArrayNode wa = root.putArray("warnings");
        w.forEach(wa::add);
        return root;
    }

    /**
     * How the run ended (the worst shard's status, the stopped shards' reasons) and what it ran, as the first shard
     * says.
     */
    private void head(ObjectNode root) {
        ShardInfo first = shards.first();
        JsonNode f = first.summary();
        RunStatus status = status();
        root.put("status", status.label());
        root.put("schema_version", SummaryJson.SCHEMA_VERSION);
        root.put("partial", status != RunStatus.COMPLETE);
        root.put("stop_reason", stopReason());
        root.put("started_at", instant(first.startAtEpochNs()));
        root.put("run_dir", out.toAbsolutePath().toString());
        for (String k : List.of("properties", "target")) {
            root.set(k, f.get(k));
        }
        root.put("seed", first.seed());
        root.put("config_sha256", first.configSha256());
        for (String k : List.of("backend", "threads", "arrivals", "arrival_process", "users")) {
            root.set(k, f.get(k));
        }
        root.put("users_started", sum("users_started"));
        for (String k : List.of("transition_table", "transition_mode", "think_scale", "phases_ms")) {
            root.set(k, f.get(k));
        }
    }

    /** Requests, throughput, sessions and connections, cross-checked against the shards' own summaries. */
    private void counts(ObjectNode root, MergedStats st) {
        root.put("requests", st.requests());
        root.put("errors", st.overall.errors());
        ObjectNode byClass = root.putObject("errors_by_class");
        st.errorsByClass.forEach(byClass::put);
        root.put("requests_logged", st.requests());
        root.put("records_lost", sum("records_lost"));
        // The shards ran side by side: the run phase as run is the longest a shard ran (a stopped shard's run_seconds
        // is shorter
        // than planned). throughput_rps and attempted_rps as in a shard's summary: successful and all run-phase
        // requests per second.
        double runSeconds = shards.shards().stream()
                .mapToDouble(s -> s.summary().has("run_seconds")
                        ? s.summary().path("run_seconds").asDouble()
                        : s.summary().path("phases_ms").path(Phase.RUN.label()).asDouble() / 1000)
                .max()
                .orElse(0);
        LatencyStats run = st.byPhase.get(Phase.RUN);
        root.put("requests_served", st.requests() - st.overall.errors());
        root.put("throughput_rps", MergedStats.round((run.count() - run.errors()) / Math.max(1e-9, runSeconds), 3));
        root.put("attempted_rps", MergedStats.round(run.count() / Math.max(1e-9, runSeconds), 3));
        root.put("run_seconds", MergedStats.round(runSeconds, 3));
        root.put("sessions_started", st.sessionsStarted());
        root.put("sessions_completed", st.sessionsCompleted());
        root.put("sessions_aborted_at_end", st.sessions(SessionEnd.RUN_ENDED));
        root.put("sessions_stuck_at_end", st.sessions(SessionEnd.STUCK));
        root.put("sessions_delayed_by_cap", sum("sessions_delayed_by_cap"));
        root.put("sessions_dropped_by_cap", st.sessions(SessionEnd.DROPPED));
        root.put("peak_active_sessions", sum("peak_active_sessions"));
        root.put(
                "mean_session_s",
                MergedStats.round(st.sessionsTimed == 0 ? 0 : st.sessionTimeSumNs / 1e9 / st.sessionsTimed, 3));
        root.put("sessions_logged", st.sessionRows);
        root.put("retried_requests", st.retried);
        root.put("connections_opened", st.newConnections);
        root.put("distinct_connections", st.connections.size());
        root.put("requests_without_connection_id", st.withoutConnection);
        root.put("image_requests", sum("image_requests"));
        crossCheck(
                root,
                List.of(
                        "requests",
                        "errors",
                        "sessions_started",
                        "sessions_completed",
                        "sessions_aborted_at_end",
                        "sessions_dropped_by_cap",
                        "connections_opened"));
    }

    /**
     * The run phase's windows as one run's: from the earliest shard's run-phase start (its run's t = 0 plus the up
     * ramp), of the length the shards counted in ({@code stationarity.window_s}; before shards wrote it, the client's
     * rule: whole seconds, at most {@code 10,000} windows).
     */
    private void runPhase(MergedStats st) {
        JsonNode f = shards.first().summary();
        double seconds = f.path("phases_ms").path(Phase.RUN.label()).asDouble() / 1000;
        double up = f.path("phases_ms").path(Phase.UP.label()).asDouble() / 1000;
        double windowS = f.path("stationarity").path("window_s").asDouble(Math.max(1, Math.ceil(seconds / 10_000)));
        long start = shards.shards().stream()
                .mapToLong(ShardInfo::runStartEpochNs)
                .min()
                .orElse(0);
        st.runPhase(start + Math.round(up * 1e9), windowS, (int) Math.floor(seconds / windowS + 1e-9));
    }

    /** The same requests from the intended send instant (coordinated omission corrected), as a run's summary has. */
    private static void fromIntended(ObjectNode fi, MergedStats st) {
        for (Phase p : Phase.values()) {
            LatencyJson.cell(fi.putObject(p.label()), st.fromIntended.get(p));
        }
        LatencyJson.cell(fi.putObject("overall"), st.overallFromIntended);
    }

    /**
     * The server's ground truth ({@code server}, its stats.json): the one server the shards shared (the local runner's
     * {@code out/server/}, or a single shard's own), else the shards' own servers' counts added up, with {@code
     * servers} saying how many (each one's as it was is under shards/).
     */
    private void server(ObjectNode root) {
        Path shared = RunFiles.serverStats(out);
        List<Path> own = shards.shards().stream()
                .map(s -> RunFiles.serverStats(s.dir().dir()))
                .filter(Files::isRegularFile)
                .toList();
        try {
            if (Files.isRegularFile(shared)) {
                root.set("server", JSON.readTree(shared.toFile()));
            } else if (own.size() == 1 && shards.shards().size() == 1) {
                root.set("server", JSON.readTree(own.get(0).toFile()));
            } else if (!own.isEmpty() && own.size() == shards.shards().size()) {
                List<JsonNode> each = new ArrayList<>();
                for (Path p : own) {
                    each.add(JSON.readTree(p.toFile()));
                }
                root.set("server", ServerTotals.of(each));
            }
        } catch (IOException e) {
            warnings.add("the server's stats.json is unreadable (" + e.getMessage() + "): the merged run has no server"
                    + " ground truth");
        }
    }

    /**
     * Per phase and state, then overall, from every request (never averaged over shards); the states in the order the
     * shards' summaries list them (the client's), any other after them.
     */
    private void responseTimes(ObjectNode rt, MergedStats st) {
        List<String> order = stateOrder();
        for (Phase p : Phase.values()) {
            ObjectNode ph = LatencyJson.cell(rt.putObject(p.label()), st.byPhase.get(p));
            states(ph.putObject("states"), st.byPhaseState.get(p), order);
        }
        ObjectNode all = LatencyJson.cell(rt.putObject("overall"), st.overall);
        states(all.putObject("states"), st.byState, order);
    }

    private static void states(ObjectNode into, Map<String, LatencyStats> cells, List<String> order) {
        order.stream().filter(cells::containsKey).forEach(k -> LatencyJson.cell(into.putObject(k), cells.get(k)));
        cells.forEach((k, c) -> {
            if (!order.contains(k)) {
                LatencyJson.cell(into.putObject(k), c);
            }
        });
    }

    /** The states as the shards' overall tables list them, first seen first. */
    private List<String> stateOrder() {
        Set<String> order = new LinkedHashSet<>();
        for (ShardInfo s : shards.shards()) {
            s.summary()
                    .path("response_time_ms")
                    .path("overall")
                    .path("states")
                    .fieldNames()
                    .forEachRemaining(order::add);
        }
        return new ArrayList<>(order);
    }

    /** The shards, their start instants and offsets; warnings when they did not start together. */
    private void merged(ObjectNode merged) {
        List<ShardInfo> list = shards.shards();
        ShardInfo first = shards.first();
        merged.put("shard_count", first.count());
        shards.missing().forEach(warnings::add);
        ArrayNode missing = merged.putArray("missing_shards"); // the shards whose requests are not in the merged run
        shards.missingIndices().forEach(missing::add);
        merged.put("start_at", instant(first.startAtEpochNs()));
        merged.put("start_at_epoch_ns", first.startAtEpochNs());
        long minStart = Long.MAX_VALUE;
        long maxStart = Long.MIN_VALUE;
        ArrayNode arr = merged.putArray("shards");
        for (ShardInfo s : list) {
            ObjectNode o = arr.addObject();
            o.put("index", s.index());
            o.put("dir", s.dir().dir().toAbsolutePath().normalize().toString());
            o.put("status", s.summary().path("status").asText()); // as the shard wrote it
            o.put("requests", s.summary().path("requests").asLong());
            o.put("anchor_epoch_ns", s.anchorEpochNs());
            o.put("run_start_epoch_ns", s.runStartEpochNs());
            o.put("start_offset_ms", MergedStats.round((s.runStartEpochNs() - s.startAtEpochNs()) / 1e6, 3));
            o.put("host", s.summary().path("shard").path("host").asText(""));
            o.set("jvm", s.summary().get("jvm"));
            minStart = Math.min(minStart, s.runStartEpochNs());
            maxStart = Math.max(maxStart, s.runStartEpochNs());
        }
        double spread = (maxStart - minStart) / 1e6;
        merged.put("run_start_spread_ms", MergedStats.round(spread, 3));
        if (spread > START_SPREAD_LIMIT_MS) {
            warnings.add(String.format(
                    Locale.ROOT,
                    "the shards' runs started up to %.3f ms apart (limit %.0f ms; see merged.shards[].start_offset_ms): "
                            + "their schedules are offset by that much; start them with --start-at far enough ahead and keep the hosts' clocks in sync (NTP)",
                    spread,
                    START_SPREAD_LIMIT_MS));
        }
        for (ShardInfo s : list) {
            long offset = s.runStartEpochNs() - s.startAtEpochNs();
            if (Math.abs(offset) > START_SPREAD_LIMIT_MS * 1e6) {
                warnings.add(String.format(
                        Locale.ROOT,
                        "shard %d began its run %.3f ms %s the start instant %s",
                        s.index(),
                        Math.abs(offset) / 1e6,
                        offset > 0 ? "after" : "before",
                        instant(s.startAtEpochNs())));
            }
        }
    }

    /**
     * The merged run's status: the worst of its shards' (docs/SHARDING.md), so that a shard that failed or whose target
     * died makes the whole run say so, as a stopped shard makes it partial.
     */
    private RunStatus status() {
        RunStatus status = shards.missing().isEmpty() ? RunStatus.COMPLETE : RunStatus.PARTIAL;
        for (ShardInfo s : shards.shards()) {
            status = status.worst(s.status());
        }
        return status;
    }

    /** The stopped shards' statuses and reasons; the end of the run when every shard completed. */
    private String stopReason() {
        List<String> stopped = new ArrayList<>();
        for (ShardInfo s : shards.shards()) {
            if (s.status() != RunStatus.COMPLETE) {
                stopped.add("shard " + s.index() + ": " + s.status().label() + " ("
                        + s.summary().path("stop_reason").asText("?") + ")");
            }
        }
        stopped.addAll(shards.missing());
        return stopped.isEmpty() ? StopCause.END.reason() : String.join("; ", stopped);
    }

    /** The per-shard summary counts merge cannot see in the logs: their sum. */
    private long sum(String key) {
        return shards.shards().stream()
                .mapToLong(s -> s.summary().path(key).asLong(0))
                .sum();
    }

    private void crossCheck(ObjectNode root, List<String> keys) {
        for (String k : keys) {
            long fromLogs = root.path(k).asLong();
            long fromSummaries = sum(k);
            if (fromLogs != fromSummaries) {
                warnings.add(k + ": " + fromLogs + " in the merged logs but " + fromSummaries
                        + " in the shards' summaries added up" + " (a shard's log lost records or was cut)");
            }
        }
    }

    /**
     * The shards' client health added up ({@link ShardHealth}), the send lateness from the merged log, each shard's own
     * beside.
     */
    private ObjectNode health(MergedStats st) {
        ObjectNode h = JSON.createObjectNode();
        ShardHealth sum = new ShardHealth();
        ArrayNode per = JSON.createArrayNode();
        for (ShardInfo s : shards.shards()) {
            JsonNode x = s.summary().path("client_health");
            sum.add(s.index(), x);
            ObjectNode o = per.addObject();
            o.put("index", s.index());
            o.set("client_health", x);
        }
        long n = st.requests();
        long runN = st.byPhase.get(Phase.RUN).count();
        sum.writeCpu(h, n, runN);
        sum.writeGcAndMemory(h);
        ObjectNode late = h.putObject("send_lateness_ms");
        MergedStats.percentiles(late, st.lateness);
        late.put("max", MergedStats.round(st.lateness.maxMs(), 3));
        MergedStats.percentiles(h.putObject("run_send_lateness_ms"), st.runLateness);
        if ("hybrid".equals(shards.first().arrivals())) {
            MergedStats.percentiles(h.putObject("session_start_lateness_ms"), st.sessionStartLateness);
        }
        LatencyStats run = st.byPhase.get(Phase.RUN);
        MergedVerdict verdict = MergedVerdict.of(
                shards.shards(),
                new ErrorShare(run.count(), run.errors(), st.errorsByClass, st.runTargetState),
                status(),
                stopReason());
        h.put("saturated", verdict.causes().contains(MergedVerdict.CLIENT));
        ArrayNode causes = h.putArray("causes");
        verdict.causes().forEach(causes::add);
        h.put("accuracy_measured", verdict.accuracyMeasured());
        h.put("verdict", verdict.text());
        h.put(
                "sums_over_shards",
                "cpu_*, cores, gc_count, gc_time_ms, gc_pauses, gc_pause_total_ms, gc_pauses_logged"
                        + " are sums over the shards' hosts; gc_max_pause_ms, peak_threads, peak_heap_bytes the largest of any"
                        + " shard");
        h.set("shards", per);
        return h;
    }

    private static String instant(long epochNs) {
        return Instant.ofEpochSecond(Math.floorDiv(epochNs, 1_000_000_000L), Math.floorMod(epochNs, 1_000_000_000L))
                .toString();
    }
}
