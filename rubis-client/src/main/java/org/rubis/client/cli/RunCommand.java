package org.rubis.client.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.rubis.client.assertion.Assertion;
import org.rubis.client.assertion.AssertionCheck;
import org.rubis.client.config.Arrivals;
import org.rubis.client.config.BackendKind;
import org.rubis.client.config.CapPolicy;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.Durations;
import org.rubis.client.config.GivenOption;
import org.rubis.client.config.Interarrival;
import org.rubis.client.config.JitWarmupPolicy;
import org.rubis.client.config.LeavePolicy;
import org.rubis.client.config.PublishedTimes;
import org.rubis.client.config.RampMode;
import org.rubis.client.config.ServerModel;
import org.rubis.client.config.ShardPlan;
import org.rubis.client.config.ThreadModel;
import org.rubis.client.engine.RunEngine;
import org.rubis.client.engine.RunOutOfMemory;
import org.rubis.client.heap.HeapPerUser;
import org.rubis.client.input.ConfigException;
import org.rubis.client.live.LiveRun;
import org.rubis.client.log.RunDirectoryClaim;
import org.rubis.client.process.ChildJvm;
import org.rubis.client.process.ClientCommandLine;
import org.rubis.client.process.StartHandshake;
import org.rubis.client.profile.ProfileShape;
import org.rubis.client.report.ExitStatus;
import org.rubis.client.report.JvmFacts;
import org.rubis.client.report.Summary;
import org.rubis.client.shard.LocalShards;
import org.rubis.client.workload.TransitionMode;
import org.rubis.format.ParentWatch;
import org.rubis.format.Printable;
import org.rubis.format.RunFiles;
import org.rubis.format.RunStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Runs an emulation and writes the run directory (requests.csv, sessions.csv, summary.*, server/). */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        showDefaultValues = true,
        defaultValueProvider = PackagedDefaults.class,
        description = {
            "Run an emulation. With no options: the embedded server, the bidding mix, 300 users, "
                    + "10 s up ramp + 40 s run + 10 s down ramp, TPC-W think time.",
            "Options override the properties file; durations take s, m, ms or h, and a bare number is seconds "
                    + "(--duration 500 = 500 s; the properties' *_in_ms keys are in ms)."
        },
        footer = {
            "Options that contradict each other are refused in one line (exit 64), never one of them ignored: a "
                    + "hybrid option (--session-rate, --interarrival, --interarrival-file, --rate-schedule, --max-sessions, "
                    + "--cap-policy) with --arrivals closed, --users or --sessions-per-user; --users with --arrivals hybrid; "
                    + "two of --session-rate, --interarrival-file, --rate-schedule; --interarrival with --interarrival-file. "
                    + "So is -Dkey without =value (-Dkey= sets the key empty, i.e. its default)."
        })
public final class RunCommand implements Callable<Integer> {

    @Mixin
    ConfigOptions config;

    @Option(
            names = "--target",
            paramLabel = "embedded|URL",
            description = "embedded (default) or a base URL such as http://127.0.0.1:8080")
    String target;

    @Option(names = "--users", paramLabel = "N", description = "Closed mode: emulated users.")
    Integer users;

    @Option(
            names = "--sessions-per-user",
            paramLabel = "N",
            description = "Closed mode: each user runs N sessions, then stops (0 = until the end).")
    Long sessionsPerUser;

    @Option(names = "--arrivals", paramLabel = "MODEL", description = "Arrival model: ${COMPLETION-CANDIDATES}.")
    Arrivals arrivals;

    @Option(names = "--session-rate", paramLabel = "R", description = "Hybrid: sessions per second.")
    Double sessionRate;

    @Option(
            names = "--interarrival",
            paramLabel = "DIST",
            description = "Hybrid: distribution of inter-arrival times: ${COMPLETION-CANDIDATES}.")
    Interarrival interarrival;

    @Option(
            names = "--interarrival-file",
            paramLabel = "FILE",
            description = "Hybrid: inter-arrival times, one value in ms per line.")
    Path interarrivalFile;

    @Option(
            names = "--rate-schedule",
            paramLabel = "FILE",
            description = "Hybrid: a load profile of session rates (the name of earlier "
                    + "versions; lines 'start_s rate_per_s' still read).")
    Path rateSchedule;

    @Option(
            names = "--profile",
            paramLabel = "FILE",
            description =
                    "A load profile: lines 'TIME VALUE [MIX] [THINK-SCALE]', the users "
                            + "(closed) or sessions per second (hybrid) over the run phase, which it replaces --users or --session-rate for; "
                            + "'TIME end' sets the run phase's length (docs/WORKLOAD.md, Load profiles). 'rubis-client profile' writes common shapes.")
    Path profile;

    @Option(
            names = "--profile-shape",
            paramLabel = "SHAPE",
            description = "Between a profile's points: step (hold) or ramp (linear), "
                    + "for a file without a 'shape' line: ${COMPLETION-CANDIDATES}.")
    ProfileShape profileShape;

    @Option(
            names = "--leave",
            paramLabel = "POLICY",
            description =
                    "Closed with a profile: a user the profile lets go finishes its "
                            + "session (end-of-session) or leaves at its next think time (next-think): ${COMPLETION-CANDIDATES}.")
    LeavePolicy leave;

    @Option(names = "--max-sessions", paramLabel = "N", description = "Hybrid: cap on concurrent sessions (0 = none).")
    Integer maxSessions;

    @Option(
            names = "--cap-policy",
            paramLabel = "POLICY",
            description = "Hybrid: what happens to sessions beyond the cap: ${COMPLETION-CANDIDATES}.")
    CapPolicy capPolicy;

    @Mixin
    RunPhases phases;

    @Option(names = "--ramp-down", paramLabel = "TIME", description = "Down-ramp length (a bare number is seconds).")
    String rampDown;

    @Option(
            names = "--ramp-mode",
            paramLabel = "MODE",
            description =
                    "Closed mode: stationary (users start uniformly over the up ramp, the run phase is steady) or original (every user first waits a slowed-down think time): ${COMPLETION-CANDIDATES}.")
    RampMode rampMode;

    @Option(
            names = "--source-addresses",
            paramLabel = "N",
            description = "dedicated/netty on loopback: spread connections over N source addresses "
                    + "127.0.0.1..127.0.0.N (more ephemeral ports); raised automatically when the plan needs more.")
    Integer sourceAddresses;

    @Option(
            names = "--think-scale",
            paramLabel = "X",
            description = "Multiply every think time by X (0 = no think time).")
    Double thinkScale;

    @Option(
            names = "--seed",
            paramLabel = "S",
            description = "Run seed (same seed, same sessions; default: a random seed, printed in the summary).")
    Long seed;

    @Option(names = "--max-transitions", paramLabel = "N", description = "A session ends after N requests at most.")
    Integer maxTransitions;

    @Option(
            names = "--transition-mode",
            paramLabel = "MODE",
            description = "How column sums other than 1 are treated: ${COMPLETION-CANDIDATES}.")
    TransitionMode transitionMode;

    @Option(
            names = "--backend",
            paramLabel = "NAME",
            description =
                    "Connection backend (${COMPLETION-CANDIDATES}): legacy (URL.openStream, the JDK's shared keep-alive cache), pooled (HttpClient 5 pool), "
                            + "dedicated (one connection per session), netty (event loops, one connection per session).")
    BackendKind backend;

    @Option(names = "--pool-max", paramLabel = "N", description = "pooled backend: maximum connections.")
    Integer poolMax;

    @Option(
            names = "--tls",
            description = "The embedded server serves HTTPS (with an https:// --target, TLS is used anyway).")
    boolean tls;

    @Option(
            names = "--tls-resumption",
            paramLabel = "on|off",
            description = "on: new connections resume TLS sessions; off: every handshake is full.")
    String tlsResumption;

    @Option(
            names = "--threads",
            paramLabel = "KIND",
            description =
                    "Threads with a blocking backend: ${COMPLETION-CANDIDATES} (platform: a thread per emulated user; virtual: a "
                            + "virtual thread per request, think times on a timer; netty uses its event loops).")
    ThreadModel threads;

    @Option(
            names = "--server-model",
            paramLabel = "MODEL",
            description = "Embedded server model: ${COMPLETION-CANDIDATES}.")
    ServerModel serverModel;

    @Option(
            names = "--capture",
            description =
                    "Capture the run's packets (libpcap; root or cap_net_raw) and check every request against the wire: "
                            + "capture.pcap, wire.csv and a wire check section in the summary.")
    boolean capture;

    @Option(
            names = "--probe",
            description =
                    "A reference probe on its own connection (plain NIO, 5 requests/s): with --capture, its error is this host's floor.")
    boolean probe;

    @Option(
            names = "--published-times",
            paramLabel = "CLOCK",
            description = "With --capture: whose times the summary's response-time table shows: "
                    + "${COMPLETION-CANDIDATES} (the client's are kept beside the wire's).")
    PublishedTimes publishedTimes;

    @Option(
            names = "--jit-warmup",
            paramLabel = "auto|off|N",
            description =
                    "Before the run, warm the client's request path up against a loopback stub (never the target): auto = until the JIT is quiet "
                            + "(at most 20,000 requests or 5 s), off = none (the measured requests start interpreted: the JVM pitfall), N = N requests. "
                            + "Default: auto, or the environment variable RUBIS_JIT_WARMUP when set.")
    String jitWarmup;

    @Option(
            names = "--busy-poll",
            description =
                    "netty backend: one epoll event loop that busy-waits (a whole core) instead of blocking, as httperf does.")
    boolean busyPoll;

    @Option(
            names = "--assert",
            paramLabel = "EXPR",
            description =
                    "A bound on a run-phase figure, checked at the end (repeatable): p50, p90, p99, p99.9, max, mean, "
                            + "errors, throughput or lateness_p99; <, <=, > or >=; a value with its unit: 'p99<200ms', 'errors<1%', "
                            + "'throughput>40/s'. A failure exits 99.")
    List<String> assertions;

    @Option(
            names = "--metrics-port",
            paramLabel = "N",
            description = "Watch the run live on TCP port N: /metrics for Prometheus, / the live page in a browser "
                    + "(docs/LIVE.md). With --shards N: this port serves the shards summed, the shards use the next "
                    + "N ports.")
    String metricsPort;

    @Option(
            names = "--metrics-address",
            paramLabel = "IP",
            description = "The address the live view listens on: 127.0.0.1 (default, loopback only), 0.0.0.0 (every "
                    + "interface) or another of this host's.")
    String metricsAddress;

    @Option(
            names = "--metrics-linger",
            paramLabel = "TIME",
            description = "Keep the live view up this long after the run ends, for a last scrape or look "
                    + "(default 0: it closes with the run).")
    String metricsLinger;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = "Run directory, new or empty (default: a new runs/<timestamp>).")
    Path out;

    @Option(
            names = "--force",
            description = "With --out: empty a directory that holds a previous run's files (and nothing else) first.")
    boolean force;
    /** Set by a parent rubis-client (ChildJvm): the run directory is the parent's, already claimed; the run stops when the parent is gone. */
    @Option(names = "--child", hidden = true)
    boolean child;

    @Option(names = "--no-progress", description = "No progress line.")
    boolean noProgress;

    @Mixin
    JvmChoice jvm;

    @Option(
            names = "--shard",
            paramLabel = "I/N",
            description =
                    "Run shard I (0-based) of N of the workload (docs/SHARDING.md); needs --start-at, --seed and a --target URL. "
                            + "Default: JOB_COMPLETION_INDEX/RUBIS_SHARD_COUNT from the environment.")
    String shard;

    @Option(
            names = "--start-at",
            paramLabel = "INSTANT",
            description =
                    "When the run begins (the same on every shard): ISO-8601 (2026-11-22T06:00:00Z) or epoch ms. Default: RUBIS_START_AT; with --shard one of them is required; alone, it delays a single run to that instant; with --shards N, the shards start then instead of as soon as all are ready.")
    String startAt;

    /**
     * Set by run --shards N on its shards: the shard says when it is ready and waits for the start instant its parent
     * gives once every shard is (process/StartHandshake), instead of a --start-at fixed before the JVMs start.
     */
    @Option(names = "--start-when-ready", hidden = true)
    boolean startWhenReady;

    @Option(
            names = "--shards",
            paramLabel = "N",
            description =
                    "Split the run over N client JVMs on this host (one shared embedded server), started together as soon as every one is ready, and merge them into the run directory.")
    Integer shards;

    @Option(
            names = "--heap-per-user",
            hidden = true,
            description =
                    "Closed runs: class histograms (full GC) with the users thinking (2 s into the down ramp) and after the sessions end; "
                            + "the summary gets heap_per_user (used by bench scale).")
    boolean heapPerUser;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PackagedDefaults.keepOnlyGiven(spec); // the defaults shown in --help must not override the properties file
        if (child) {
            ParentWatch.start(() -> {
                System.err.println("rubis-client: parent process gone; stopping");
                System.exit(ExitStatus.PARTIAL); // the shutdown hook stops the run: logs flushed, a partial summary
            });
        }
        refuseConflicts();
        ClientConfig c = config.load(settings(), given);
        if (shards != null || !jvm.given()) {
            // Before anything starts, so that a misspelt key is seen while the run can still be stopped; the child
            // JVM of --jvm-profile says them itself. The summary's Warnings section repeats them.
            ConfigWarnings.print(c, spec.commandLine().getErr());
        }
        if (c.outDir() != null && !child && (shards != null || jvm.given())) {
            ChildJvm.gcLog(RunFiles.gcLog(c.outDir())); // a path -Xlog cannot take: refused before it is made
        }
        if (shards != null) {
            Path dir = runDirectory(c);
            return asserted(c, dir, localShards(c, dir)); // the merged run is asserted; its shards are not
        }
        if (startWhenReady && startAt != null) {
            throw new ConfigException("--start-when-ready and --start-at: give one of them");
        }
        ShardPlan plan = startWhenReady
                ? ShardPlan.resolveStartingWhenReady(shard, System.getenv(), c)
                : ShardPlan.resolve(shard, startAt, System.getenv(), c, Instant.now());
        if (jvm.given()) {
            return inChildJvm(runDirectory(c));
        }
        return runHere(c, plan);
    }

    /** The options given, as the properties they set (key -> value); {@link #given} remembers how each was typed. */
    private Map<String, String> settings() {
        Map<String, String> named = new LinkedHashMap<>();
        put(named, "client_target", "--target", target);
        put(named, "workload_number_of_clients_per_node", "--users", users);
        put(named, "workload_arrivals", "--arrivals", arrivals);
        put(named, "workload_session_rate", "--session-rate", sessionRate);
        put(named, "workload_interarrival_distribution", "--interarrival", interarrival);
        put(named, "workload_interarrival_file", "--interarrival-file", interarrivalFile);
        put(named, "workload_rate_schedule_file", "--rate-schedule", rateSchedule);
        put(named, "workload_profile_file", "--profile", profile);
        put(named, "workload_profile_shape", "--profile-shape", profileShape == null ? null : profileShape.label());
        put(named, "workload_profile_leave", "--leave", leave == null ? null : leave.label());
        put(named, "workload_max_concurrent_sessions", "--max-sessions", maxSessions);
        put(named, "workload_cap_policy", "--cap-policy", capPolicy);
        if (interarrivalFile != null || rateSchedule != null || sessionRate != null) {
            named.putIfAbsent("workload_arrivals", "hybrid");
        }
        put(named, "workload_session_run_time_in_ms", "--duration", millis("--duration", phases.durationText()));
        put(named, "workload_up_ramp_time_in_ms", "--ramp-up", millis("--ramp-up", phases.rampUpText()));
        put(named, "workload_down_ramp_time_in_ms", "--ramp-down", millis("--ramp-down", rampDown));
        put(named, "workload_think_scale", "--think-scale", thinkScale);
        put(named, "workload_ramp_mode", "--ramp-mode", rampMode);
        put(named, "client_source_addresses", "--source-addresses", sourceAddresses);
        put(named, "client_seed", "--seed", seed);
        put(named, "workload_maximum_number_of_transitions", "--max-transitions", maxTransitions);
        put(named, "workload_transition_mode", "--transition-mode", transitionMode);
        put(named, "client_backend", "--backend", backend);
        put(named, "client_pool_max", "--pool-max", poolMax);
        if (tls) {
            named.put("server_tls", "yes");
        }
        if (tlsResumption != null) {
            named.put(
                    "client_tls_resumption",
                    switch (tlsResumption) {
                        case "on" -> "yes";
                        case "off" -> "no";
                        default ->
                            throw new ConfigException("--tls-resumption " + tlsResumption + ": expected on or off");
                    });
        }
        put(named, "workload_sessions_per_user", "--sessions-per-user", sessionsPerUser);
        put(named, "client_threads", "--threads", threads);
        put(named, "server_model", "--server-model", serverModel);
        put(named, "client_output_dir", "--out", out);
        if (assertions != null && !assertions.isEmpty()) {
            put(named, "client_assertions", "--assert", String.join("; ", assertions));
        }
        if (noProgress) {
            named.put("client_progress", "no");
        }
        if (capture) {
            named.put("client_capture", "yes");
        }
        if (probe) {
            named.put("client_probe", "yes");
        }
        if (busyPoll) {
            named.put("client_busy_poll", "yes");
        }
        put(named, "client_published_times", "--published-times", publishedTimes);
        put(named, "client_metrics_port", "--metrics-port", metricsPort);
        put(named, "client_metrics_address", "--metrics-address", metricsAddress);
        put(named, "client_metrics_linger_ms", "--metrics-linger", millis("--metrics-linger", metricsLinger));
        if (jitWarmup != null) {
            if (JitWarmupPolicy.parse(jitWarmup) == null) {
                throw new ConfigException("--jit-warmup " + jitWarmup + ": expected " + JitWarmupPolicy.EXPECTED);
            }
            named.put("client_jit_warmup", jitWarmup);
        }
        return named;
    }

    /** The run itself happens in a child JVM with the profile's flags; this process only waits. */
    private int inChildJvm(Path dir) throws Exception {
        ClientCommandLine line =
                jvm.applyTo(ClientCommandLine.run()).forwarding(runArguments()).out(dir);
        System.out.println("JVM profile " + jvm.profile() + ": " + String.join(" ", line.jvm()));
        return ChildJvm.run(line);
    }

    /** The run in this JVM: Ctrl-C stops it cleanly (logs and summary written); the exit status is the run status's. */
    private int runHere(ClientConfig c, ShardPlan plan) throws Exception {
        PrintStream stdout = System.out;
        // The JVM's warnings too: up front on stderr, and again in the summary's Warnings section (and summary.json).
        JvmFacts.warnings(c.users(), c.arrivals() == Arrivals.CLOSED).forEach(w -> System.err.println("warning: " + w));
        if (heapPerUser && (c.arrivals() != Arrivals.CLOSED || c.users() <= 0)) {
            throw new ConfigException("--heap-per-user: closed runs only (--users N), the population it divides by");
        }
        LiveView live = LiveView.start(c.measurement().metrics(), metricsGiven(c), stdout); // before anything starts
        try {
            return runHere(c, plan, stdout, live);
        } finally {
            if (live != null) {
                live.close();
            }
        }
    }

    /** How the live view's port was given, for an error about it. */
    private String metricsGiven(ClientConfig c) {
        return metricsPort != null
                ? "--metrics-port " + metricsPort
                : "client_metrics_port = " + c.measurement().metrics().port();
    }

    private int runHere(ClientConfig c, ShardPlan plan, PrintStream stdout, LiveView live) throws Exception {
        Path dir = runDirectory(c);
        RunEngine engine = new RunEngine(c, plan, dir, stdout);
        if (startWhenReady) {
            engine.startWhenReady(new StartHandshake(dir));
        }
        LiveRun liveRun = live == null ? null : live.watch(engine, c, dir, plan);
        MeasurementObservers.register(engine, c, stdout, liveRun);
        if (heapPerUser) {
            engine.observe(new HeapPerUser(c.users()));
        }
        Thread hook = new Thread(
                () -> {
                    engine.requestStop("interrupted (SIGINT/SIGTERM)");
                    try {
                        engine.awaitFinished(60_000);
                    } catch (InterruptedException ignored) {
                        // exiting anyway
                    }
                },
                "rubis-client-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        Summary s;
        try {
            s = engine.run();
        } catch (RunOutOfMemory e) {
            System.err.println("error: the run did not complete: " + e.getMessage());
            return ExitStatus.NOT_A_MEASUREMENT; // the summary says invalid
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running: it waits for us
        }
        stdout.println();
        stdout.print(s.text());
        stdout.println();
        stdout.println("Logs: " + RunFiles.requests(dir) + ", " + RunFiles.sessions(dir) + "; summary: "
                + RunFiles.summaryJson(dir));
        if (s.status() != RunStatus.COMPLETE) {
            System.err.println("error: the run did not complete: " + Printable.escape(s.stopReason()));
        }
        if (live != null) {
            live.finished(s.status(), dir);
        }
        // A shard's figures are a part of the run: the merged run is asserted (run --shards), not each shard.
        return plan.shard()
                ? s.status().exitCode()
                : asserted(c, dir, s.status().exitCode());
    }

    /**
     * Checks the run's assertions on its summary.json (recording the outcome there), prints the failures, and gives the
     * exit status: the run's own when it is not 0, else {@link ExitStatus#ASSERTION_FAILED} when one failed.
     */
    private static int asserted(ClientConfig c, Path dir, int status) throws IOException {
        List<Assertion> all = c.measurement().assertions();
        if (all.isEmpty()) {
            return status;
        }
        List<AssertionCheck.Result> results = AssertionCheck.check(dir, all);
        if (results.isEmpty()) {
            System.err.println("error: assertions not checked: " + dir + " holds no summary.json");
            return status == ExitStatus.OK ? ExitStatus.ASSERTION_FAILED : status;
        }
        System.out.print(AssertionCheck.text(results));
        long failed = results.stream().filter(r -> !r.passed()).count();
        if (failed > 0) {
            System.err.println("error: " + failed + " of " + results.size() + " assertions failed");
        }
        return status == ExitStatus.OK && failed > 0 ? ExitStatus.ASSERTION_FAILED : status;
    }

    /**
     * The run's directory, once the options are checked: a new one under runs/ that no other run has, or {@code --out}
     * made this run's (created, or empty, or emptied with --force); a child JVM's is its parent's.
     */
    private Path runDirectory(ClientConfig c) {
        if (c.outDir() == null) {
            return RunDirectoryClaim.createNew(Path.of("runs"), LocalDateTime.now());
        }
        return child ? c.outDir() : RunDirectoryClaim.claim(c.outDir(), force);
    }

    /** {@code run --shards N}: the children get the user's arguments with the shard wiring in place of these. */
    private int localShards(ClientConfig c, Path dir) throws Exception {
        if (shard != null) {
            throw new ConfigException("--shards " + shards + " starts its own shards; leave out --shard");
        }
        Instant start = startAt == null
                ? null
                : ShardPlan.resolve(null, startAt, Map.of(), c, Instant.now()).startAt();
        ClientCommandLine child = jvm.applyTo(ClientCommandLine.run()).forwarding(runArguments());
        LocalShards local = new LocalShards(c, shards, dir, System.out);
        try (LiveView live = LiveView.startShards(c.measurement().metrics(), metricsGiven(c), shards, System.out)) {
            if (live != null) {
                live.watchShards(local, shards, dir);
            }
            int status = local.run(child, start);
            if (live != null) {
                live.shardsFinished(dir, status);
            }
            return status;
        }
    }

    /** The arguments the user gave after {@code run}. */
    private List<String> runArguments() {
        List<String> original = spec.commandLine().getParseResult().originalArgs();
        return original.subList(original.indexOf("run") + 1, original.size());
    }

    /**
     * Options that contradict each other are refused, not one of them ignored: a hybrid-arrival option with --users,
     * --sessions-per-user or --arrivals closed; --users with --arrivals hybrid; two sources of session arrivals.
     */
    private void refuseConflicts() {
        List<String> hybrid = typed(
                "--session-rate",
                "--interarrival",
                "--interarrival-file",
                "--rate-schedule",
                "--max-sessions",
                "--cap-policy");
        List<String> closed = typed("--users", "--sessions-per-user");
        if (!hybrid.isEmpty() && arrivals == Arrivals.CLOSED) {
            throw new ConfigException("--arrivals closed and " + hybrid.get(0) + ": " + hybrid.get(0)
                    + " sets hybrid arrivals; drop it, or give " + "--arrivals hybrid");
        }
        if (!closed.isEmpty() && (!hybrid.isEmpty() || arrivals == Arrivals.HYBRID)) {
            String other = hybrid.isEmpty() ? "--arrivals hybrid" : hybrid.get(0);
            throw new ConfigException(
                    closed.get(0) + " and " + other + ": " + closed.get(0) + " sets a closed population, " + other
                            + " hybrid arrivals (sessions against the clock; --max-sessions caps them); give one of them");
        }
        List<String> sources = typed("--session-rate", "--interarrival-file", "--rate-schedule");
        if (sources.size() > 1) {
            throw new ConfigException(
                    sources.get(0) + " and " + sources.get(1) + ": both say when sessions arrive; give one of them");
        }
        if (interarrivalFile != null && interarrival != null) {
            throw new ConfigException(
                    "--interarrival and --interarrival-file: the file gives the inter-arrival times themselves; drop "
                            + "--interarrival");
        }
        refuseProfileConflicts(hybrid);
    }

    /**
     * A load profile sets the users (closed) or the session rate (hybrid) over the run phase: the options that set them
     * otherwise contradict it; its shape and leave policy mean nothing without it.
     */
    private void refuseProfileConflicts(List<String> hybrid) {
        List<String> replaced =
                typed("--users", "--sessions-per-user", "--session-rate", "--interarrival-file", "--rate-schedule");
        if (profile != null && !replaced.isEmpty()) {
            throw new ConfigException("--profile and " + replaced.get(0) + ": the profile sets the "
                    + (replaced.get(0).equals("--users") || replaced.get(0).equals("--sessions-per-user")
                            ? "users"
                            : "session arrivals")
                    + " over the run phase; drop " + replaced.get(0));
        }
        if (profile == null && rateSchedule == null) {
            for (String o : typed("--profile-shape", "--leave")) {
                throw new ConfigException(
                        o + " without --profile: it applies to a load profile's points (--profile FILE)");
            }
        }
        if (leave != null && (arrivals == Arrivals.HYBRID || !hybrid.isEmpty())) {
            throw new ConfigException(
                    "--leave and " + (hybrid.isEmpty() ? "--arrivals hybrid" : hybrid.get(0)) + ": --leave says how "
                            + "emulated users of a closed population leave; hybrid sessions end by themselves");
        }
    }

    /** Those of {@code options} given on the command line, in that order. */
    private List<String> typed(String... options) {
        var parsed = spec.commandLine().getParseResult();
        return Arrays.stream(options).filter(parsed::hasMatchedOption).toList();
    }

    /** The named options' keys, with the option and the text typed: errors about their values name the option. */
    private final Map<String, GivenOption> given = new LinkedHashMap<>();

    private void put(Map<String, String> m, String key, String option, Object v) {
        if (v != null) {
            m.put(key, v.toString());
            OptionSpec o = spec.commandLine().getParseResult().matchedOption(option);
            List<String> typed = o == null ? List.of() : o.stringValues();
            given.put(key, new GivenOption(option, typed.isEmpty() ? v.toString() : typed.get(typed.size() - 1)));
        }
    }

    /** "90", "90s", "2m", "500ms", "1h" to milliseconds; null stays null (the option was not given). */
    static Long millis(String option, String text) {
        return text == null ? null : Durations.millis(option, text);
    }
}
