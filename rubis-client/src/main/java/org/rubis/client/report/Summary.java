package org.rubis.client.report;

import org.rubis.format.AtomicFile;
import org.rubis.format.Phase;
import org.rubis.format.RunFiles;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ExecutionModel;
import org.rubis.client.workload.Interaction;

/**
 * The end-of-run summary: the original client's per-phase, per-state table (count, errors, mean,
 * min, max) plus percentiles, sessions, throughput, connections, client health with a plain-words
 * verdict, and the exact JVM. Written as {@code summary.json} and {@code summary.txt}.
 */
public final class Summary {

    /** p99 send lateness above this means the client could not keep its own schedule. */
    public static final double LATENESS_LIMIT_MS = Verdict.LATENESS_LIMIT_MS;

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final ClientConfig config;
    private final Path dir;
    private final ObjectNode root = JSON.createObjectNode();
    private final List<String> extraWarnings = new ArrayList<>();
    private String text;
    private final StringBuilder sectionsText = new StringBuilder();

    public Summary(ClientConfig config, RunResult result, RunStats stats, ClientHealth health) {
        this(config, result, stats, health, null);
    }

    /**
     * @param accuracy the capture's client-minus-wire error when the run had a packet capture (the
     *                 wire check of {@code run --capture}), else null: the verdict then says accuracy
     *                 was not measured
     */
    public Summary(ClientConfig config, RunResult result, RunStats stats, ClientHealth health, org.rubis.analysis.wire.WireAccuracy accuracy) {
        this.config = config;
        this.dir = result.dir();
        String stopReason = result.stopReason();
        boolean invalid = result.invalid();
        LatencyCell overall = stats.overall();
        LatencyCell run = stats.phaseTotal(Phase.RUN);
        long served = overall.count() - overall.errors();
        boolean died = stopReason != null && stopReason.startsWith("target died");
        // A run in which no request succeeded measured nothing, whatever else it says.
        // (Sessions that began but none of whose requests finished, e.g. all stuck in a request at the end, count too.)
        // So did one that ran to its end without sending any: no session began (a run shorter than the users' first think
        // time, or arrivals too rare for its length).
        boolean nothingSent = overall.count() == 0 && result.sessionsStarted() == 0 && result.complete();
        boolean failed = !died && served == 0 && (overall.count() > 0 || result.sessionsStarted() > 0 || nothingSent);
        if (failed && nothingSent) {
            stopReason = "no request was sent: no session began before the run's end (" + (config.arrivals() == org.rubis.client.config.Arrivals.CLOSED
                    ? (config.users() == 1 ? "1 user, waiting" : config.users() + " users, each waiting") + " a think time before its first session" : "no session arrived in time")
                    + "): lengthen the run (--duration, --ramp-up), or add users or arrivals";
        } else if (failed) {
            stopReason = "no request succeeded (" + (overall.count() > 0 ? overall.count() + " requests, all errors"
                    : "none finished; " + result.sessionsStarted() + " sessions began") + ")"
                    + (stopReason == null || stopReason.equals("complete") ? "" : "; " + stopReason);
        }
        boolean complete = result.complete() && !failed;
        String status = died ? "target-died" : invalid ? "invalid" : failed ? "failed" : complete ? "complete" : "partial";
        root.put("status", status);
        root.put("partial", !complete);
        root.put("stop_reason", stopReason == null ? "complete" : stopReason);
        root.put("started_at", Instant.ofEpochSecond(0, result.startEpochNs()).toString());
        root.put("run_dir", dir.toAbsolutePath().toString());
        root.put("properties", config.source());
        root.put("target", config.target());
        root.put("seed", config.seed());
        root.put("config_sha256", config.configSha256());
        org.rubis.client.config.ShardPlan plan = result.shard();
        if (plan.shard()) {
            ObjectNode sh = root.putObject("shard");
            sh.put("index", plan.index());
            sh.put("count", plan.count());
            sh.put("start_at", plan.startAt().toString());
            sh.put("start_at_epoch_ns", plan.startAt().getEpochSecond() * 1_000_000_000L + plan.startAt().getNano());
            if (plan.host() != null) {
                sh.put("host", plan.host());
            }
        }
        ObjectNode clock = root.putObject("clock");
        clock.put("anchor_epoch_ns", result.anchorEpochNs());
        clock.put("anchor_bracket_ns", result.anchorBracketNs());
        clock.put("run_start_epoch_ns", result.runStartEpochNs());
        root.put("backend", result.backend());
        root.put("threads", result.execution() == ExecutionModel.EVENT_LOOPS ? "event-loop" : config.execution().threads().label());
        root.put("execution", result.execution().label());
        root.put("arrivals", config.arrivals().label());
        root.put("arrival_process", result.arrivals());
        root.put("users", config.users());
        root.put("users_started", result.usersStarted());
        root.put("transition_table", config.workload().table().name());
        root.put("transition_mode", config.workload().mode().name().toLowerCase(Locale.ROOT));
        root.put("think_scale", config.thinkScale());
        ObjectNode phases = root.putObject("phases_ms");
        phases.put(Phase.UP.label(), config.upRampMs());
        phases.put(Phase.RUN.label(), config.runMs());
        phases.put(Phase.DOWN.label(), config.downRampMs());

        root.put("requests", overall.count());
        root.put("requests_served", served);
        root.put("errors", overall.errors());
        ObjectNode byClass = root.putObject("errors_by_class");
        stats.errorsByClass().forEach(byClass::put);
        root.put("requests_logged", result.logged());
        root.put("records_lost", result.lost());
        // Served requests (a reply that is not an error) per second of the run phase actually run.
        root.put("throughput_rps", round((run.count() - run.errors()) / Math.max(1e-9, result.runSeconds()), 3));
        root.put("attempted_rps", round(run.count() / Math.max(1e-9, result.runSeconds()), 3));
        root.put("run_seconds", round(result.runSeconds(), 3));

        Map<String, Long> ends = stats.sessionEnds();
        long completed = ends.getOrDefault("end_of_session", 0L) + ends.getOrDefault("max_transitions", 0L);
        root.put("sessions_started", result.sessionsStarted());
        root.put("sessions_completed", completed);
        root.put("sessions_aborted_at_end", ends.getOrDefault("run_ended", 0L));
        root.put("sessions_stuck_at_end", ends.getOrDefault("stuck", 0L));
        // Every session that began has one line in sessions.csv: the end reasons sum to sessions_started.
        root.put("sessions_logged", ends.entrySet().stream().filter(e -> !e.getKey().equals("dropped")).mapToLong(Map.Entry::getValue).sum());
        root.put("sessions_delayed_by_cap", result.sessionsDelayed());
        root.put("sessions_dropped_by_cap", result.sessionsDropped());
        root.put("peak_active_sessions", result.peakActive());
        root.put("mean_session_s", round(stats.meanSessionSeconds(), 3));
        root.put("connections_opened", stats.newConnections());
        root.put("retried_requests", stats.retried());
        ObjectNode ep = root.putObject("error_page_bound");
        ep.put("pages_without_think", config.workload().errorPagesWithoutThink());
        ep.put("think_times_added", stats.errorPageThinks());
        ep.put("sessions", stats.errorPageThinkSessions());
        root.put("distinct_connections", stats.distinctConnections());
        root.put("requests_without_connection_id", stats.requestsWithoutConnectionId());
        root.put("image_requests", stats.imageRequests());

        Stationarity st = Stationarity.of(config.arrivals() == org.rubis.client.config.Arrivals.CLOSED ? result.usersStarted() : 0,
                stats.runWindows(result.runSeconds()), stats.runWindowSeconds(), run.meanMs() / 1e3, stats.runThinkMoments());
        ObjectNode sj = root.putObject("stationarity");
        sj.put("steady", st.steady());
        sj.put("verdict", st.judgement().label());
        if (!st.judged()) {
            sj.put("not_judged_reason", st.notJudgedReason());
        }
        if (!Double.isNaN(st.littleRatio())) {
            sj.put("little_ratio", round(st.littleRatio(), 4));
            sj.put("little_ratio_se", round(st.littleSe(), 4));
            sj.put("little_low", round(st.littleLow(), 4));
            sj.put("little_high", round(st.littleHigh(), 4));
        }
        sj.put("mean_think_s", round(stats.meanRunThinkSeconds(), 4));
        sj.put("trend_rps_per_s", round(st.slopePerS(), 4));
        sj.put("trend_ci99_low", round(st.slopeLow(), 4));
        sj.put("trend_ci99_high", round(st.slopeHigh(), 4));
        sj.put("first_half_rps", round(st.firstHalfRps(), 3));
        sj.put("second_half_rps", round(st.secondHalfRps(), 3));
        sj.put("windows", st.windows());
        sj.put("ramp_mode", config.rampMode().label());
        sj.put("text", st.describe());
        if (st.warning() != null) {
            extraWarnings.add(st.warning());
        }

        ObjectNode rt = root.putObject("response_time_ms");
        for (Phase p : Phase.values()) {
            ObjectNode ph = cell(rt.putObject(p.label()), stats.phaseTotal(p));
            ObjectNode states = ph.putObject("states");
            for (Interaction i : Interaction.values()) {
                LatencyCell c = stats.cell(p, i);
                if (c.count() > 0) {
                    cell(states.putObject(i.label()), c);
                }
            }
        }
        ObjectNode all = cell(rt.putObject("overall"), overall);
        ObjectNode allStates = all.putObject("states");
        for (Interaction i : Interaction.values()) {
            LatencyCell c = stats.stateTotal(i);
            if (c.count() > 0) {
                cell(allStates.putObject(i.label()), c);
            }
        }

        // The same requests from the intended send instant (coordinated omission corrected).
        ObjectNode fi = root.putObject("response_time_from_intended_ms");
        for (Phase p : Phase.values()) {
            cell(fi.putObject(p.label()), stats.fromIntended(p));
        }
        cell(fi.putObject("overall"), stats.overallFromIntended());

        // Client health and the verdict.
        ObjectNode h = root.putObject("client_health");
        Histogram late = stats.lateness();
        // The verdict is about the measurement: the run phase (the whole run if it has none), read as run_send_lateness_ms is.
        double p99Late = stats.judgedLatenessMs(99);
        h.put("cpu_mean_cores", round(health.meanCpuCores(), 3));
        // The peak comes from the per-second samples; a run too short (or out of heap) for one has none.
        h.put("cpu_peak_cores", health.peakCpuCores() < health.meanCpuCores() ? -1 : round(health.peakCpuCores(), 3));
        h.put("cpu_seconds", round(health.cpuSeconds(), 3));
        h.put("cores", health.cores());
        h.put("cpu_us_per_request", overall.count() == 0 ? 0 : round(health.cpuSeconds() * 1e6 / overall.count(), 1));
        // The run phase alone: no JIT warm-up, no start-up (what the benchmarks compare).
        h.put("run_cpu_seconds", round(health.runCpuSeconds(), 3));
        h.put("run_cpu_cores", round(health.runCpuCores(), 3));
        h.put("run_cpu_us_per_request", run.count() == 0 || health.runCpuSeconds() < 0 ? 0 : round(health.runCpuSeconds() * 1e6 / run.count(), 1));
        // Of that, the kernel's part (10 ms ticks of /proc: meaningful over seconds of a busy run phase, -1 when unknown).
        h.put("run_system_cpu_seconds", round(health.runSystemCpuSeconds(), 3));
        h.put("run_system_cpu_us_per_request", run.count() == 0 || health.runSystemCpuSeconds() < 0 ? -1
                : round(health.runSystemCpuSeconds() * 1e6 / run.count(), 1));
        // Of the whole, each kind of thread's part (event loops or user threads, the log writer, the JIT, GC): absent when not measured.
        Map<ThreadRole, Double> byRole = health.runCpuSecondsByRole();
        if (!byRole.isEmpty() && run.count() > 0) {
            ObjectNode sec = h.putObject("run_cpu_seconds_by_thread");
            ObjectNode per = h.putObject("run_cpu_us_per_request_by_thread");
            byRole.forEach((r, seconds) -> {
                sec.put(r.key(), round(seconds, 3));
                per.put(r.key(), round(seconds * 1e6 / run.count(), 2));
            });
            // Threads that ended before the phase's end (thread-per-user threads leaving at the end of a run with no down
            // ramp, hybrid sessions' threads) are in the process's total only: their part is the remainder, when it is
            // more than the process figure's 10 ms ticks can explain.
            double rest = health.runCpuSeconds() - byRole.values().stream().mapToDouble(Double::doubleValue).sum();
            if (rest > Math.max(ENDED_THREADS_MIN_SECONDS, 0.05 * health.runCpuSeconds())) {
                sec.put(ENDED_THREADS, round(rest, 3));
                per.put(ENDED_THREADS, round(rest * 1e6 / run.count(), 2));
            }
        }
        // The fixed cost (what the idle client burns per second) and the CPU of a request once it is
        // taken out: at low rates the ratios above are mostly the fixed cost spread over few requests.
        FixedCost fixed = health.fixedCost();
        h.put("fixed_cpu_cores", fixed.measured() ? round(fixed.cores(), 4) : -1);
        h.put("fixed_cpu_cores_error", fixed.measured() ? round(fixed.errorCores(), 4) : -1);
        h.put("fixed_cpu_window_s", round(fixed.windowNs() / 1e9, 3));
        h.put("fixed_cpu_window_start_epoch_ms", fixed.startEpochMs());
        h.put("fixed_cpu_window_end_epoch_ms", fixed.endEpochMs());
        h.put("fixed_cpu_method", fixed.measured() ? FixedCost.METHOD : "not measured");
        h.put("request_cpu_us", round(fixed.perRequestUs(health.cpuSeconds(), health.seconds(), overall.count()), 1));
        h.put("run_request_cpu_us", round(fixed.perRequestUs(health.runCpuSeconds(), health.runSeconds(), run.count()), 1));
        GcTotals gc = health.gc();
        GcPauses.Figures pauses = health.gcPauses(); // count, total and longest from the notifications (GcPauses)
        h.put("gc_count", pauses.collections());
        h.put("gc_time_ms", gc.timeMs());
        h.put("gc_pauses", pauses.pauses());
        h.put("gc_pause_total_ms", pauses.totalMs());
        h.put("gc_max_pause_ms", pauses.longestMs());
        h.put("gc_pauses_logged", pauses.notified());
        h.put("gc_window_start_epoch_ms", health.gcWindowStartEpochMs());
        h.put("gc_window_end_epoch_ms", health.gcWindowEndEpochMs());
        h.put("peak_threads", health.peakThreads());
        h.put("peak_heap_bytes", health.peakHeapBytes());
        h.put("max_heap_bytes", health.maxHeapBytes());
        ObjectNode ln = h.putObject("send_lateness_ms");
        percentiles(ln, late, stats.maxLatenessNs());
        ln.put("max", round(stats.maxLatenessNs() / 1e6, 3));
        ObjectNode runLate = h.putObject("run_send_lateness_ms");
        percentiles(runLate, stats.runLateness(), stats.runMaxLatenessNs());
        runLate.put("max", round(stats.runMaxLatenessNs() / 1e6, 3));
        if (config.arrivals() == org.rubis.client.config.Arrivals.HYBRID) {
            percentiles(h.putObject("session_start_lateness_ms"), stats.sessionStartLateness(), Long.MAX_VALUE);
        }
        putKnown(h, "host_other_cpu_cores", health.hostOtherCpuCores(), 3);
        putKnown(h, "host_other_cpu_peak_cores", health.peakHostOtherCpuCores(), 3);
        putKnown(h, "host_steal_cores", health.hostStealCores(), 3);
        putKnown(h, "host_procs_running_mean", health.procsRunningMean(), 2);
        putKnown(h, "server_cpu_cores", health.serverCpuCores(), 3);
        putKnown(h, "wakeup_late_p99_ms", health.wakeupLateP99Ms(), 3);
        Verdict verdict = Verdict.of(new Verdict.Evidence(health.cores(), health.meanCpuCores(), pauses.longestMs(), p99Late,
                health.wakeupLateP99Ms(), health.hostOtherCpuCores(), health.hostStealCores(), health.procsRunningMean(), health.serverCpuCores(),
                health.watchesServer()), accuracy);
        h.put("saturated", verdict.causes().contains(Verdict.Cause.CLIENT));
        var causes = h.putArray("causes");
        verdict.causes().forEach(c -> causes.add(c.name()));
        h.put("accuracy_measured", accuracy != null);
        h.put("verdict", invalid || failed || died ? "INVALID: the run did not measure the target (" + stopReason + ")" : verdict.text());
        root.set("jvm", jvm());
        Path serverStats = RunFiles.serverStats(dir);
        if (Files.isRegularFile(serverStats)) {
            try {
                root.set("server", JSON.readTree(serverStats.toFile()));
            } catch (IOException e) {
                root.put("server", "unreadable: " + e.getMessage());
            }
        }
        var w = root.putArray("warnings");
        config.warnings().forEach(w::add);
        jvmWarnings(config.users(), config.arrivals() == org.rubis.client.config.Arrivals.CLOSED).forEach(w::add);
        if (plan.count() > 1) {
            int cap = config.arrival().maxConcurrentSessions();
            if (config.arrivals() == org.rubis.client.config.Arrivals.HYBRID && cap > 0) {
                w.add("shard " + plan.index() + " of " + plan.count() + " applied " + plan.capShare(cap) + " of the cap of " + cap
                        + " concurrent sessions: delays and drops by the cap are this shard's, not those of one process");
            }
            if (config.execution().backend() == org.rubis.client.config.BackendKind.LEGACY
                    || config.execution().backend() == org.rubis.client.config.BackendKind.POOLED) {
                w.add("the " + result.backend() + " backend shares connections among the users of one process: over " + plan.count()
                        + " shards the connection counts are not those of one process (dedicated and netty are unaffected)");
            }
        }
        w.forEach(x -> { if (!config.warnings().contains(x.asText())) { extraWarnings.add(x.asText()); } });
        this.text = renderText(stats, late);
    }

    /**
     * Adds a section built after the logs closed (the wire check): its object, its text block, the
     * accuracy verdict it measured and, when it publishes other times, those times in place of the
     * client's, which are kept as {@code response_time_ms_client}.
     */
    public void add(SummarySection section) {
        root.set(section.key(), section.json());
        if (section.accuracyVerdict() != null) {
            root.put("accuracy_verdict", section.accuracyVerdict());
        }
        JsonNode published = section.publishedResponseTimes();
        if (published != null) {
            root.set("response_time_ms_client", root.get("response_time_ms"));
            root.set("response_time_ms", published);
            root.put("response_time_clock", section.publishedClock());
            this.text = renderText(null, null);
        }
        sectionsText.append('\n').append(section.text());
    }

    static ObjectNode cell(ObjectNode n, LatencyCell c) {
        n.put("count", c.count());
        n.put("errors", c.errors());
        n.put("mean", round(c.meanMs(), 3));
        n.put("min", round(c.minMs(), 3));
        n.put("max", round(c.maxMs(), 3));
        n.put("p50", round(c.percentileMs(50), 3));
        n.put("p90", round(c.percentileMs(90), 3));
        n.put("p99", round(c.percentileMs(99), 3));
        n.put("p99_9", round(c.percentileMs(99.9), 3));
        return n;
    }

    public static boolean interpretedOnly() {
        return String.valueOf(System.getProperty("java.vm.info")).contains("interpreted");
    }

    /** Rule of thumb from our capacity runs: below this much heap per emulated user, expect GC trouble. */
    public static final long HEAP_PER_USER_BYTES = 24 * 1024;

    /** Warnings about the JVM itself, given at the start of a run and kept in the summary. */
    public static List<String> jvmWarnings(int users, boolean closed) {
        List<String> w = new ArrayList<>();
        if (interpretedOnly()) {
            w.add("this JVM runs interpreted only (-Xint): the client's CPU per request is many times higher and its response times may be inflated");
        }
        long max = Runtime.getRuntime().maxMemory();
        if (closed && max < (long) users * HEAP_PER_USER_BYTES) {
            w.add(String.format(Locale.ROOT, "the heap (%d MiB) is small for %d users (%d KiB each); expect GC pauses or OutOfMemoryError", max >> 20, users,
                    max / Math.max(1, users) >> 10));
        }
        return w;
    }

    /** Percentiles by the shared rule ({@link org.rubis.format.Percentiles}), never above {@code maxNs} (the exact max, when known). */
    private static void percentiles(ObjectNode n, Histogram h, long maxNs) {
        n.put("count", h.getTotalCount());
        n.put("p50", round(org.rubis.format.Percentiles.valueAtMs(h, 50, 0, maxNs), 3));
        n.put("p90", round(org.rubis.format.Percentiles.valueAtMs(h, 90, 0, maxNs), 3));
        n.put("p99", round(org.rubis.format.Percentiles.valueAtMs(h, 99, 0, maxNs), 3));
        n.put("p99_9", round(org.rubis.format.Percentiles.valueAtMs(h, 99.9, 0, maxNs), 3));
    }

    private static ObjectNode jvm() {
        ObjectNode j = JSON.createObjectNode();
        j.put("java", ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java"));
        j.put("vendor", System.getProperty("java.vendor"));
        j.put("version", Runtime.version().toString());
        j.put("vm", System.getProperty("java.vm.name") + " (" + System.getProperty("java.vm.info") + ")");
        j.put("interpreted_only", interpretedOnly());
        j.put("profile", System.getProperty("rubis.jvm.profile", "(this JVM, no profile)"));
        j.put("max_heap_bytes", Runtime.getRuntime().maxMemory());
        var gcs = j.putArray("gc");
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcs.add(gc.getName());
        }
        var flags = j.putArray("flags");
        ManagementFactory.getRuntimeMXBean().getInputArguments().forEach(flags::add);
        j.put("available_processors", Runtime.getRuntime().availableProcessors());
        return j;
    }

    private String renderText(RunStats stats, Histogram late) {
        StringBuilder b = new StringBuilder(8192);
        b.append("RUBiS client run summary\n========================\n");
        line(b, "status", root.get("status").asText() + (root.get("partial").asBoolean() ? " (" + root.get("stop_reason").asText() + ")" : ""));
        line(b, "run directory", root.get("run_dir").asText());
        line(b, "target", config.target() + (root.has("server") ? " (embedded " + root.path("server").path("model").asText() + " server)" : ""));
        line(b, "workload", root.get("arrival_process").asText() + "; table " + root.get("transition_table").asText()
                + " (" + root.get("transition_mode").asText() + ")");
        line(b, "backend", root.get("backend").asText() + ", " + root.get("execution").asText() + "; seed " + root.get("seed").asText());
        line(b, "requests", root.get("requests").asLong() + " (" + root.get("errors").asLong() + " errors" + errorClasses() + ")");
        line(b, "throughput (run phase)", root.get("throughput_rps").asDouble() + " requests/s");
        JsonNode stj = root.get("stationarity");
        line(b, "run phase steady", stationarityLine(stj));
        line(b, "sessions", root.get("sessions_started").asLong() + " started, " + root.get("sessions_completed").asLong() + " completed, "
                + root.get("sessions_aborted_at_end").asLong() + " cut by the end of the run"
                + (root.get("sessions_stuck_at_end").asLong() > 0 ? ", " + root.get("sessions_stuck_at_end").asLong()
                        + " stuck in a request when the run stopped waiting" : "") + "; mean session " + root.get("mean_session_s").asDouble() + " s"
                + (root.get("sessions_dropped_by_cap").asLong() > 0 ? "; " + root.get("sessions_dropped_by_cap").asLong() + " dropped by the cap" : "")
                + (root.get("sessions_delayed_by_cap").asLong() > 0 ? "; " + root.get("sessions_delayed_by_cap").asLong() + " delayed by the cap" : ""));
        JsonNode ep = root.get("error_page_bound");
        if (ep.get("think_times_added").asLong() > 0) {
            line(b, "ERROR pages", ep.get("think_times_added").asLong() + " think times added in " + ep.get("sessions").asLong() + " sessions, after "
                    + ep.get("pages_without_think").asInt() + " ERROR pages in a row sent users back to Home at once "
                    + "(workload_max_error_pages_without_think)");
        }
        line(b, "connections (client)", root.get("connections_opened").asLong() + " opened, " + root.get("distinct_connections").asLong() + " distinct"
                + (root.path("retried_requests").asLong() > 0 ? "; " + root.path("retried_requests").asLong()
                        + " requests resent on a new connection (no response on a reused one)" : ""));
        if (root.has("server") && root.get("server").isObject()) {
            JsonNode s = root.get("server");
            line(b, "server ground truth", s.path("requests").asLong() + " requests, " + s.path("connections_accepted").asLong()
                    + " connections accepted, at most " + s.path("max_concurrent_connections").asLong() + " at once, "
                    + s.path("requests_per_connection").path("mean").asText() + " requests per connection (max "
                    + s.path("requests_per_connection").path("max").asText() + ")");
        }
        for (String p : new String[] {Phase.UP.label(), Phase.RUN.label(), Phase.DOWN.label(), "overall"}) {
            JsonNode ph = root.get("response_time_ms").get(p);
            if (ph.get("count").asLong() == 0) {
                continue;
            }
            Phase phase = Phase.parse(p);
            b.append('\n').append(phase == null ? "Overall" : phase.title()).append(" - response time in ms")
             .append(root.has("response_time_clock") ? " (clock: " + root.get("response_time_clock").asText() + ")" : "").append('\n');
            b.append(String.format(Locale.ROOT, "  %-26s %8s %6s %9s %9s %9s %9s %9s %9s %9s%n", "state", "count", "errors", "mean", "min", "max",
                    "p50", "p90", "p99", "p99.9"));
            ph.get("states").fields().forEachRemaining(e -> row(b, e.getKey(), e.getValue()));
            row(b, "TOTAL", ph);
        }
        JsonNode fromIntended = root.get("response_time_from_intended_ms");
        if (fromIntended != null) {
            b.append("\nResponse time from the intended send instant in ms (the schedule; corrected for coordinated omission;"
                    + " the tables above are service times, from the actual send)\n");
            b.append(String.format(Locale.ROOT, "  %-26s %8s %6s %9s %9s %9s %9s %9s %9s %9s%n", "phase", "count", "errors", "mean", "min", "max",
                    "p50", "p90", "p99", "p99.9"));
            for (String p : new String[] {Phase.UP.label(), Phase.RUN.label(), Phase.DOWN.label(), "overall"}) {
                JsonNode ph = fromIntended.get(p);
                if (ph != null && ph.get("count").asLong() > 0) {
                    row(b, p, ph);
                }
            }
        }
        JsonNode h = root.get("client_health");
        b.append("\nClient health\n");
        line(b, "CPU", String.format(Locale.ROOT, "%.2f cores mean, %s peak (of %d); run phase %.2f cores",
                h.get("cpu_mean_cores").asDouble(), h.get("cpu_peak_cores").asDouble() < 0 ? "n/a" : String.format(Locale.ROOT, "%.2f",
                        h.get("cpu_peak_cores").asDouble()), h.get("cores").asInt(), h.get("run_cpu_cores").asDouble()));
        line(b, "CPU cost", cpuCost(h));
        if (h.has("run_cpu_us_per_request_by_thread")) {
            line(b, "CPU by thread", byThread(h.get("run_cpu_us_per_request_by_thread")));
        }
        long missed = h.get("gc_pauses").asLong() - h.path("gc_pauses_logged").asLong(h.get("gc_pauses").asLong());
        line(b, "GC", GcPauses.Figures.describe(h.get("gc_count").asLong(), h.get("gc_pauses").asLong(), h.get("gc_pause_total_ms").asLong(),
                h.get("gc_max_pause_ms").asLong(), missed));
        line(b, "threads / heap", h.get("peak_threads").asInt() + " peak threads; heap peak " + h.get("peak_heap_bytes").asLong() / (1 << 20)
                + " MiB of " + h.get("max_heap_bytes").asLong() / (1 << 20) + " MiB");
        JsonNode ln = h.get("send_lateness_ms");
        line(b, "send lateness (ms)", "p50 " + ln.get("p50").asDouble() + ", p90 " + ln.get("p90").asDouble() + ", p99 " + ln.get("p99").asDouble()
                + ", p99.9 " + ln.get("p99_9").asDouble() + ", max " + ln.get("max").asDouble());
        b.append("  ").append(h.get("verdict").asText()).append('\n');
        if (!config.warnings().isEmpty() || !extraWarnings.isEmpty()) {
            b.append("\nWarnings\n");
            config.warnings().forEach(x -> b.append("  ").append(x).append('\n'));
            extraWarnings.forEach(x -> b.append("  ").append(x).append('\n'));
        }
        return b.toString();
    }

    /** The verdict in words, then the figures ({@code text} already says "not judged (why)" when not judged). */
    static String stationarityLine(JsonNode stj) {
        String verdict = stj.path("verdict").asText(stj.path("steady").asBoolean() ? "steady" : "not-steady");
        String prefix = switch (verdict) {
            case "steady" -> "yes: ";
            case "not-judged" -> "";
            default -> "NO: ";
        };
        return prefix + stj.path("text").asText();
    }

    private String errorClasses() {
        StringBuilder b = new StringBuilder();
        root.get("errors_by_class").fields().forEachRemaining(e -> b.append(b.isEmpty() ? ": " : ", ").append(e.getKey()).append(' ').append(e.getValue().asLong()));
        return b.toString();
    }

    private static void row(StringBuilder b, String name, JsonNode c) {
        b.append(String.format(Locale.ROOT, "  %-26s %8d %6d %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f%n", name, c.get("count").asLong(),
                c.get("errors").asLong(), c.get("mean").asDouble(), c.get("min").asDouble(), c.get("max").asDouble(), c.get("p50").asDouble(),
                c.get("p90").asDouble(), c.get("p99").asDouble(), c.get("p99_9").asDouble()));
    }

    private static void line(StringBuilder b, String k, String v) {
        b.append(String.format(Locale.ROOT, "%-24s %s%n", k + ":", v));
    }

    /** A figure that may be unknown (NaN): null in the JSON. */
    private static void putKnown(ObjectNode n, String key, double v, int digits) {
        if (Double.isNaN(v)) {
            n.putNull(key);
        } else {
            n.put(key, round(v, digits));
        }
    }

    private static double round(double v, int digits) {
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }

    /** The essentials of an invalid run, written with plain strings when the heap is exhausted. */
    public static void writeMinimal(Path dir, String reason, long seed, String backend, int usersStarted, long logged, long lost,
                                    ClientHealth health) {
        String r = reason.replace("\\", "/").replace("\"", "'");
        String gc = minimalGc(health);
        String json = "{\n  \"status\": \"invalid\",\n  \"partial\": true,\n  \"stop_reason\": \"" + r + "\",\n  \"seed\": " + seed
                + ",\n  \"backend\": \"" + backend + "\",\n  \"users_started\": " + usersStarted + ",\n  \"requests\": " + logged
                + ",\n  \"requests_logged\": " + logged + ",\n  \"records_lost\": " + lost + ",\n  \"errors\": -1,\n  \"sessions_completed\": -1"
                + ",\n  \"jvm\": {\"max_heap_bytes\": " + Runtime.getRuntime().maxMemory() + "},\n  \"client_health\": {\"saturated\": true, "
                + "\"verdict\": \"INVALID: the client ran out of heap\"" + gc + "}\n}\n";
        try {
            AtomicFile.writeString(dir.resolve("summary.json"), json);
            AtomicFile.writeString(dir.resolve("summary.txt"), "RUBiS client run summary\nstatus: invalid (" + r + ")\nrequests logged: " + logged + "\n");
        } catch (IOException e) {
            System.err.println("error: cannot write " + dir.resolve("summary.json") + ": " + e.getMessage());
        }
    }

    /** The collectors' totals for the minimal summary (what the heap went to), or "" without a monitor or heap. */
    private static String minimalGc(ClientHealth health) {
        if (health == null) {
            return "";
        }
        try {
            GcTotals g = health.gc();
            GcPauses.Figures p = health.gcPauses();
            return ", \"gc_count\": " + p.collections() + ", \"gc_time_ms\": " + g.timeMs() + ", \"gc_pauses\": " + p.pauses()
                    + ", \"gc_pause_total_ms\": " + p.totalMs() + ", \"gc_max_pause_ms\": " + p.longestMs() + ", \"gc_pauses_logged\": " + p.notified()
                    + ", \"gc_window_start_epoch_ms\": " + health.gcWindowStartEpochMs() + ", \"gc_window_end_epoch_ms\": "
                    + health.gcWindowEndEpochMs();
        } catch (OutOfMemoryError e) {
            return "";
        }
    }

    /** Writes summary.json, then summary.txt, each whole or not at all (AtomicFile): a kill leaves no torn summary. */
    public void write() throws IOException {
        AtomicFile.writeString(dir.resolve("summary.json"), JSON.writeValueAsString(root));
        AtomicFile.writeString(dir.resolve("summary.txt"), text());
    }

    public String text() {
        if (sectionsText.isEmpty()) {
            return text;
        }
        String accuracy = root.has("accuracy_verdict") ? "\nAccuracy: " + root.get("accuracy_verdict").asText() + "\n" : "";
        return text + sectionsText + accuracy;
    }

    public JsonNode json() {
        return root;
    }

    /** True when the verdict names the client as a cause. */
    public boolean saturated() {
        return root.path("client_health").path("saturated").asBoolean();
    }

    /** The key of the remainder: CPU of threads that ended during the run phase (the process's total minus the roles'). */
    static final String ENDED_THREADS = "ended_threads";
    /** Two of the process CPU's 10 ms ticks: a smaller remainder is the figure's own error. */
    private static final double ENDED_THREADS_MIN_SECONDS = 0.02;

    /** The run phase's CPU per request by thread role, roles that did not run left out. */
    public static String byThread(JsonNode per) {
        StringBuilder b = new StringBuilder();
        for (ThreadRole r : ThreadRole.values()) {
            double us = per.path(r.key()).asDouble(0);
            if (us > 0) {
                b.append(b.isEmpty() ? "" : ", ").append(r.label()).append(' ').append(String.format(Locale.ROOT, "%.2f", us));
            }
        }
        if (per.has(ENDED_THREADS)) {
            b.append(b.isEmpty() ? "" : ", ").append("threads that ended before the phase's end ")
                    .append(String.format(Locale.ROOT, "%.2f", per.get(ENDED_THREADS).asDouble()));
        }
        return (b.isEmpty() ? "none" : b) + " us per run-phase request";
    }

    /** Fixed and per-request CPU apart (the gross ratio includes the fixed cost: misleading at low rates). */
    private static String cpuCost(JsonNode h) {
        double fixed = h.path("fixed_cpu_cores").asDouble(-1);
        double gross = h.get("run_cpu_us_per_request").asDouble();
        if (fixed < 0) {
            return String.format(Locale.ROOT, "fixed cost not measured; %.1f us CPU per run-phase request (fixed cost included)", gross);
        }
        double perRequest = h.path("run_request_cpu_us").asDouble(-1);
        double kernel = h.path("run_system_cpu_us_per_request").asDouble(-1);
        return String.format(Locale.ROOT, "fixed %.4f +- %.4f cores (idle %.1f s before the first request) + %s us per request in the run phase"
                + " (%.1f us with the fixed cost spread over the requests%s)", fixed, h.path("fixed_cpu_cores_error").asDouble(),
                h.path("fixed_cpu_window_s").asDouble(), perRequest < 0 ? "n/a" : String.format(Locale.ROOT, "%.1f", perRequest), gross,
                kernel < 0 ? "" : String.format(Locale.ROOT, ", %.1f of them in the kernel", kernel));
    }
}
