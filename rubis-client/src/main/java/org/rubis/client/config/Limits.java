package org.rubis.client.config;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rubis.client.input.ConfigException;
import org.rubis.client.workload.TransitionTable;

/**
 * Sane bounds of every duration, count and rate a user gives, checked at load. Without them a
 * value that overflows ({@code --duration 99999999999999h}, a run time of {@link Long#MAX_VALUE},
 * an inter-arrival of 1e300 ms) wrapped around and the run ended at once with 0 requests while
 * saying {@code complete}. Also the warnings about input that is legal but probably not meant.
 */
public final class Limits {

    /** Longest run phase, inter-arrival, or schedule start: 30 days. */
    public static final long MAX_DURATION_MS = 30L * 24 * 3600 * 1000;
    /** Most emulated users (closed) or concurrent sessions (hybrid). */
    public static final long MAX_USERS = 1_000_000;
    /** Session rates (per second) outside this range are refused (0 is "no rate"). */
    public static final double MIN_RATE = 1e-6;

    public static final double MAX_RATE = 1e6;
    /** The reference probe's highest rate (per second): one connection, requests one after another, at a low rate. */
    public static final double MAX_PROBE_RATE = 100;

    private static final List<String> DURATION_KEYS = List.of(
            "workload_up_ramp_time_in_ms",
            "workload_session_run_time_in_ms",
            "workload_down_ramp_time_in_ms",
            "workload_profile_leave_grace_in_ms",
            "client_connect_timeout_ms",
            "client_request_timeout_ms",
            "server_keepalive_timeout_ms");
    private static final List<String> USER_KEYS =
            List.of("workload_number_of_clients_per_node", "workload_max_concurrent_sessions");

    private Limits() {}

    /**
     * Checks the bounds (a {@link ConfigException} naming the key) and returns the warnings about
     * {@code s} and {@code table}.
     */
    public static List<String> check(Settings s, TransitionTable table) {
        for (String k : DURATION_KEYS) {
            s.entry(k).filter(e -> !e.value().isEmpty()).ifPresent(e -> {
                if (!fits(e.value(), MAX_DURATION_MS)) {
                    throw new ConfigException(
                            s.given(e, abbreviate(e.value())) + ": longer than the maximum of 30 days ("
                                    + MAX_DURATION_MS + " ms); expected a duration in milliseconds up to that");
                }
            });
        }
        for (String k : USER_KEYS) {
            s.entry(k).filter(e -> !e.value().isEmpty()).ifPresent(e -> {
                if (!fits(e.value(), MAX_USERS)) {
                    throw new ConfigException(
                            s.given(e, abbreviate(e.value())) + ": more than the maximum of " + MAX_USERS);
                }
            });
        }
        s.entry(Keys.SESSION_RATE.key()).filter(e -> !e.value().isEmpty()).ifPresent(e -> {
            double r;
            try {
                r = Double.parseDouble(e.value());
            } catch (NumberFormatException x) {
                return; // Settings reports it
            }
            if (r != 0 && (r < MIN_RATE || r > MAX_RATE)) {
                throw new ConfigException(
                        s.where(e) + " = \"" + abbreviate(e.value()) + "\": out of range; expected 0 or a rate from "
                                + MIN_RATE + " to " + (long) MAX_RATE + " sessions per second");
            }
        });

        List<String> warnings = new ArrayList<>(s.file().duplicates());
        if (s.entry("workload_number_of_clients_per_node")
                        .filter(e -> !e.value().isEmpty())
                        .isEmpty()
                && s.entry(Keys.PROFILE_FILE.key())
                        .filter(e -> !e.value().isEmpty())
                        .isEmpty()) {
            warnings.add(s.file().source().displayName()
                    + ": workload_number_of_clients_per_node is not set: 1 emulated user"
                    + " (closed arrivals); set it, or give --users");
        }
        double end = 0;
        for (int c = 0; c < table.columns(); c++) {
            end += table.probability(table.endRow(), c);
        }
        if (end == 0) {
            warnings.add(table.source()
                    + ": the End of Session row is all zero: no session ends by the table; sessions end only after "
                    + "workload_maximum_number_of_transitions requests or at the end of the run");
        }
        return warnings;
    }

    /**
     * Bounds the products that make a think time: the longest think time of the workload ({@code maxThinkMs}: 70 s for
     * TPC-W, else the table's longest waiting time) times the think scale, and that times each ramp's slowdown factor,
     * must be at most {@link #MAX_DURATION_MS}, the bound of every duration. Larger products (--think-scale 1e10 or
     * 1e308, a factor of 1e308) wrapped the intended send instant negative: users sent with no think time at all
     * while the run said complete. A one-line error names the option or key and its largest value here.
     */
    public static void checkThinkTimes(
            Settings s, long maxThinkMs, double thinkScale, double upFactor, double downFactor) {
        if (maxThinkMs <= 0) {
            return;
        }
        double scaled = maxThinkMs * thinkScale;
        if (scaled > MAX_DURATION_MS) {
            throw thinkTooLong(s, "workload_think_scale", maxThinkMs, 1, MAX_DURATION_MS / (double) maxThinkMs);
        }
        for (String key : List.of("workload_up_ramp_slowdown_factor", "workload_down_ramp_slowdown_factor")) {
            double factor = key.startsWith("workload_up") ? upFactor : downFactor;
            if (scaled * factor > MAX_DURATION_MS) {
                throw thinkTooLong(s, key, maxThinkMs, thinkScale, MAX_DURATION_MS / scaled);
            }
        }
    }

    private static ConfigException thinkTooLong(
            Settings s, String key, long maxThinkMs, double otherScale, double largest) {
        PropertiesFile.Entry e = s.entry(key).orElseThrow();
        String longest = (maxThinkMs % 1000 == 0 ? maxThinkMs / 1000 + " s" : maxThinkMs + " ms")
                + (otherScale != 1 ? " x think scale " + plain(otherScale) : "");
        return new ConfigException(
                s.given(e, abbreviate(e.value())) + ": the longest think time (" + longest + ") times it is beyond "
                        + "the maximum of 30 days; expected at most " + plain(largest) + " with this workload"
                        + (otherScale != 1 ? ", or a smaller think scale" : ""));
    }

    /** A positive number to 4 decimals, rounded down, without an exponent. */
    private static String plain(double d) {
        return BigDecimal.valueOf(Math.floor(d * 1e4) / 1e4)
                .stripTrailingZeros()
                .toPlainString();
    }

    /** True when {@code v} is a whole number from 0 to {@code max} (other forms are Settings' to report). */
    private static boolean fits(String v, long max) {
        try {
            return Long.parseLong(v) <= max;
        } catch (NumberFormatException e) {
            try {
                return new BigInteger(v).compareTo(BigInteger.valueOf(max)) <= 0;
            } catch (NumberFormatException x) {
                return true;
            }
        }
    }

    /** Checks a duration given in milliseconds as a double (a CLI duration, a file's value). */
    public static boolean durationFits(double ms) {
        return ms >= 0 && ms <= MAX_DURATION_MS;
    }

    static String abbreviate(String v) {
        return v.length() > 40 ? v.substring(0, 40) + "..." : v;
    }

    static String fmt(double d) {
        return String.format(Locale.ROOT, "%.4g", d);
    }
}
