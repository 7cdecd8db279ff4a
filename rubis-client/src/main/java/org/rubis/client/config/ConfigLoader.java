package org.rubis.client.config;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
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

    private static final Set<String> ORIGINAL_KEYS = Set.of(
            "httpd_hostname",
            "httpd_port",
            "httpd_use_version",
            "php_html_path",
            "php_script_path",
            "httpd_php_html_path",
            "httpd_php_script_path",
            "servlets_html_path",
            "servlets_script_path",
            "httpd_servlets_html_path",
            "httpd_servlets_script_path",
            "ejb_html_path",
            "ejb_script_path",
            "httpd_ejb_html_path",
            "httpd_ejb_script_path",
            "ejb_server",
            "servlets_server",
            "database_server",
            "workload_remote_client_nodes",
            "workload_remote_client_command",
            "workload_number_of_clients_per_node",
            "workload_transition_table",
            "workload_number_of_columns",
            "workload_number_of_rows",
            "workload_maximum_number_of_transitions",
            "workload_number_of_items_per_page",
            "workload_use_tpcw_think_time",
            "workload_up_ramp_time_in_ms",
            "workload_up_ramp_slowdown_factor",
            "workload_session_run_time_in_ms",
            "workload_down_ramp_time_in_ms",
            "workload_down_ramp_slowdown_factor",
            "database_number_of_users",
            "database_regions_file",
            "database_categories_file",
            "database_number_of_old_items",
            "database_percentage_of_unique_items",
            "database_percentage_of_items_with_reserve_price",
            "database_percentage_of_buy_now_items",
            "database_max_quantity_for_multiple_items",
            "database_item_description_length",
            "database_max_bids_per_item",
            "database_max_comments_per_user",
            "database_comment_max_length",
            "monitoring_debug_level",
            "monitoring_program",
            "monitoring_options",
            "monitoring_sampling_in_seconds",
            "monitoring_rsh",
            "monitoring_scp",
            "monitoring_gnuplot_terminal");

    /** Our keys; each has a default so that files of the original load unchanged. */
    public static final Map<String, String> NEW_KEYS = newKeys();

    private static Map<String, String> newKeys() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(
                "client_target",
                "embedded, or a base URL such as http://127.0.0.1:8080 (default: httpd_hostname:httpd_port)");
        m.put("client_seed", "run seed (default: random, recorded in the summary)");
        m.put("client_backend", "legacy|pooled|dedicated|netty (default legacy)");
        m.put("client_threads", "platform|virtual (default platform)");
        m.put("client_pool_max", "pooled backend: maximum connections (default 100)");
        m.put("client_connect_timeout_ms", "connect timeout (default 10000)");
        m.put("client_request_timeout_ms", "the whole reply within this many ms of the send (default 10000)");
        m.put("client_download_images", "yes|no: also fetch <IMG SRC> of each page (default no)");
        m.put("client_output_dir", "run directory, new or empty (default: a new directory under runs/)");
        m.put("client_progress", "yes|no: progress line every few seconds (default yes)");
        m.put(
                "client_capture",
                "yes|no: capture the run's packets (libpcap) and check every request against the wire (default no)");
        m.put(
                "client_probe",
                "yes|no: a reference probe on its own connection measures this host's floor (default no)");
        m.put("client_probe_rate", "reference probe: requests per second, 0.1 to 100 (default 5)");
        m.put(
                "client_probe_busy_poll",
                "yes|no: the probe busy-polls a non-blocking socket instead of blocking (default no)");
        m.put(
                "client_published_times",
                "client|wire: whose clock the summary's response times come from (wire needs client_capture; default client)");
        m.put(
                "client_jit_warmup",
                "auto|off|N: warm the client's request path up against a loopback stub before the run, until the JIT is quiet "
                        + "(auto), not at all (off: the measured requests start interpreted), or N requests (default auto; the environment variable "
                        + JIT_WARMUP_ENV + " sets the default)");
        m.put(
                "client_assertions",
                "run-phase assertions separated by ;, e.g. p99<200ms; errors<1%; throughput>40/s "
                        + "(a failed one: exit 99; docs/RUNNING.md, Assertions)");
        m.put(
                "client_metrics_port",
                "off|N: serve the live view on TCP port N during the run: /metrics for "
                        + "Prometheus, / the live page (docs/LIVE.md; default off)");
        m.put(
                "client_metrics_address",
                "the address the live view listens on, an IP address (default 127.0.0.1: "
                        + "loopback only; 0.0.0.0 for every interface)");
        m.put(
                "client_metrics_linger_ms",
                "how long the live view stays up after the run ends, for a last scrape or " + "look (default 0)");
        m.put(
                "client_busy_poll",
                "yes|no: netty backend: epoll event loop busy-waits (a whole core) instead of blocking (default no)");
        m.put("workload_transition_mode", "compatible|normalize (default compatible)");
        m.put("workload_think_scale", "multiplies every think time (default 1.0)");
        m.put(
                "workload_ramp_mode",
                "closed: stationary = users start uniformly over the up ramp, first request after a stationary think time; original = the original's (default stationary)");
        m.put(
                "client_source_addresses",
                "dedicated/netty on loopback: spread connections over 127.0.0.1..127.0.0.N (default 1: the OS chooses)");
        m.put("workload_one_based_ids", "yes: draw category/region ids 1..n; no: the original's 0..n-1 (default no)");
        m.put(
                "workload_max_error_pages_without_think",
                "consecutive ERROR pages that send the user back to Home at once, as the original "
                        + "did; after more, the return to Home waits a think time (default "
                        + WorkloadModel.ERROR_PAGES_WITHOUT_THINK + ")");
        m.put(
                "workload_sessions_per_user",
                "closed: sessions each user runs, then stops; 0 = until the end of the run (default 0)");
        m.put("client_http_keepalive", "legacy backend: the JDK's http.keepAlive (default: the JDK's, true)");
        m.put(
                "client_http_max_connections",
                "legacy backend: the JDK's http.maxConnections, idle connections kept per destination (default: the JDK's, 5)");
        m.put(
                "client_http_stale_check_ms",
                "pooled/dedicated: check a connection idle this long before reuse, a blocking read of up to 1 ms inside the response time; 0 = off (default 0)");
        m.put("workload_arrivals", "closed|hybrid (default closed)");
        m.put("workload_session_rate", "hybrid: sessions per second (default 10)");
        m.put(
                "workload_interarrival_distribution",
                "hybrid with a rate: exponential|deterministic (default exponential)");
        m.put("workload_interarrival_file", "hybrid: file of session inter-arrival times, one value in ms per line");
        m.put(
                "workload_rate_schedule_file",
                "hybrid: a load profile of session rates (an earlier version's name for workload_profile_file)");
        m.put(
                "workload_profile_file",
                "a load profile: lines 'TIME VALUE [MIX] [THINK-SCALE]', the users (closed) or sessions per second "
                        + "(hybrid) over the run phase (docs/WORKLOAD.md, Load profiles)");
        m.put(
                "workload_profile_shape",
                "step|ramp: between a profile's points, hold or change linearly, for a file without a 'shape' "
                        + "line (default step)");
        m.put(
                "workload_profile_leave",
                "closed with a profile: end-of-session = a user the profile no longer wants finishes its session; "
                        + "next-think = it leaves at its next think time (default end-of-session)");
        m.put("workload_max_concurrent_sessions", "hybrid: cap on concurrent sessions, 0 = none (default 0)");
        m.put("workload_cap_policy", "hybrid with a cap: delay|drop (default delay)");
        m.put(
                "client_tls_resumption",
                "https: yes = one TLS context for the client (new connections resume), no = a full handshake per connection (default yes)");
        m.put("server_tls", "embedded server: serve HTTPS with its self-signed loopback certificate (default no)");
        m.put("server_tls_resumption", "embedded server: allow TLS session resumption (default yes)");
        m.put("server_model", "embedded server: event|prefork (default event)");
        m.put("server_size", "embedded server: data scale factor (default 0.05)");
        m.put("server_keepalive_timeout_ms", "embedded server: keep-alive idle timeout (default 5000)");
        m.put("server_java_options", "embedded server: extra JVM options, heap/GC/tuning flags only (default -Xmx1g)");
        m.put(
                "server_faults",
                "embedded server: faults to inject, e.g. reset:0.1,delay=2000:0.2 (default none; see docs/FAULTS.md)");
        return m;
    }

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
        String target = target(s);
        UrlLayout.Version version = s.choice("httpd_use_version", UrlLayout.Version.PHP, UrlLayout.Version.class);
        UrlLayout layout = layout(s, version);
        Workload w = workload(s, src, layout, warnings);
        WorkloadModel model = w.model();
        Phases phases = phases(s);
        Arrivals arrivals = s.choice("workload_arrivals", Arrivals.CLOSED, Arrivals.class);
        ClientConfig.ArrivalSettings arrival = arrival(s, src, arrivals);
        ClientConfig.Execution execution = execution(s);
        ClientConfig.EmbeddedServer server = server(s);
        String seedText = s.string("client_seed", null);
        boolean seedGiven = seedText != null;
        long seed = seedGiven
                ? s.longValue("client_seed", 0L, Long.MIN_VALUE, "seed")
                : new SecureRandom().nextLong() & 0x7fffffffffffL;
        String out = s.string("client_output_dir", null);
        double thinkScale = s.doubleValue("workload_think_scale", 1.0, 0, "multiplier");
        Limits.checkThinkTimes(s, maxThinkMs(model), thinkScale, phases.upF, phases.downF);
        ProfileSettings profile = ProfileSettings.read(
                s,
                arrivals,
                model,
                model.table().source(),
                thinkScale,
                phases.run,
                s.intValue("workload_number_of_clients_per_node", 1, 1, "users"),
                maxThinkMs(model),
                phases.upF,
                phases.downF);
        int users = profile.users();

        Map<String, String> resolved = new LinkedHashMap<>();
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
                        + s.choice("workload_ramp_mode", RampMode.STATIONARY, RampMode.class));
        resolved.put(
                "regions / categories",
                model.data().regions().size() + " / "
                        + model.data().categories().size());
        resolved.put("database users", String.valueOf(model.policy().users()));
        resolved.put("backend", execution.backend() + " (" + execution.model() + ")");
        resolved.put("seed", seedGiven ? String.valueOf(seed) : seed + " (random)");

        ClientConfig.Measurement measurement = measurement(s);
        long sessionsPerUser = s.longValue("workload_sessions_per_user", 0L, 0, "sessions");
        boolean progress = s.yesNo("client_progress", true);
        return new ClientConfig(
                src.displayName(),
                target,
                model,
                w.regionsFile(),
                w.categoriesFile(),
                users,
                sessionsPerUser,
                phases.up,
                phases.upF,
                profile.runMs(),
                phases.down,
                phases.downF,
                thinkScale,
                s.choice("workload_ramp_mode", RampMode.STATIONARY, RampMode.class),
                seed,
                seedGiven,
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
        return s.entry("client_assertions")
                .filter(e -> !e.value().isBlank())
                .map(e -> Assertion.parseAll(e.value(), s.where(e)))
                .orElse(List.of());
    }

    private static ClientConfig.Measurement measurement(Settings s) {
        boolean capture = s.yesNo("client_capture", false);
        PublishedTimes published = s.choice("client_published_times", PublishedTimes.CLIENT, PublishedTimes.class);
        if (published == PublishedTimes.WIRE && !capture) {
            throw new ConfigException(
                    s.where(s.entry("client_published_times").orElseThrow())
                            + " = \"wire\": wire times need the capture; add --capture (client_capture = yes) or publish client times");
        }
        double probeRate = s.doubleValue("client_probe_rate", 5.0, 0.1, "requests per second");
        if (probeRate > Limits.MAX_PROBE_RATE) {
            PropertiesFile.Entry e = s.entry("client_probe_rate").orElseThrow();
            throw new ConfigException(
                    s.given(e, Limits.abbreviate(e.value())) + ": above the maximum of " + (int) Limits.MAX_PROBE_RATE
                            + " requests per second (the probe measures this host's floor at a low rate, on one connection, its load apart from "
                            + "the run's); expected 0.1 to " + (int) Limits.MAX_PROBE_RATE);
        }
        return new ClientConfig.Measurement(
                capture,
                s.yesNo("client_probe", false),
                probeRate,
                s.yesNo("client_probe_busy_poll", false),
                published,
                jitWarmup(s, System.getenv(JIT_WARMUP_ENV)),
                assertions(s),
                metrics(s));
    }

    /** The live view's endpoint: {@code client_metrics_port} off or 1..65535, an IP literal to bind, the linger. */
    static MetricsEndpoint metrics(Settings s) {
        String portText = s.string("client_metrics_port", "off");
        String address = s.string("client_metrics_address", MetricsEndpoint.OFF.address());
        long linger = s.longValue("client_metrics_linger_ms", 0L, 0, "milliseconds");
        int port = 0;
        if (!portText.equalsIgnoreCase("off")) {
            PropertiesFile.Entry e = s.entry("client_metrics_port").orElseThrow();
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
            PropertiesFile.Entry e = s.entry("client_metrics_address").orElseThrow();
            throw new ConfigException(s.given(e, Limits.abbreviate(address))
                    + ": not an IP address; expected one such as 127.0.0.1 (loopback, the default), 0.0.0.0 (every "
                    + "interface) or ::1");
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
                s.entry("client_jit_warmup").filter(x -> !x.value().isEmpty());
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
        Set<String> known = new HashSet<>(ORIGINAL_KEYS);
        known.addAll(NEW_KEYS.keySet());
        warnings.addAll(s.unknownKeys(known));
        for (String k : List.of(
                "workload_remote_client_nodes",
                "workload_remote_client_command",
                "monitoring_program",
                "monitoring_rsh",
                "monitoring_scp")) {
            s.entry(k)
                    .filter(e -> !e.value().isEmpty())
                    .ifPresent(
                            e -> warnings.add(
                                    s.where(e)
                                            + ": commands from a properties file are never executed; ignored (client health is monitored in-process)"));
        }
        return warnings;
    }

    private static String target(Settings s) {
        String target = s.string("client_target", null);
        if (target == null) {
            boolean oldFile = s.entry("httpd_hostname").isPresent();
            return oldFile
                    ? "http://" + s.requiredString("httpd_hostname", "localhost") + ":"
                            + s.intValue("httpd_port", 80, 1, "TCP port")
                    : "embedded";
        }
        return target.equals("embedded") ? target : checkUrl(s, target);
    }

    private static UrlLayout layout(Settings s, UrlLayout.Version version) {
        return switch (version) {
            case PHP ->
                UrlLayout.of(
                        version,
                        s.string("php_html_path", "/PHP", "httpd_php_html_path"),
                        s.string("php_script_path", "/PHP", "httpd_php_script_path"));
            case SERVLETS ->
                UrlLayout.of(
                        version,
                        s.string("servlets_html_path", "/Servlet_HTML", "httpd_servlets_html_path"),
                        s.string("servlets_script_path", "/servlet", "httpd_servlets_script_path"));
            case EJB ->
                UrlLayout.of(
                        version,
                        s.string("ejb_html_path", "/ejb_rubis_web", "httpd_ejb_html_path"),
                        s.string("ejb_script_path", "/ejb_rubis_web/servlet", "httpd_ejb_script_path"));
        };
    }

    private record Workload(WorkloadModel model, Source regionsFile, Source categoriesFile) {}

    /** Transition table (checked first), think time, data files and database policy. */
    private static Workload workload(Settings s, Source src, UrlLayout layout, List<String> warnings) {
        int columns = s.intValue("workload_number_of_columns", 27, 1, "columns");
        int rows = s.intValue("workload_number_of_rows", 29, 3, "rows");
        Source tableSrc = s.path("workload_transition_table", null);
        TransitionTable table = TransitionTable.parse(tableSrc, columns, rows);
        if (columns != Interaction.COUNT) {
            throw new ConfigException(src.displayName() + ": workload_number_of_columns = " + columns
                    + ": this client knows the 27 RUBiS interactions; expected 27");
        }
        warnings.addAll(Limits.check(s, table));
        TransitionMode mode = s.choice("workload_transition_mode", TransitionMode.COMPATIBLE, TransitionMode.class);
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
        Source regionsFile = s.path("database_regions_file", "ebay_regions.txt");
        Source categoriesFile = s.path("database_categories_file", "ebay_simple_categories.txt");
        WorkloadData data = WorkloadData.load(regionsFile, categoriesFile);
        DatabasePolicy policy = new DatabasePolicy(
                s.intValue("database_number_of_users", null, 1, "users"),
                s.intValue("database_number_of_old_items", 0, 0, "items"),
                percent(s, "database_percentage_of_unique_items", 80),
                percent(s, "database_percentage_of_items_with_reserve_price", 40),
                percent(s, "database_percentage_of_buy_now_items", 10),
                s.intValue("database_max_quantity_for_multiple_items", 10, 1, "items"),
                s.intValue("database_item_description_length", 8192, 1, "characters"),
                s.intValue("database_max_bids_per_item", 20, 0, "bids"),
                s.intValue("database_max_comments_per_user", 20, 0, "comments"),
                s.intValue("database_comment_max_length", 2048, 1, "characters"));
        return new Workload(
                WorkloadModel.of(
                        table,
                        mode,
                        s.yesNo("workload_use_tpcw_think_time", true),
                        layout,
                        data,
                        policy,
                        s.intValue("workload_number_of_items_per_page", 20, 1, "items"),
                        s.intValue("workload_maximum_number_of_transitions", 1000, 1, "requests"),
                        s.yesNo("workload_one_based_ids", false),
                        s.intValue(
                                "workload_max_error_pages_without_think",
                                WorkloadModel.ERROR_PAGES_WITHOUT_THINK,
                                0,
                                "pages")),
                regionsFile,
                categoriesFile);
    }

    private record Phases(long up, double upF, long run, long down, double downF) {}

    private static Phases phases(Settings s) {
        return new Phases(
                s.longValue("workload_up_ramp_time_in_ms", 0L, 0, "milliseconds"),
                s.doubleValue("workload_up_ramp_slowdown_factor", 1.0, 0, "think-time multiplier"),
                s.longValue("workload_session_run_time_in_ms", null, 1, "milliseconds"),
                s.longValue("workload_down_ramp_time_in_ms", 0L, 0, "milliseconds"),
                s.doubleValue("workload_down_ramp_slowdown_factor", 1.0, 0, "think-time multiplier"));
    }

    private static ClientConfig.ArrivalSettings arrival(Settings s, Source src, Arrivals arrivals) {
        Path iaFile = optionalFile(s, "workload_interarrival_file");
        boolean profile = arrivals == Arrivals.HYBRID
                && (s.entry("workload_rate_schedule_file")
                                .filter(e -> !e.value().isEmpty())
                                .isPresent()
                        || s.entry("workload_profile_file")
                                .filter(e -> !e.value().isEmpty())
                                .isPresent());
        ClientConfig.ArrivalSettings arrival = new ClientConfig.ArrivalSettings(
                s.doubleValue("workload_session_rate", 10.0, 0, "sessions per second"),
                s.choice("workload_interarrival_distribution", Interarrival.EXPONENTIAL, Interarrival.class),
                iaFile,
                s.intValue("workload_max_concurrent_sessions", 0, 0, "sessions"),
                s.choice("workload_cap_policy", CapPolicy.DELAY, CapPolicy.class));
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
                s.choice("client_backend", BackendKind.LEGACY, BackendKind.class),
                s.choice("client_threads", ThreadModel.PLATFORM, ThreadModel.class),
                s.intValue("client_connect_timeout_ms", 10_000, 1, "milliseconds"),
                s.intValue("client_request_timeout_ms", 10_000, 1, "milliseconds"),
                s.yesNo("client_download_images", false),
                s.intValue("client_pool_max", 100, 1, "connections"),
                s.yesNo("client_tls_resumption", true),
                s.string("client_http_keepalive", null) == null ? null : s.yesNo("client_http_keepalive", true),
                s.string("client_http_max_connections", null) == null
                        ? null
                        : s.intValue("client_http_max_connections", 5, 1, "connections"),
                s.yesNo("client_busy_poll", false),
                s.intValue("client_source_addresses", 1, 1, "loopback source addresses"),
                s.intValue("client_http_stale_check_ms", 0, 0, "milliseconds"));
    }

    private static ClientConfig.EmbeddedServer server(Settings s) {
        return new ClientConfig.EmbeddedServer(
                s.choice("server_model", ServerModel.EVENT, ServerModel.class),
                s.doubleValue("server_size", 0.05, 0.0001, "scale factor"),
                s.intValue("server_keepalive_timeout_ms", 5000, 0, "milliseconds"),
                JvmOptions.parse(
                                s.string("server_java_options", "-Xmx1g"),
                                s.entry("server_java_options").map(s::where).orElse("server_java_options"))
                        .text(),
                s.yesNo("server_tls", false),
                s.yesNo("server_tls_resumption", true),
                ServerFaults.check(s));
    }

    private static int percent(Settings s, String key, int def) {
        int v = s.intValue(key, def, 0, "percent");
        if (v > 100) {
            throw new ConfigException(s.where(s.entry(key).orElseThrow()) + " = \"" + v
                    + "\": out of range; expected a percentage 0..100");
        }
        return v;
    }

    private static Path optionalFile(Settings s, String key) {
        if (s.entry(key).filter(e -> !e.value().isEmpty()).isEmpty()) {
            return null;
        }
        Source src = s.path(key, null);
        if (src instanceof Source.FileSource f) {
            return f.path();
        }
        throw new ConfigException(s.where(s.entry(key).orElseThrow()) + ": must name a file on disk");
    }

    private static String checkUrl(Settings s, String target) {
        try {
            URI u = new URI(target);
            if (!"http".equals(u.getScheme()) && !"https".equals(u.getScheme()) || u.getHost() == null) {
                throw new URISyntaxException(target, "not an http(s) URL with a host");
            }
            if (u.getPort() == 0 || u.getPort() > 65535) {
                throw new ConfigException(s.given(s.entry("client_target").orElseThrow(), target) + ": port "
                        + u.getPort() + " is out of range; expected a TCP port from 1 to 65535");
            }
            String t = target;
            while (t.endsWith("/")) {
                t = t.substring(0, t.length() - 1);
            }
            return t;
        } catch (URISyntaxException e) {
            PropertiesFile.Entry en = s.entry("client_target").orElseThrow();
            throw new ConfigException(
                    s.given(en, target) + ": not a target; expected embedded or a URL such as http://127.0.0.1:8080");
        }
    }

    static String fmt(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15
                ? String.valueOf((long) d)
                : String.format(Locale.ROOT, "%.4g", d);
    }
}
