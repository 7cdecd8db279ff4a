package org.rubis.client.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.rubis.client.input.ConfigException;
import org.rubis.client.input.Source;
import org.rubis.client.profile.ProfileShape;
import org.rubis.client.workload.TransitionMode;
import org.rubis.client.workload.UrlLayout;
import org.rubis.client.workload.WorkloadModel;

/**
 * Every key of rubis.properties, the original's and ours, each once: its default, bounds, reading, line of
 * documentation and run option ({@link Setting}). The loader reads through these entries, unknown keys are those not
 * here, run's named options bind to them by their option, and {@code run --help} shows their packaged defaults.
 */
public final class Keys {

    private static final List<Setting<?>> ALL = new ArrayList<>();

    // ---- the original's keys (docs/ORIGINAL-COMPATIBILITY.md)

    public static final Setting<String> HTTPD_HOSTNAME =
            add(Setting.of("httpd_hostname", "localhost", null, (s, k, d) -> s.requiredString(k, d)));
    public static final Setting<Integer> HTTPD_PORT = add(Setting.integer("httpd_port", 80, 1, "TCP port", null));
    public static final Setting<UrlLayout.Version> HTTPD_USE_VERSION =
            add(Setting.choice("httpd_use_version", UrlLayout.Version.PHP, UrlLayout.Version.class, null));
    public static final Setting<String> PHP_HTML_PATH =
            add(Setting.text("php_html_path", "/PHP", null, "httpd_php_html_path"));
    public static final Setting<String> PHP_SCRIPT_PATH =
            add(Setting.text("php_script_path", "/PHP", null, "httpd_php_script_path"));
    public static final Setting<String> SERVLETS_HTML_PATH =
            add(Setting.text("servlets_html_path", "/Servlet_HTML", null, "httpd_servlets_html_path"));
    public static final Setting<String> SERVLETS_SCRIPT_PATH =
            add(Setting.text("servlets_script_path", "/servlet", null, "httpd_servlets_script_path"));
    public static final Setting<String> EJB_HTML_PATH =
            add(Setting.text("ejb_html_path", "/ejb_rubis_web", null, "httpd_ejb_html_path"));
    public static final Setting<String> EJB_SCRIPT_PATH =
            add(Setting.text("ejb_script_path", "/ejb_rubis_web/servlet", null, "httpd_ejb_script_path"));
    /** The original's commands (remote clients, monitoring): known, never run. */
    public static final List<Setting<String>> COMMANDS = List.of(
            add(Setting.known("workload_remote_client_nodes", null)),
            add(Setting.known("workload_remote_client_command", null)),
            add(Setting.known("monitoring_program", null)),
            add(Setting.known("monitoring_rsh", null)),
            add(Setting.known("monitoring_scp", null)));

    static {
        for (String k : List.of(
                "ejb_server",
                "servlets_server",
                "database_server",
                "monitoring_debug_level",
                "monitoring_options",
                "monitoring_sampling_in_seconds",
                "monitoring_gnuplot_terminal")) {
            add(Setting.known(k, null)); // the original's, of no use here
        }
    }

    public static final Setting<Integer> USERS =
            add(Setting.integer("workload_number_of_clients_per_node", 1, 1, "users", null)
                    .flag("--users"));
    public static final Setting<Source> TRANSITION_TABLE = add(Setting.path("workload_transition_table", null));
    public static final Setting<Integer> COLUMNS =
            add(Setting.integer("workload_number_of_columns", 27, 1, "columns", null));
    public static final Setting<Integer> ROWS = add(Setting.integer("workload_number_of_rows", 29, 3, "rows", null));
    public static final Setting<Integer> MAX_TRANSITIONS =
            add(Setting.integer("workload_maximum_number_of_transitions", 1000, 1, "requests", null)
                    .flag("--max-transitions"));
    public static final Setting<Integer> ITEMS_PER_PAGE =
            add(Setting.integer("workload_number_of_items_per_page", 20, 1, "items", null));
    public static final Setting<Boolean> TPCW_THINK_TIME =
            add(Setting.yesNo("workload_use_tpcw_think_time", true, null));
    public static final Setting<Long> UP_RAMP_MS =
            add(Setting.whole("workload_up_ramp_time_in_ms", 0L, 0, "milliseconds", null)
                    .flag(Flag.millis("--ramp-up", true)));
    public static final Setting<Double> UP_RAMP_FACTOR =
            add(Setting.number("workload_up_ramp_slowdown_factor", 1.0, 0, "think-time multiplier", null));
    public static final Setting<Long> RUN_MS =
            add(Setting.whole("workload_session_run_time_in_ms", null, 1, "milliseconds", null)
                    .flag(Flag.millis("--duration", true)));
    public static final Setting<Long> DOWN_RAMP_MS =
            add(Setting.whole("workload_down_ramp_time_in_ms", 0L, 0, "milliseconds", null)
                    .flag(Flag.millis("--ramp-down", true)));
    public static final Setting<Double> DOWN_RAMP_FACTOR =
            add(Setting.number("workload_down_ramp_slowdown_factor", 1.0, 0, "think-time multiplier", null));
    public static final Setting<Integer> DATABASE_USERS =
            add(Setting.integer("database_number_of_users", null, 1, "users", null));
    public static final Setting<Source> REGIONS_FILE = add(Setting.path("database_regions_file", "ebay_regions.txt"));
    public static final Setting<Source> CATEGORIES_FILE =
            add(Setting.path("database_categories_file", "ebay_simple_categories.txt"));
    public static final Setting<Integer> OLD_ITEMS =
            add(Setting.integer("database_number_of_old_items", 0, 0, "items", null));
    public static final Setting<Integer> UNIQUE_ITEMS = add(percent("database_percentage_of_unique_items", 80));
    public static final Setting<Integer> RESERVE_PRICE =
            add(percent("database_percentage_of_items_with_reserve_price", 40));
    public static final Setting<Integer> BUY_NOW = add(percent("database_percentage_of_buy_now_items", 10));
    public static final Setting<Integer> MAX_QUANTITY =
            add(Setting.integer("database_max_quantity_for_multiple_items", 10, 1, "items", null));
    public static final Setting<Integer> DESCRIPTION_LENGTH =
            add(Setting.integer("database_item_description_length", 8192, 1, "characters", null));
    public static final Setting<Integer> MAX_BIDS =
            add(Setting.integer("database_max_bids_per_item", 20, 0, "bids", null));
    public static final Setting<Integer> MAX_COMMENTS =
            add(Setting.integer("database_max_comments_per_user", 20, 0, "comments", null));
    public static final Setting<Integer> COMMENT_LENGTH =
            add(Setting.integer("database_comment_max_length", 2048, 1, "characters", null));

    // ---- ours: each has a default, so that files of the original load unchanged

    public static final Setting<String> TARGET = add(Setting.<String>of(
                    "client_target",
                    null,
                    "embedded, or a base URL such as http://127.0.0.1:8080 (default: httpd_hostname:httpd_port)",
                    (s, k, d) -> TargetUrl.read(s))
            .flag("--target"));
    public static final Setting<Long> SEED = add(Setting.<Long>of(
                    "client_seed",
                    null,
                    "run seed (default: random, recorded in the summary)",
                    (s, k, d) ->
                            s.string(k, null) == null ? d : Long.valueOf(s.longValue(k, 0L, Long.MIN_VALUE, "seed")))
            .flag(Flag.value("--seed")));
    public static final Setting<String> TARGET_PROCESSES = add(Setting.text(
                    "client_target_processes",
                    null,
                    "processes (comm names) or a cgroup whose CPU is reported as the target's (SERVER)")
            .flag(Flag.value("--target-processes")));
    public static final Setting<String> WRITE_SALT = add(Setting.of(
            "client_write_salt",
            null,
            "1-6 of a-z0-9 the run adds to what it writes, or none (default: random per run)",
            (s, k, d) -> s.word(k, d, "none|[a-z0-9]{1,6}", "1 to 6 of a-z0-9, or none")));
    public static final Setting<BackendKind> BACKEND = add(Setting.choice(
                    "client_backend", BackendKind.LEGACY, BackendKind.class, "legacy|pooled|dedicated|netty|kernel")
            .flag("--backend"));
    public static final Setting<ThreadModel> THREADS =
            add(Setting.choice("client_threads", ThreadModel.PLATFORM, ThreadModel.class, "platform|virtual")
                    .flag("--threads"));
    public static final Setting<Integer> POOL_MAX =
            add(Setting.integer("client_pool_max", 100, 1, "connections", "pooled backend: maximum connections")
                    .flag("--pool-max"));
    public static final Setting<Integer> CONNECT_TIMEOUT_MS =
            add(Setting.integer("client_connect_timeout_ms", 10_000, 1, "milliseconds", "connect timeout"));
    public static final Setting<Integer> REQUEST_TIMEOUT_MS = add(Setting.integer(
            "client_request_timeout_ms", 10_000, 1, "milliseconds", "the whole reply within this many ms of the send"));
    public static final Setting<Boolean> DOWNLOAD_IMAGES =
            add(Setting.yesNo("client_download_images", false, "yes|no: also fetch <IMG SRC> of each page"));
    public static final Setting<String> OUTPUT_DIR = add(Setting.text(
                    "client_output_dir", null, "run directory, new or empty (default: a new directory under runs/)")
            .flag(Flag.value("--out")));
    public static final Setting<Boolean> PROGRESS =
            add(Setting.yesNo("client_progress", true, "yes|no: progress line every few seconds")
                    .flag(Flag.no("--no-progress")));
    public static final Setting<Boolean> CAPTURE = add(Setting.yesNo(
                    "client_capture",
                    false,
                    "yes|no: capture the run's packets (libpcap) and check every request against the wire")
            .flag(Flag.yes("--capture")));
    public static final Setting<Boolean> PROBE = add(Setting.yesNo(
                    "client_probe", false, "yes|no: a reference probe on its own connection measures this host's floor")
            .flag(Flag.yes("--probe")));
    public static final Setting<Double> PROBE_RATE = add(Setting.number(
            "client_probe_rate", 5.0, 0.1, "requests per second", "reference probe: requests per second, 0.1 to 100"));
    public static final Setting<Boolean> PROBE_BUSY_POLL = add(Setting.yesNo(
            "client_probe_busy_poll", false, "yes|no: the probe busy-polls a non-blocking socket instead of blocking"));
    public static final Setting<String> PUBLISHED_TIMES = add(Setting.known(
                    "client_published_times",
                    "client|wire|kernel: whose clock the published response times are (default: kernel's backend)")
            .flag(Flag.value("--published-times")));
    public static final Setting<String> JIT_WARMUP = add(Setting.known(
                    "client_jit_warmup",
                    "auto|off|N: warm the request path up before the run (default auto, or RUBIS_JIT_WARMUP)")
            .flag(Flag.value("--jit-warmup")));
    public static final Setting<String> ASSERTIONS = add(Setting.known(
            "client_assertions", "run-phase assertions separated by ;, e.g. p99<200ms; errors<1% (docs/RUNNING.md)"));
    public static final Setting<String> METRICS_PORT = add(Setting.text(
                    "client_metrics_port",
                    "off",
                    "off|N: the live view on TCP port N, /metrics and the live page (docs/LIVE.md)")
            .flag(Flag.value("--metrics-port")));
    public static final Setting<String> METRICS_ADDRESS = add(Setting.text(
                    "client_metrics_address",
                    MetricsEndpoint.OFF.address(),
                    "the IP address the live view listens on (0.0.0.0: every interface)")
            .flag(Flag.value("--metrics-address")));
    public static final Setting<Long> METRICS_LINGER_MS = add(Setting.whole(
                    "client_metrics_linger_ms",
                    0L,
                    0,
                    "milliseconds",
                    "how long the live view stays up after the run ends, for a last scrape or look")
            .flag(Flag.millis("--metrics-linger", false)));
    public static final Setting<Boolean> BUSY_POLL = add(Setting.yesNo(
                    "client_busy_poll",
                    false,
                    "yes|no: netty backend: epoll event loop busy-waits (a whole core) instead of blocking")
            .flag(Flag.yes("--busy-poll")));
    public static final Setting<TransitionMode> TRANSITION_MODE = add(Setting.choice(
                    "workload_transition_mode", TransitionMode.COMPATIBLE, TransitionMode.class, "compatible|normalize")
            .flag("--transition-mode"));
    public static final Setting<Double> THINK_SCALE =
            add(Setting.number("workload_think_scale", 1.0, 0, "multiplier", "multiplies every think time")
                    .flag("--think-scale"));
    public static final Setting<RampMode> RAMP_MODE = add(Setting.choice(
                    "workload_ramp_mode",
                    RampMode.STATIONARY,
                    RampMode.class,
                    "closed: stationary (users start uniformly over the up ramp) or original")
            .flag("--ramp-mode"));
    public static final Setting<Integer> SOURCE_ADDRESSES = add(Setting.integer(
                    "client_source_addresses",
                    1,
                    1,
                    "loopback source addresses",
                    "dedicated/netty on loopback: spread connections over 127.0.0.1..127.0.0.N (1: the OS chooses)")
            .flag("--source-addresses"));
    public static final Setting<Boolean> ONE_BASED_IDS = add(Setting.yesNo(
            "workload_one_based_ids", false, "yes: draw category/region ids 1..n; no: the original's 0..n-1"));
    public static final Setting<Integer> ERROR_PAGES_WITHOUT_THINK = add(Setting.integer(
            "workload_max_error_pages_without_think",
            WorkloadModel.ERROR_PAGES_WITHOUT_THINK,
            0,
            "pages",
            "consecutive ERROR pages sent back to Home without a think time, as the original"));
    public static final Setting<Long> SESSIONS_PER_USER = add(Setting.whole(
                    "workload_sessions_per_user",
                    0L,
                    0,
                    "sessions",
                    "closed: sessions each user runs, then stops; 0 = until the end of the run")
            .flag("--sessions-per-user"));
    public static final Setting<Boolean> HTTP_KEEPALIVE = add(Setting.of(
            "client_http_keepalive",
            null,
            "legacy backend: the JDK's http.keepAlive (default: the JDK's, true)",
            (s, k, d) -> s.string(k, null) == null ? d : Boolean.valueOf(s.yesNo(k, true))));
    public static final Setting<Integer> HTTP_MAX_CONNECTIONS = add(Setting.of(
            "client_http_max_connections",
            null,
            "legacy backend: the JDK's http.maxConnections (default: the JDK's, 5)",
            (s, k, d) -> s.string(k, null) == null ? d : Integer.valueOf(s.intValue(k, 5, 1, "connections"))));
    public static final Setting<Integer> HTTP_STALE_CHECK_MS = add(Setting.integer(
            "client_http_stale_check_ms",
            0,
            0,
            "milliseconds",
            "pooled/dedicated: check a connection idle this long before reuse; 0 = off"));
    public static final Setting<Arrivals> ARRIVALS =
            add(Setting.choice("workload_arrivals", Arrivals.CLOSED, Arrivals.class, "closed|hybrid")
                    .flag("--arrivals"));
    public static final Setting<Double> SESSION_RATE =
            add(Setting.number("workload_session_rate", 10.0, 0, "sessions per second", "hybrid: sessions per second")
                    .flag("--session-rate"));
    public static final Setting<Interarrival> INTERARRIVAL = add(Setting.choice(
                    "workload_interarrival_distribution",
                    Interarrival.EXPONENTIAL,
                    Interarrival.class,
                    "hybrid with a rate: exponential|deterministic")
            .flag("--interarrival"));
    public static final Setting<Path> INTERARRIVAL_FILE = add(Setting.<Path>of(
                    "workload_interarrival_file",
                    null,
                    "hybrid: file of session inter-arrival times, one value in ms per line",
                    (s, k, d) -> fileOnDisk(s, k))
            .flag(Flag.value("--interarrival-file")));
    public static final Setting<String> RATE_SCHEDULE_FILE = add(Setting.known(
                    "workload_rate_schedule_file",
                    "hybrid: a load profile of session rates (an earlier version's name for workload_profile_file)")
            .flag(Flag.value("--rate-schedule")));
    public static final Setting<String> PROFILE_FILE = add(Setting.known(
                    "workload_profile_file",
                    "a load profile: the users or sessions per second over the run (docs/WORKLOAD.md)")
            .flag(Flag.value("--profile")));
    public static final Setting<ProfileShape> PROFILE_SHAPE = add(Setting.choice(
                    "workload_profile_shape",
                    ProfileShape.STEP,
                    ProfileShape.class,
                    "step|ramp: between a profile's points, for a file without a shape line")
            .flag(Flag.value("--profile-shape")));
    public static final Setting<LeavePolicy> PROFILE_LEAVE = add(Setting.choice(
                    "workload_profile_leave",
                    LeaveRule.DEFAULT.policy(),
                    LeavePolicy.class,
                    "closed with a profile: how a user the profile lets go leaves")
            .flag(Flag.value("--leave")));
    public static final Setting<Long> PROFILE_LEAVE_GRACE_MS = add(Setting.whole(
                    "workload_profile_leave_grace_in_ms",
                    LeaveRule.DEFAULT_GRACE_MS,
                    0,
                    "milliseconds",
                    "closed with a profile, leave graceful: how long a user let go may stay")
            .flag(Flag.millis("--leave-grace", false)));
    public static final Setting<Integer> MAX_CONCURRENT_SESSIONS = add(Setting.integer(
                    "workload_max_concurrent_sessions",
                    0,
                    0,
                    "sessions",
                    "hybrid: cap on concurrent sessions, 0 = none")
            .flag("--max-sessions"));
    public static final Setting<CapPolicy> CAP_POLICY =
            add(Setting.choice("workload_cap_policy", CapPolicy.DELAY, CapPolicy.class, "hybrid with a cap: delay|drop")
                    .flag("--cap-policy"));
    public static final Setting<Boolean> TLS_RESUMPTION = add(Setting.yesNo(
                    "client_tls_resumption",
                    true,
                    "https: yes = new connections resume TLS sessions, no = full handshakes")
            .flag(new Flag("--tls-resumption", Flag.Form.ON_OFF, true)));
    public static final Setting<Boolean> SERVER_TLS = add(
            Setting.yesNo("server_tls", false, "embedded server: serve HTTPS with its self-signed loopback certificate")
                    .flag(Flag.yes("--tls")));
    public static final Setting<Boolean> SERVER_TLS_RESUMPTION =
            add(Setting.yesNo("server_tls_resumption", true, "embedded server: allow TLS session resumption"));
    public static final Setting<ServerModel> SERVER_MODEL =
            add(Setting.choice("server_model", ServerModel.EVENT, ServerModel.class, "embedded server: event|prefork")
                    .flag("--server-model"));
    public static final Setting<Double> SERVER_SIZE =
            add(Setting.number("server_size", 0.05, 0.0001, "scale factor", "embedded server: data scale factor"));
    public static final Setting<Integer> SERVER_KEEPALIVE_MS = add(Setting.integer(
            "server_keepalive_timeout_ms", 5000, 0, "milliseconds", "embedded server: keep-alive idle timeout"));
    public static final Setting<String> SERVER_JAVA_OPTIONS = add(Setting.of(
            "server_java_options",
            "-Xmx1g",
            "embedded server: extra JVM options, heap/GC/tuning flags only",
            (s, k, d) -> JvmOptions.parse(
                            s.string(k, d), s.entry(k).map(s::where).orElse(k))
                    .text()));
    public static final Setting<String> SERVER_FAULTS = add(Setting.of(
            "server_faults",
            "",
            "embedded server: faults to inject, e.g. reset:0.1,delay=2000:0.2 (see docs/FAULTS.md)",
            (s, k, d) -> ServerFaults.check(s, k, d)));

    private Keys() {}

    /** Every key, the original's first (their {@code httpd_} spellings are the aliases of theirs). */
    public static List<Setting<?>> all() {
        return List.copyOf(ALL);
    }

    /** The setting that run's option {@code name} sets, if any. */
    public static Optional<Setting<?>> byOption(String name) {
        return ALL.stream()
                .filter(k -> k.option() != null && k.option().name().equals(name))
                .findFirst();
    }

    private static <T> Setting<T> add(Setting<T> s) {
        ALL.add(s);
        return s;
    }

    private static Setting<Integer> percent(String key, int def) {
        return Setting.of(key, def, null, (s, k, d) -> {
            int v = s.intValue(k, d, 0, "percent");
            if (v > 100) {
                throw new ConfigException(s.where(s.entry(k).orElseThrow()) + " = \"" + v
                        + "\": out of range; expected a percentage 0..100");
            }
            return v;
        });
    }

    /** The path of a file on disk the key names, or null when unset. */
    private static Path fileOnDisk(Settings s, String key) {
        if (s.entry(key).filter(e -> !e.value().isEmpty()).isEmpty()) {
            return null;
        }
        Source src = s.path(key, null);
        if (src instanceof Source.FileSource f) {
            return f.path();
        }
        throw new ConfigException(s.where(s.entry(key).orElseThrow()) + ": must name a file on disk");
    }
}
