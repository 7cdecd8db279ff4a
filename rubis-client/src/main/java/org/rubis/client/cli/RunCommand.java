package org.rubis.client.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.rubis.client.assertion.Assertion;
import org.rubis.client.config.Arrivals;
import org.rubis.client.config.BackendKind;
import org.rubis.client.config.CapPolicy;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.Durations;
import org.rubis.client.config.GivenOption;
import org.rubis.client.config.Interarrival;
import org.rubis.client.config.JitWarmupPolicy;
import org.rubis.client.config.Keys;
import org.rubis.client.config.LeavePolicy;
import org.rubis.client.config.PublishedTimes;
import org.rubis.client.config.RampMode;
import org.rubis.client.config.ServerModel;
import org.rubis.client.config.ShardPlan;
import org.rubis.client.config.ThreadModel;
import org.rubis.client.input.ConfigException;
import org.rubis.client.log.RunDirectoryClaim;
import org.rubis.client.process.ChildJvm;
import org.rubis.client.process.ClientCommandLine;
import org.rubis.client.profile.ProfileShape;
import org.rubis.client.report.ExitStatus;
import org.rubis.client.workload.TransitionMode;
import org.rubis.format.io.ParentWatch;
import org.rubis.format.run.RunFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
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

    @Option(
            names = "--target-processes",
            paramLabel = "NAME,...|CGROUP",
            description = "The target's processes on this host besides the one listening on its port (found"
                    + " without a name), e.g. mariadbd, or a cgroup directory: their CPU, with their children's, is"
                    + " reported as the server's, not as other processes'")
    String targetProcesses;

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
                    "Closed with a profile: a user the profile lets go finishes its session within --leave-grace, "
                            + "else leaves at its next think time after it (graceful, the default); finishes its "
                            + "session however long (end-of-session); or leaves at its next think time (next-think): "
                            + "${COMPLETION-CANDIDATES}.")
    LeavePolicy leave;

    @Option(
            names = "--leave-grace",
            paramLabel = "TIME",
            description = "With --leave graceful: how long a user the profile lets go may stay to finish its "
                    + "session (default 30s, as k6's gracefulRampDown).")
    String leaveGrace;

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
                            + "dedicated (one connection per session), netty (event loops, one connection per session), "
                            + "kernel (event loops on the kernel's sockets, one connection per session, the kernel's time "
                            + "stamps published; Linux, http).")
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
            description = "Whose times the summary's response-time table shows: "
                    + "${COMPLETION-CANDIDATES}; wire with --capture (the client's are kept beside the wire's), "
                    + "kernel with --backend kernel, its default (the user-space marks are logged beside them).")
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
                    "When the run begins (the same on every shard): ISO-8601 (2026-11-22T06:00:00Z) or epoch ms, or `ready` with --shard: as soon as all N shards are ready, their --out directories DIR/shard-I side by side on one shared volume (docs/SHARDING.md). Default: RUBIS_START_AT; with --shard one of them is required; alone, it delays a single run to that instant; with --shards N, the shards start then instead of as soon as all are ready.")
    String startAt;

    @Option(
            names = "--ready-timeout",
            paramLabel = "TIME",
            description =
                    "With --start-at ready: how long the shards wait for each other to be ready; past it they stop, sending nothing (default 5m).")
    String readyTimeout;

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
            names = "--preflight",
            description = "With --target URL: first check that the target fits the configuration (the checks of"
                    + " validate --target but the keep-alive probe); a target that does not fit stops the run before"
                    + " any load, exit 69, one line per problem")
    boolean preflight;

    @Option(
            names = "--heap-per-user",
            hidden = true,
            description =
                    "Closed runs: class histograms (full GC) with the users thinking (2 s into the down ramp) and after the sessions end; "
                            + "the summary gets heap_per_user (used by bench scale).")
    boolean heapPerUser;

    @Spec
    CommandSpec spec;

    /**
     * The words of a stop by the shutdown hook. The JVM runs it on SIGINT, SIGTERM and SIGHUP alike and does not say
     * which; the parent's death, which exits through it too, says so here first.
     */
    static final String SIGNALLED = "interrupted (a signal: SIGINT, SIGTERM or SIGHUP)";

    static final String PARENT_GONE = "stopped: the parent process is gone";

    private static volatile String hookStop = SIGNALLED;

    @Override
    public Integer call() throws Exception {
        PackagedDefaults.keepOnlyGiven(spec); // the defaults shown in --help must not override the properties file
        if (child) {
            ParentWatch.start(() -> {
                System.err.println("rubis-client: parent process gone; stopping");
                hookStop = PARENT_GONE; // the stop's words, not a signal's
                System.exit(ExitStatus.PARTIAL); // the shutdown hook stops the run: logs flushed, a partial summary
            });
        }
        refuseConflicts();
        ClientConfig c = config.load(settings(), given);
        List<Assertion> asserted = assertions(c);
        if (shards != null || !jvm.given()) {
            // Before anything starts, so that a misspelt key is seen while the run can still be stopped; the child
            // JVM of --jvm-profile says them itself. The summary's Warnings section repeats them.
            ConfigWarnings.print(c, spec.commandLine().getErr());
        }
        if (c.outDir() != null && !child && (shards != null || jvm.given())) {
            ChildJvm.gcLog(RunFiles.gcLog(c.outDir())); // a path -Xlog cannot take: refused before it is made
        }
        if (shards != null) {
            if (shard != null) {
                throw new ConfigException("--shards " + shards + " starts its own shards; leave out --shard");
            }
            Path dir = runDirectory(c);
            ClientCommandLine children = jvm.applyTo(ClientCommandLine.run()).forwarding(runArguments());
            int status = InLocalShards.run(c, shards, startAt, children, dir, metricsGiven(c));
            return RunAssertions.check(asserted, dir, status); // the merged run is asserted; its shards are not
        }
        ShardPlan plan = shardPlan(c, asserted);
        if (jvm.given()) { // the run in a child JVM with the profile's flags; this process only waits
            ClientCommandLine line = jvm.applyTo(ClientCommandLine.run())
                    .forwarding(runArguments())
                    .out(runDirectory(c));
            System.out.println("JVM profile " + jvm.profile() + ": " + String.join(" ", line.jvm()));
            return ChildJvm.run(line);
        }
        return new InThisJvm(
                        preflight,
                        heapPerUser,
                        startWhenReady,
                        readyTimeout(),
                        metricsGiven(c),
                        () -> runDirectory(c),
                        () -> hookStop)
                .run(c, plan, asserted);
    }

    /** This run's part of a sharded run (or the whole run), checked against the options that need a shard. */
    private ShardPlan shardPlan(ClientConfig c, List<Assertion> asserted) {
        if (startWhenReady && startAt != null) {
            throw new ConfigException("--start-when-ready and --start-at: give one of them");
        }
        ShardPlan plan = startWhenReady
                ? ShardPlan.resolveStartingWhenReady(shard, System.getenv(), c)
                : ShardPlan.resolve(shard, startAt, System.getenv(), c, Instant.now());
        if (plan.shard() && !child && !asserted.isEmpty()) {
            String which = "shard " + plan.index() + "/" + plan.count();
            if (assertions != null && !assertions.isEmpty()) {
                throw new ConfigException("--assert and " + which + ": a shard's figures are a part of the run, never "
                        + "asserted alone; drop --assert, or run the whole run with run --shards N --assert ...");
            }
            spec.commandLine()
                    .getErr()
                    .println("warning: client_assertions not checked: this run is " + which + ", a part of the run "
                            + "whose figures are not asserted alone (run --shards N asserts the merged run)");
        }
        boolean amongPeers = !startWhenReady && ShardPlan.startsWhenReady(startAt, System.getenv());
        if (readyTimeout != null && !amongPeers) {
            throw new ConfigException("--ready-timeout is for --start-at ready (the shards wait for each other)");
        }
        if (amongPeers) {
            readyTimeout(); // checked now
            Path out = c.outDir() == null ? null : c.outDir().toAbsolutePath().normalize();
            String name = "shard-" + plan.index();
            if (out == null
                    || out.getFileName() == null
                    || !out.getFileName().toString().equals(name)) {
                throw new ConfigException("--start-at ready needs --out DIR/" + name + " (shard " + plan.index()
                        + "): the shards find each other's directories side by side in DIR");
            }
        }
        return plan;
    }

    /**
     * The run's assertions: the configured ones ({@code client_assertions}, from the properties file or {@code -D},
     * which replaces the file's as for every key) and each {@code --assert} besides: a bound typed for this run adds
     * to those configured, never silently drops one of them.
     */
    private List<Assertion> assertions(ClientConfig c) {
        List<Assertion> all = new ArrayList<>(c.measurement().assertions());
        if (assertions != null) {
            for (String a : assertions) {
                all.addAll(Assertion.parseAll(a, "--assert"));
            }
        }
        return List.copyOf(all);
    }

    /** The options given, as the properties they set (key -> value); {@link #given} remembers how each was typed. */
    private Map<String, String> settings() {
        if (jitWarmup != null && JitWarmupPolicy.parse(jitWarmup) == null) {
            throw new ConfigException("--jit-warmup " + jitWarmup + ": expected " + JitWarmupPolicy.EXPECTED);
        }
        Map<String, String> named = OptionBinding.bind(spec.commandLine().getParseResult(), given);
        if (interarrivalFile != null || rateSchedule != null || sessionRate != null) {
            named.putIfAbsent(Keys.ARRIVALS.key(), "hybrid");
        }
        return named;
    }

    /** {@code --ready-timeout}, else five minutes. */
    private Duration readyTimeout() {
        if (readyTimeout == null) {
            return Duration.ofMinutes(5);
        }
        long ms = Durations.millis("--ready-timeout", readyTimeout);
        if (ms < 1000) {
            throw new ConfigException("--ready-timeout " + readyTimeout + ": expected at least 1s, e.g. 5m");
        }
        return Duration.ofMillis(ms);
    }

    /** How the live view's port was given, for an error about it. */
    private String metricsGiven(ClientConfig c) {
        return metricsPort != null
                ? "--metrics-port " + metricsPort
                : "client_metrics_port = " + c.measurement().metrics().port();
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
                            + (hybrid.isEmpty() ? " asks for" : "")
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
            for (String o : typed("--profile-shape", "--leave", "--leave-grace")) {
                throw new ConfigException(
                        o + " without --profile: it applies to a load profile's points (--profile FILE)");
            }
        }
        List<String> leaving = typed("--leave", "--leave-grace");
        if (!leaving.isEmpty() && (arrivals == Arrivals.HYBRID || !hybrid.isEmpty())) {
            throw new ConfigException(leaving.get(0) + " and "
                    + (hybrid.isEmpty() ? "--arrivals hybrid" : hybrid.get(0)) + ": --leave says how "
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
}
