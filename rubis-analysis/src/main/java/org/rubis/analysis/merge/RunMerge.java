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
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.rubis.analysis.io.AnalysisException;
import org.rubis.analysis.io.CsvStream;
import org.rubis.analysis.io.RunDirectory;

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
    private static final List<String> SESSION_KEYS = List.of("session_id", "emulated_user", "intended_start_epoch_ns", "start_epoch_ns",
            "end_epoch_ns", "end_reason");

    /** What merge wrote: the merged summary and its warnings. */
    public record Result(Path out, ObjectNode summary, List<String> warnings) {}

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
            List<Path> inside = dirs.stream().map(d -> d.toAbsolutePath().normalize()).toList();
            Path server = org.rubis.format.RunFiles.serverDir(out).toAbsolutePath().normalize();
            Path other = s.map(p -> p.toAbsolutePath().normalize()).filter(p -> !inside.contains(p) && !p.equals(server)).findAny().orElse(null);
            if (other != null) {
                throw new AnalysisException(out + ": holds " + other.getFileName() + " besides the shards; choose a new directory (merge never overwrites a run)");
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
                throw new AnalysisException(out + ": --out is one of the shard directories; choose a new directory for the merged run");
            }
        }
        if (Files.exists(out)) {
            boolean empty;
            try (Stream<Path> s = Files.list(out)) {
                empty = s.findAny().isEmpty();
            } catch (IOException e) {
                throw new AnalysisException(out + ": exists and is not a readable directory; choose a new directory for --out");
            }
            if (!empty) {
                throw new AnalysisException(out + ": exists and is not empty; choose a new directory for --out (merge never overwrites a run)");
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
        CsvMerge.Result req = CsvMerge.merge(files(RunDirectory::requests), org.rubis.format.Columns.REQUESTS_REQUIRED,
                r -> r.getLong("send_epoch_ns") + r.getLong("response_ns"), out.resolve("requests.csv"), (shard, r) -> stats.request(r));
        truncated(req);
        if (list.stream().allMatch(s -> Files.isRegularFile(s.dir().sessions()))) {
            CsvMerge.Result ses = CsvMerge.merge(files(RunDirectory::sessions), SESSION_KEYS, RunMerge::sessionInstant, out.resolve("sessions.csv"),
                    (shard, r) -> {
                        checkAssignment(list.get(shard), r);
                        stats.session(r);
                    });
            truncated(ses);
        } else {
            warnings.add("some shards have no sessions.csv: the merged run has no session log");
        }
        optional(RunDirectory::health, List.of("epoch_ms"), r -> r.getLong("epoch_ms"), "client-health.csv");
        optional(RunDirectory::gc, List.of("end_epoch_ms"), r -> r.getLong("end_epoch_ms"), "client-gc.csv");
        if (list.stream().allMatch(s -> s.dir().hasServer())) {
            optional(d -> d.serverRequests(), org.rubis.format.Columns.SERVER_REQUESTS, r -> r.getLong("completion_epoch_ns"), "server/requests.csv");
            optional(d -> org.rubis.format.RunFiles.serverConnections(d.dir()), List.of("close_epoch_ns"), r -> r.getLong("close_epoch_ns"),
                    "server/connections.csv");
            if (list.size() > 1) {
                warnings.add("each shard ran its own embedded server: server/ merges " + list.size() + " servers' logs (one row per request, "
                        + "with a shard column); the per-server stats.json are under shards/");
            }
        }
        copyShardFiles();
        ObjectNode summary = summary(stats);
        try {
            org.rubis.format.AtomicFile.writeString(out.resolve("summary.json"), JSON.writeValueAsString(summary));
            org.rubis.format.AtomicFile.writeString(out.resolve("summary.txt"), SummaryText.of(summary));
        } catch (IOException e) {
            throw new AnalysisException(out.resolve("summary.json") + ": cannot write: " + e.getMessage());
        }
        return new Result(out, summary, List.copyOf(warnings));
    }

    private List<Path> files(Function<RunDirectory, Path> f) {
        return shards.shards().stream().map(s -> f.apply(s.dir())).toList();
    }

    private void optional(Function<RunDirectory, Path> f, List<String> required, java.util.function.ToLongFunction<CsvStream.Row> key, String name) {
        List<Path> in = files(f);
        if (in.stream().allMatch(Files::isRegularFile)) {
            truncated(CsvMerge.merge(in, required, key, out.resolve(name), (s, r) -> { }));
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
            throw new AnalysisException(r.file() + ":" + r.line() + ": session " + sid + (shard.arrivals().equals("closed") ? " (emulated user " + user + ")" : "")
                    + " belongs to shard " + owner + " of " + shard.count() + ", not " + shard.index()
                    + ": these directories are not the shards of one run (or the client broke docs/SHARDING.md)");
        }
    }

    private void copyShardFiles() {
        for (ShardInfo s : shards.shards()) {
            Path target = out.resolve("shards").resolve("shard-" + s.index());
            try {
                Files.createDirectories(target);
                for (String name : List.of("summary.json", "summary.txt", "gc.log")) {
                    Path src = s.dir().dir().resolve(name);
                    if (Files.isRegularFile(src)) {
                        Files.copy(src, target.resolve(name), StandardCopyOption.REPLACE_EXISTING);
                    }
                }
                Path stats = org.rubis.format.RunFiles.serverStats(s.dir().dir());
                if (Files.isRegularFile(stats)) {
                    Files.copy(stats, target.resolve("server-stats.json"), StandardCopyOption.REPLACE_EXISTING);
                }
            } catch (IOException e) {
                throw new AnalysisException(target + ": cannot write: " + e.getMessage());
            }
        }
    }

    // ------------------------------------------------------------------ the merged summary

    private ObjectNode summary(MergedStats st) {
        List<ShardInfo> list = shards.shards();
        ShardInfo first = shards.first();
        JsonNode f = first.summary();
        ObjectNode root = JSON.createObjectNode();
        List<String> stopped = new ArrayList<>();
        boolean invalid = false;
        for (ShardInfo s : list) {
            String status = s.summary().path("status").asText("partial");
            invalid |= status.equals("invalid");
            if (!status.equals("complete")) {
                stopped.add("shard " + s.index() + ": " + status + " (" + s.summary().path("stop_reason").asText("?") + ")");
            }
        }
        root.put("status", invalid ? "invalid" : stopped.isEmpty() ? "complete" : "partial");
        root.put("partial", !stopped.isEmpty());
        root.put("stop_reason", stopped.isEmpty() ? "complete" : String.join("; ", stopped));
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

        root.put("requests", st.requests());
        root.put("errors", st.overall.errors);
        ObjectNode byClass = root.putObject("errors_by_class");
        st.errorsByClass.forEach(byClass::put);
        root.put("requests_logged", st.requests());
        root.put("records_lost", sum("records_lost"));
        // The shards ran side by side: the run phase as run is the longest a shard ran (a stopped shard's run_seconds is shorter
        // than planned). throughput_rps and attempted_rps as in a shard's summary: successful and all run-phase requests per second.
        double runSeconds = list.stream().mapToDouble(s -> s.summary().has("run_seconds") ? s.summary().path("run_seconds").asDouble()
                : s.summary().path("phases_ms").path("run").asDouble() / 1000).max().orElse(0);
        MergedStats.Cell run = st.byPhase.get("run");
        root.put("requests_served", st.requests() - st.overall.errors);
        root.put("throughput_rps", MergedStats.round((run.count - run.errors) / Math.max(1e-9, runSeconds), 3));
        root.put("attempted_rps", MergedStats.round(run.count / Math.max(1e-9, runSeconds), 3));
        root.put("run_seconds", MergedStats.round(runSeconds, 3));
        root.put("sessions_started", st.sessionsStarted());
        root.put("sessions_completed", st.sessionsCompleted());
        root.put("sessions_aborted_at_end", st.sessionEnds.getOrDefault("run_ended", 0L));
        root.put("sessions_stuck_at_end", st.sessionEnds.getOrDefault("stuck", 0L));
        root.put("sessions_delayed_by_cap", sum("sessions_delayed_by_cap"));
        root.put("sessions_dropped_by_cap", st.sessionEnds.getOrDefault("dropped", 0L));
        root.put("peak_active_sessions", sum("peak_active_sessions"));
        root.put("mean_session_s", MergedStats.round(st.sessionsTimed == 0 ? 0 : st.sessionTimeSumNs / 1e9 / st.sessionsTimed, 3));
        root.put("connections_opened", st.newConnections);
        root.put("distinct_connections", st.connections.size());
        root.put("requests_without_connection_id", st.withoutConnection);
        root.put("image_requests", sum("image_requests"));
        crossCheck(root, List.of("requests", "errors", "sessions_started", "sessions_completed", "sessions_aborted_at_end", "sessions_dropped_by_cap",
                "connections_opened"));

        ObjectNode rt = root.putObject("response_time_ms");
        for (String p : MergedStats.PHASES) {
            ObjectNode ph = st.byPhase.get(p).write(rt.putObject(p));
            ObjectNode states = ph.putObject("states");
            st.byPhaseState.get(p).forEach((state, c) -> c.write(states.putObject(state)));
        }
        ObjectNode all = st.overall.write(rt.putObject("overall"));
        ObjectNode allStates = all.putObject("states");
        st.byState.forEach((state, c) -> c.write(allStates.putObject(state)));

        root.set("client_health", health(st));
        ObjectNode merged = root.putObject("merged");
        merged.put("shard_count", list.size());
        merged.put("start_at", instant(first.startAtEpochNs()));
        merged.put("start_at_epoch_ns", first.startAtEpochNs());
        long minStart = Long.MAX_VALUE;
        long maxStart = Long.MIN_VALUE;
        ArrayNode arr = merged.putArray("shards");
        for (ShardInfo s : list) {
            ObjectNode o = arr.addObject();
            o.put("index", s.index());
            o.put("dir", s.dir().dir().toAbsolutePath().normalize().toString());
            o.put("status", s.summary().path("status").asText());
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
            warnings.add(String.format(Locale.ROOT, "the shards' runs started up to %.3f ms apart (limit %.0f ms; see merged.shards[].start_offset_ms): "
                    + "their schedules are offset by that much; start them with --start-at far enough ahead and keep the hosts' clocks in sync (NTP)",
                    spread, START_SPREAD_LIMIT_MS));
        }
        for (ShardInfo s : list) {
            long offset = s.runStartEpochNs() - s.startAtEpochNs();
            if (Math.abs(offset) > START_SPREAD_LIMIT_MS * 1e6) {
                warnings.add(String.format(Locale.ROOT, "shard %d began its run %.3f ms %s the start instant %s", s.index(), Math.abs(offset) / 1e6,
                        offset > 0 ? "after" : "before", instant(s.startAtEpochNs())));
            }
        }
        Set<String> w = new LinkedHashSet<>();
        for (ShardInfo s : list) {
            s.summary().path("warnings").forEach(x -> w.add(x.asText()));
        }
        w.addAll(warnings);
        ArrayNode wa = root.putArray("warnings");
        w.forEach(wa::add);
        return root;
    }

    /** The per-shard summary counts merge cannot see in the logs: their sum. */
    private long sum(String key) {
        return shards.shards().stream().mapToLong(s -> s.summary().path(key).asLong(0)).sum();
    }

    private void crossCheck(ObjectNode root, List<String> keys) {
        for (String k : keys) {
            long fromLogs = root.path(k).asLong();
            long fromSummaries = sum(k);
            if (fromLogs != fromSummaries) {
                warnings.add(k + ": " + fromLogs + " in the merged logs but " + fromSummaries + " in the shards' summaries added up"
                        + " (a shard's log lost records or was cut)");
            }
        }
    }

    private ObjectNode health(MergedStats st) {
        ObjectNode h = JSON.createObjectNode();
        List<ShardInfo> list = shards.shards();
        double cpuSeconds = 0;
        double runCpuSeconds = 0;
        double runSystemCpuSeconds = 0; // -1 once a shard did not measure it
        double cpuMean = 0;
        double cpuPeak = 0;
        long cores = 0;
        long gcCount = 0;
        long gcTime = 0;
        long gcPauses = 0;
        long gcPauseTotal = 0;
        long gcPausesLogged = 0;
        long gcMax = 0;
        long peakThreads = 0;
        long peakHeap = 0;
        List<String> suspects = new ArrayList<>();
        // The CPU split by thread role: summed when every shard measured it, else left out.
        java.util.Map<String, Double> byThread = new java.util.LinkedHashMap<>();
        boolean byThreadEverywhere = true;
        ArrayNode per = JSON.createArrayNode();
        for (ShardInfo s : list) {
            JsonNode x = s.summary().path("client_health");
            cpuSeconds += x.path("cpu_seconds").asDouble();
            runCpuSeconds += Math.max(0, x.path("run_cpu_seconds").asDouble());
            double sys = x.path("run_system_cpu_seconds").asDouble(-1);
            runSystemCpuSeconds = runSystemCpuSeconds < 0 || sys < 0 ? -1 : runSystemCpuSeconds + sys;
            JsonNode roles = x.path("run_cpu_seconds_by_thread");
            if (roles.isObject()) {
                roles.fields().forEachRemaining(e -> byThread.merge(e.getKey(), e.getValue().asDouble(), Double::sum));
            } else {
                byThreadEverywhere = false;
            }
            cpuMean += x.path("cpu_mean_cores").asDouble();
            cpuPeak += x.path("cpu_peak_cores").asDouble();
            cores += x.path("cores").asLong();
            gcCount += x.path("gc_count").asLong();
            gcTime += x.path("gc_time_ms").asLong();
            gcPauses += x.path("gc_pauses").asLong();
            gcPauseTotal += x.path("gc_pause_total_ms").asLong();
            gcPausesLogged += x.path("gc_pauses_logged").asLong(x.path("gc_pauses").asLong()); // older shards: all logged
            gcMax = Math.max(gcMax, x.path("gc_max_pause_ms").asLong());
            peakThreads = Math.max(peakThreads, x.path("peak_threads").asLong());
            peakHeap = Math.max(peakHeap, x.path("peak_heap_bytes").asLong());
            if (x.path("saturated").asBoolean()) {
                suspects.add("shard " + s.index() + ": " + x.path("verdict").asText());
            }
            ObjectNode o = per.addObject();
            o.put("index", s.index());
            o.set("client_health", x);
        }
        long n = st.requests();
        long runN = st.byPhase.get("run").count;
        h.put("cpu_mean_cores", MergedStats.round(cpuMean, 3));
        h.put("cpu_peak_cores", MergedStats.round(cpuPeak, 3));
        h.put("cpu_seconds", MergedStats.round(cpuSeconds, 3));
        h.put("cores", cores);
        h.put("cpu_us_per_request", n == 0 ? 0 : MergedStats.round(cpuSeconds * 1e6 / n, 1));
        h.put("run_cpu_seconds", MergedStats.round(runCpuSeconds, 3));
        h.put("run_cpu_us_per_request", runN == 0 ? 0 : MergedStats.round(runCpuSeconds * 1e6 / runN, 1));
        h.put("run_system_cpu_seconds", MergedStats.round(runSystemCpuSeconds, 3));
        h.put("run_system_cpu_us_per_request", runN == 0 || runSystemCpuSeconds < 0 ? -1 : MergedStats.round(runSystemCpuSeconds * 1e6 / runN, 1));
        if (byThreadEverywhere && !byThread.isEmpty() && runN > 0) {
            ObjectNode sec = h.putObject("run_cpu_seconds_by_thread");
            ObjectNode perRequest = h.putObject("run_cpu_us_per_request_by_thread");
            byThread.forEach((k, v) -> {
                sec.put(k, MergedStats.round(v, 3));
                perRequest.put(k, MergedStats.round(v * 1e6 / runN, 2));
            });
        }
        h.put("gc_count", gcCount);
        h.put("gc_time_ms", gcTime);
        h.put("gc_pauses", gcPauses);
        h.put("gc_pause_total_ms", gcPauseTotal);
        h.put("gc_pauses_logged", gcPausesLogged);
        h.put("gc_max_pause_ms", gcMax);
        h.put("peak_threads", peakThreads);
        h.put("peak_heap_bytes", peakHeap);
        h.put("max_heap_bytes", list.stream().mapToLong(s -> s.summary().path("client_health").path("max_heap_bytes").asLong()).max().orElse(0));
        ObjectNode late = h.putObject("send_lateness_ms");
        st.lateness.percentiles(late);
        late.put("max", MergedStats.round(st.lateness.max / 1e6, 3));
        st.runLateness.percentiles(h.putObject("run_send_lateness_ms"));
        if ("hybrid".equals(shards.first().arrivals())) {
            st.sessionStartLateness.percentiles(h.putObject("session_start_lateness_ms"));
        }
        h.put("saturated", !suspects.isEmpty());
        h.put("verdict", suspects.isEmpty()
                ? "OK: no shard's client was the bottleneck (every shard kept its schedule and was not CPU-bound)."
                : "SUSPECT: " + String.join(" | ", suspects));
        h.put("sums_over_shards", "cpu_*, cores, gc_count, gc_time_ms, gc_pauses, gc_pause_total_ms, gc_pauses_logged are sums over the shards' hosts; "
                + "gc_max_pause_ms, peak_threads, peak_heap_bytes the largest of any shard");
        h.set("shards", per);
        return h;
    }

    private static String instant(long epochNs) {
        return Instant.ofEpochSecond(Math.floorDiv(epochNs, 1_000_000_000L), Math.floorMod(epochNs, 1_000_000_000L)).toString();
    }
}
