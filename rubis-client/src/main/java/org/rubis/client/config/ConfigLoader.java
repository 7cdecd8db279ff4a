package org.rubis.client.config;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.rubis.client.assertion.Assertion;
import org.rubis.client.input.ConfigException;
import org.rubis.client.input.Source;
import org.rubis.client.workload.DatabasePolicy;
import org.rubis.client.workload.Interaction;
import org.rubis.client.workload.ThinkTime;
import org.rubis.client.workload.TransitionMode;
import org.rubis.client.workload.TransitionTable;
import org.rubis.client.workload.UrlLayout;
import org.rubis.client.workload.WorkloadData;
import org.rubis.client.workload.WorkloadModel;

/**
 * Loads rubis.properties (any file of the original, unchanged) plus command-line overrides into a
 * {@link ClientConfig}. Keys of the original keep their meaning; our keys have defaults so old files
 * load; unknown keys of the file are warnings (unknown -D keys are errors); the original's remote and monitoring commands are never run.
 */
public final class ConfigLoader {

    /** Environment variable giving the default of {@code client_jit_warmup} (the test suite sets it to off). */
    public static final String JIT_WARMUP_ENV = "RUBIS_JIT_WARMUP";

    /** The packaged default configuration. */
    public static final String DEFAULT_PROPERTIES = "rubis.properties";

    private ConfigLoader() {}

    /** Loads {@code file}, or the packaged defaults when {@code file} is null. */
    public static ClientConfig load(Path file, Map<String, String> overrides) {
        return load(file, overrides, Map.of());
    }

    /**
     * Loads {@code file} (null: the packaged defaults) with {@code overrides}; {@code options} says which of the
     * overrides a named option set (errors about them name the option); the others are {@code -D} keys.
     */
    public static ClientConfig load(Path file, Map<String, String> overrides, Map<String, GivenOption> options) {
        Source src = file == null ? Source.classpath(DEFAULT_PROPERTIES) : Source.file(file);
        return load(new Settings(PropertiesFile.read(src), overrides, options), src);
    }

    private static ClientConfig load(Settings s, Source src) {
        List<String> warnings = new ArrayList<>(unknownAndIgnored(s));
        String target = s.get(Keys.TARGET);
        UrlLayout.Version version = s.get(Keys.HTTPD_USE_VERSION);
        UrlLayout layout = layout(s, version);
        Workload w = workload(s, src, layout, warnings);
        WorkloadModel model = w.model();
        Phases phases = phases(s);
        Arrivals arrivals = s.get(Keys.ARRIVALS);
        ClientConfig.ArrivalSettings arrival = arrival(s, src, arrivals);
        ClientConfig.Execution execution = execution(s);
        ClientConfig.EmbeddedServer server = server(s);
        Seeds seeds = Seeds.read(s);
        model = model.withWriteSalt(seeds.salt());
        String out = s.get(Keys.OUTPUT_DIR);
        double thinkScale = s.get(Keys.THINK_SCALE);
        Limits.checkThinkTimes(s, maxThinkMs(model), thinkScale, phases.upF, phases.downF);
        ProfileSettings profile = ProfileSettings.read(
                s,
                arrivals,
                model,
                model.table().source(),
                thinkScale,
                phases.run,
                s.get(Keys.USERS),
                maxThinkMs(model),
                phases.upF,
                phases.downF);
        Map<String, String> resolved =
                resolved(s, target, version, layout, model, thinkScale, arrivals, profile, phases, execution, seeds);
        ClientConfig.Measurement measurement = measurement(s, execution.backend());
        refuseKernelOverTls(s, execution, target, server);
        long sessionsPerUser = s.get(Keys.SESSIONS_PER_USER);
        boolean progress = s.get(Keys.PROGRESS);
        return new ClientConfig(
                src.displayName(),
                target,
                model,
                w.regionsFile(),
                w.categoriesFile(),
                profile.users(),
                sessionsPerUser,
                phases.up,
                phases.upF,
                profile.runMs(),
                phases.down,
                phases.downF,
                thinkScale,
                s.get(Keys.RAMP_MODE),
                seeds.seed(),
                seeds.seedGiven(),
                arrivals,
                arrival,
                execution,
                server,
                out == null ? null : Path.of(out),
                progress,
                List.copyOf(warnings),
                resolved,
                measurement,
                s.sha256(),
                profile.profile(),
                profile.leave());
    }

    /** What the summary's Configuration section (and validate) show: the configuration as resolved. */
    private static Map<String, String> resolved(
            Settings s,
            String target,
            UrlLayout.Version version,
            UrlLayout layout,
            WorkloadModel model,
            double thinkScale,
            Arrivals arrivals,
            ProfileSettings profile,
            Phases phases,
            ClientConfig.Execution execution,
            Seeds seeds) {
        Map<String, String> resolved = new LinkedHashMap<>();
        int users = profile.users();
        resolved.put("target", target);
        resolved.put(
                "url layout", version.name() + " " + layout.page("index.html") + " , " + layout.script("ViewItem"));
        resolved.put(
                "transition table",
                model.table().source() + " (" + model.table().name() + ")");
        resolved.put("transition mode", model.mode().name().toLowerCase(Locale.ROOT));
        resolved.put(
                "think time",
                model.thinkTime().isTpcw()
                        ? "TPC-W negative exponential, mean 7 s, max 70 s"
                        : "per-state waiting time of the table");
        resolved.put("think scale", fmt(thinkScale));
        resolved.put("max transitions per session", String.valueOf(model.maxTransitions()));
        resolved.put("items per page", String.valueOf(model.itemsPerPage()));
        resolved.put("arrivals", arrivals.label());
        resolved.put(
                "users (closed)",
                String.valueOf(users)
                        + (profile.profile() != null && arrivals == Arrivals.CLOSED ? " (the profile's peak)" : ""));
        if (profile.profile() != null) {
            resolved.put(
                    "load profile",
                    profile.profile().source() + " ("
                            + profile.profile().shape().label() + ", "
                            + profile.profile().intervals() + " intervals of "
                            + profile.profile().unit().words() + ", peak "
                            + fmt(profile.profile().peak())
                            + (arrivals == Arrivals.CLOSED
                                    ? ", leave " + profile.leave().label()
                                    : "") + ")");
        }
        resolved.put(
                "phases (ms)",
                "up ramp " + phases.up + " x" + fmt(phases.upF) + ", run " + profile.runMs() + ", down ramp "
                        + phases.down + " x" + fmt(phases.downF) + ", ramp mode "
                        + s.get(Keys.RAMP_MODE));
        resolved.put(
                "regions / categories",
                model.data().regions().size() + " / "
                        + model.data().categories().size());
        resolved.put("database users", String.valueOf(model.policy().users()));
        resolved.put("backend", execution.backend() + " (" + execution.model() + ")");
        resolved.put("seed", seeds.seedGiven() ? String.valueOf(seeds.seed()) : seeds.seed() + " (random)");
        resolved.put(
                "write salt",
                seeds.salt().isEmpty()
                        ? "none (writes as the original)"
                        : seeds.salt() + (seeds.saltGiven() ? "" : " (random)"));
        return resolved;
    }

    /** The kernel backend stamps TCP segments: over TLS they carry records, not requests. */
    private static void refuseKernelOverTls(
            Settings s, ClientConfig.Execution execution, String target, ClientConfig.EmbeddedServer server) {
        if (execution.backend() == BackendKind.KERNEL
                && (target.startsWith("https:") || target.equals("embedded") && server.tls())) {
            throw new ConfigException(s.where(s.entry(Keys.BACKEND.key()).orElseThrow())
                    + " = \"kernel\": https is not supported (the kernel stamps TCP segments, which over TLS carry "
                    + "records, not requests); use an http target or another backend");
        }
    }

    /** The run seed and the write salt, given or random. */
    private record Seeds(long seed, boolean seedGiven, String salt, boolean saltGiven) {
        static Seeds read(Settings s) {
            Long seed = s.get(Keys.SEED);
            String salt = s.get(Keys.WRITE_SALT);
            return new Seeds(
                    seed != null ? seed : new SecureRandom().nextLong() & 0x7fffffffffffL,
                    seed != null,
                    salt == null ? randomSalt() : salt.equals("none") ? "" : salt,
                    salt != null);
        }
    }

    /** Five base-36 characters from a secure random source: 60 million values, a new one each run. */
    private static String randomSalt() {
        String digits = "0123456789abcdefghijklmnopqrstuvwxyz";
        SecureRandom r = new SecureRandom();
        StringBuilder b = new StringBuilder(5);
        for (int i = 0; i < 5; i++) {
            b.append(digits.charAt(r.nextInt(digits.length())));
        }
        return b.toString();
    }

    /** The longest think time the workload draws, unscaled: TPC-W's cap, or the table's longest waiting time. */
    private static long maxThinkMs(WorkloadModel model) {
        if (model.thinkTime().isTpcw()) {
            return ThinkTime.TPCW_MAX_NS / 1_000_000;
        }
        long max = 0;
        for (int row = 0; row < model.table().rows(); row++) {
            max = Math.max(max, model.table().waitingTimeMs(row));
        }
        return max;
    }

    /**
     * The run's assertions, checked now so that a bad one stops the run before anything is sent; read without noting
     * the key, so that a run's config_sha256 does not depend on them (they judge the run, they do not shape it).
     */
    private static List<Assertion> assertions(Settings s) {
        return s.entry(Keys.ASSERTIONS.key())
                .filter(e -> !e.value().isBlank())
                .map(e -> Assertion.parseAll(e.value(), s.where(e)))
                .orElse(List.of());
    }

    private static ClientConfig.Measurement measurement(Settings s, BackendKind backend) {
        boolean capture = s.get(Keys.CAPTURE);
        boolean kernel = backend == BackendKind.KERNEL;
        PublishedTimes published = s.choice(
                "client_published_times", kernel ? PublishedTimes.KERNEL : PublishedTimes.CLIENT, PublishedTimes.class);
        if (published == PublishedTimes.KERNEL && !kernel) {
            throw new ConfigException(
                    s.where(s.entry(Keys.PUBLISHED_TIMES.key()).orElseThrow())
                            + " = \"kernel\": kernel times come from the kernel backend; add --backend kernel or publish "
                            + "client times");
        }
        if (published == PublishedTimes.WIRE && !capture) {
            throw new ConfigException(
                    s.where(s.entry(Keys.PUBLISHED_TIMES.key()).orElseThrow())
                            + " = \"wire\": wire times need the capture; add --capture (client_capture = yes) or publish client times");
        }
        double probeRate = s.get(Keys.PROBE_RATE);
        if (probeRate > Limits.MAX_PROBE_RATE) {
            PropertiesFile.Entry e = s.entry(Keys.PROBE_RATE.key()).orElseThrow();
            throw new ConfigException(
                    s.given(e, Limits.abbreviate(e.value())) + ": above the maximum of " + (int) Limits.MAX_PROBE_RATE
                            + " requests per second (the probe measures this host's floor at a low rate, on one connection, its load apart from "
                            + "the run's); expected 0.1 to " + (int) Limits.MAX_PROBE_RATE);
        }
        return new ClientConfig.Measurement(
                capture,
                s.get(Keys.PROBE),
                probeRate,
                s.get(Keys.PROBE_BUSY_POLL),
                published,
                jitWarmup(s, System.getenv(JIT_WARMUP_ENV)),
                assertions(s),
                metrics(s),
                targetProcesses(s));
    }

    /** {@code client_target_processes}: names and a cgroup whose CPU is the target's (docs/OWN-RUBIS.md). */
    static TargetProcessSpec targetProcesses(Settings s) {
        String text = s.get(Keys.TARGET_PROCESSES);
        return text == null
                ? TargetProcessSpec.NONE
                : TargetProcessSpec.parse(
                        s.where(s.entry(Keys.TARGET_PROCESSES.key()).orElseThrow()), text);
    }

    /** The live view's endpoint: {@code client_metrics_port} off or 1..65535, an IP literal to bind, the linger. */
    static MetricsEndpoint metrics(Settings s) {
        String portText = s.get(Keys.METRICS_PORT);
        String address = s.get(Keys.METRICS_ADDRESS);
        long linger = s.get(Keys.METRICS_LINGER_MS);
        int port = 0;
        if (!portText.equalsIgnoreCase("off")) {
            PropertiesFile.Entry e = s.entry(Keys.METRICS_PORT.key()).orElseThrow();
            if (!portText.matches("[0-9]{1,9}")) {
                throw new ConfigException(s.given(e, Limits.abbreviate(portText))
                        + ": not a port; expected off or a TCP port from 1 to 65535");
            }
            port = Integer.parseInt(portText);
            if (port < 1 || port > 65535) {
                throw new ConfigException(
                        s.given(e, portText) + ": out of range; expected off or a TCP port from 1 to 65535");
            }
        }
        if (!isIpLiteral(address)) {
            PropertiesFile.Entry e = s.entry(Keys.METRICS_ADDRESS.key()).orElseThrow();
            throw new ConfigException(s.given(e, Limits.abbreviate(address))
                    + ": not an IP address; expected one such as 127.0.0.1 (loopback, the default), 0.0.0.0 (every "
                    + "interface) or ::1");
        }
        if (port == 0) {
            // Typed for this run, a setting of the live view without its port would be ignored: refused instead. (A
            // properties file may hold them for the runs that give the port.)
            for (String key : List.of("client_metrics_linger_ms", "client_metrics_address")) {
                if (s.givenOnCommandLine(key)) {
                    PropertiesFile.Entry e = s.entry(key).orElseThrow();
                    throw new ConfigException(s.given(e, Limits.abbreviate(e.value()))
                            + ": the live view is off; add --metrics-port N (client_metrics_port), or drop it");
                }
            }
        }
        return new MetricsEndpoint(port, address, linger);
    }

    /** An IPv4 dotted quad or an IPv6 literal: an address the endpoint can bind without a name lookup. */
    static boolean isIpLiteral(String a) {
        String octet = "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";
        if (a.matches(octet + "(\\." + octet + "){3}")) {
            return true;
        }
        if (!a.matches("[0-9a-fA-F:.]{2,45}") || !a.contains(":")) {
            return false;
        }
        try {
            return InetAddress.getByName(a) instanceof Inet6Address; // a literal: parsed, never looked up
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** {@code client_jit_warmup}, else the environment's default, else auto. */
    static JitWarmupPolicy jitWarmup(Settings s, String environmentDefault) {
        Optional<PropertiesFile.Entry> e =
                s.entry(Keys.JIT_WARMUP.key()).filter(x -> !x.value().isEmpty());
        String envText = environmentDefault == null || environmentDefault.isBlank() ? null : environmentDefault;
        String text = s.string("client_jit_warmup", envText == null ? "auto" : envText);
        JitWarmupPolicy p = JitWarmupPolicy.parse(text);
        if (p == null) {
            String where = e.isPresent()
                    ? s.where(e.get()) + " = \"" + text + "\""
                    : "environment variable " + JIT_WARMUP_ENV + " = \"" + text + "\"";
            throw new ConfigException(where + ": not a warm-up setting; expected " + JitWarmupPolicy.EXPECTED);
        }
        return p;
    }

    /** Unknown keys, and the original's commands, which are never run. */
    private static List<String> unknownAndIgnored(Settings s) {
        List<String> warnings = new ArrayList<>();
        Set<String> known = new HashSet<>();
        Keys.all().forEach(k -> {
            known.add(k.key());
            known.addAll(k.aliases());
        });
        warnings.addAll(s.unknownKeys(known));
        for (Setting<String> k : Keys.COMMANDS) {
            s.entry(k.key())
                    .filter(e -> !e.value().isEmpty())
                    .ifPresent(
                            e -> warnings.add(
                                    s.where(e)
                                            + ": commands from a properties file are never executed; ignored (client health is monitored in-process)"));
        }
        return warnings;
    }

    private static UrlLayout layout(Settings s, UrlLayout.Version version) {
        return switch (version) {
            case PHP -> UrlLayout.of(version, s.get(Keys.PHP_HTML_PATH), s.get(Keys.PHP_SCRIPT_PATH));
            case SERVLETS -> UrlLayout.of(version, s.get(Keys.SERVLETS_HTML_PATH), s.get(Keys.SERVLETS_SCRIPT_PATH));
            case EJB -> UrlLayout.of(version, s.get(Keys.EJB_HTML_PATH), s.get(Keys.EJB_SCRIPT_PATH));
        };
    }

    private record Workload(WorkloadModel model, Source regionsFile, Source categoriesFile) {}

    /** Transition table (checked first), think time, data files and database policy. */
    private static Workload workload(Settings s, Source src, UrlLayout layout, List<String> warnings) {
        int columns = s.get(Keys.COLUMNS);
        int rows = s.get(Keys.ROWS);
        Source tableSrc = s.get(Keys.TRANSITION_TABLE);
        TransitionTable table = TransitionTable.parse(tableSrc, columns, rows);
        if (columns != Interaction.COUNT) {
            throw new ConfigException(src.displayName() + ": workload_number_of_columns = " + columns
                    + ": this client knows the 27 RUBiS interactions; expected 27");
        }
        warnings.addAll(Limits.check(s, table));
        TransitionMode mode = s.get(Keys.TRANSITION_MODE);
        List<TransitionTable.ColumnSum> deviations = table.columnSumDeviations();
        if (!deviations.isEmpty()) {
            // The original's tables have this property; one short line, the details are in `validate`.
            warnings.add(
                    table.source() + ": " + deviations.size() + " of " + table.columns() + " columns do not sum to 1 ("
                            + (mode == TransitionMode.COMPATIBLE
                                    ? "compatible mode walks them as the original did"
                                    : "normalize mode divides each by its sum")
                            + "); rubis-client validate lists them");
        }
        Source regionsFile = s.get(Keys.REGIONS_FILE);
        Source categoriesFile = s.get(Keys.CATEGORIES_FILE);
        WorkloadData data = WorkloadData.load(regionsFile, categoriesFile);
        DatabasePolicy policy = new DatabasePolicy(
                s.get(Keys.DATABASE_USERS),
                s.get(Keys.OLD_ITEMS),
                s.get(Keys.UNIQUE_ITEMS),
                s.get(Keys.RESERVE_PRICE),
                s.get(Keys.BUY_NOW),
                s.get(Keys.MAX_QUANTITY),
                s.get(Keys.DESCRIPTION_LENGTH),
                s.get(Keys.MAX_BIDS),
                s.get(Keys.MAX_COMMENTS),
                s.get(Keys.COMMENT_LENGTH));
        return new Workload(
                WorkloadModel.of(
                        table,
                        mode,
                        s.get(Keys.TPCW_THINK_TIME),
                        layout,
                        data,
                        policy,
                        s.get(Keys.ITEMS_PER_PAGE),
                        s.get(Keys.MAX_TRANSITIONS),
                        s.get(Keys.ONE_BASED_IDS),
                        s.get(Keys.ERROR_PAGES_WITHOUT_THINK)),
                regionsFile,
                categoriesFile);
    }

    private record Phases(long up, double upF, long run, long down, double downF) {}

    private static Phases phases(Settings s) {
        return new Phases(
                s.get(Keys.UP_RAMP_MS),
                s.get(Keys.UP_RAMP_FACTOR),
                s.get(Keys.RUN_MS),
                s.get(Keys.DOWN_RAMP_MS),
                s.get(Keys.DOWN_RAMP_FACTOR));
    }

    private static ClientConfig.ArrivalSettings arrival(Settings s, Source src, Arrivals arrivals) {
        Path iaFile = s.get(Keys.INTERARRIVAL_FILE);
        boolean profile = arrivals == Arrivals.HYBRID
                && (s.entry(Keys.RATE_SCHEDULE_FILE.key())
                                .filter(e -> !e.value().isEmpty())
                                .isPresent()
                        || s.entry(Keys.PROFILE_FILE.key())
                                .filter(e -> !e.value().isEmpty())
                                .isPresent());
        ClientConfig.ArrivalSettings arrival = new ClientConfig.ArrivalSettings(
                s.get(Keys.SESSION_RATE),
                s.get(Keys.INTERARRIVAL),
                iaFile,
                s.get(Keys.MAX_CONCURRENT_SESSIONS),
                s.get(Keys.CAP_POLICY));
        if (arrivals == Arrivals.HYBRID && iaFile == null && !profile && arrival.sessionRate() <= 0) {
            throw new ConfigException(src.displayName()
                    + ": hybrid arrivals need workload_session_rate > 0, workload_interarrival_file or "
                    + "workload_profile_file");
        }
        return arrival;
    }

    /**
     * Backend, threads and timeouts. The legacy backend's JDK settings are only read here; the
     * backend sets them as system properties when it is created.
     */
    private static ClientConfig.Execution execution(Settings s) {
        return new ClientConfig.Execution(
                s.get(Keys.BACKEND),
                s.get(Keys.THREADS),
                s.get(Keys.CONNECT_TIMEOUT_MS),
                s.get(Keys.REQUEST_TIMEOUT_MS),
                s.get(Keys.DOWNLOAD_IMAGES),
                s.get(Keys.POOL_MAX),
                s.get(Keys.TLS_RESUMPTION),
                s.get(Keys.HTTP_KEEPALIVE),
                s.get(Keys.HTTP_MAX_CONNECTIONS),
                s.get(Keys.BUSY_POLL),
                s.get(Keys.SOURCE_ADDRESSES),
                s.get(Keys.HTTP_STALE_CHECK_MS));
    }

    private static ClientConfig.EmbeddedServer server(Settings s) {
        return new ClientConfig.EmbeddedServer(
                s.get(Keys.SERVER_MODEL),
                s.get(Keys.SERVER_SIZE),
                s.get(Keys.SERVER_KEEPALIVE_MS),
                s.get(Keys.SERVER_JAVA_OPTIONS),
                s.get(Keys.SERVER_TLS),
                s.get(Keys.SERVER_TLS_RESUMPTION),
                s.get(Keys.SERVER_FAULTS));
    }

    static String fmt(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15
                ? String.valueOf((long) d)
                : String.format(Locale.ROOT, "%.4g", d);
    }
}
