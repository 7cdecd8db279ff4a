package org.rubis.client.config;

import java.util.Locale;

/**
 * Whether and how long the client warms its own request path up before the measurement
 * ({@code client_jit_warmup}, {@code --jit-warmup}): at TPC-W think times the path runs a few hundred
 * times per run, far below the JIT's thresholds, so without a warm-up the measured requests run
 * interpreted or in C1 and the client adds hundreds of microseconds of its own (the JVM pitfall of
 * the original paper). {@code off} keeps that pitfall on purpose, for comparison.
 *
 * @param mode     auto (until compilation is quiet, within a cap), off, or a fixed count
 * @param requests the count for {@link Mode#COUNT}, else 0
 */
public record JitWarmupPolicy(Mode mode, int requests) {

    /** How the warm-up decides to stop. */
    public enum Mode {
        /** Until the JIT has compiled nothing for a while after a minimum of requests, within a cap. */
        AUTO,
        /** No warm-up: the measured requests start in the interpreter (the pitfall). */
        OFF,
        /** Exactly {@link JitWarmupPolicy#requests} requests (within a time cap). */
        COUNT
    }

    public static final JitWarmupPolicy AUTO = new JitWarmupPolicy(Mode.AUTO, 0);
    public static final JitWarmupPolicy OFF = new JitWarmupPolicy(Mode.OFF, 0);
    /** The largest count accepted: about a minute of warm-up on a fast host. */
    public static final int MAX_COUNT = 1_000_000;
    /** What a user may write, for error messages. */
    public static final String EXPECTED = "auto, off or a number of requests (1.." + MAX_COUNT + ", e.g. 20000)";

    /** Parses {@code auto}, {@code off} (also {@code no}, {@code none}, {@code 0}) or a count; null when it is none of these. */
    public static JitWarmupPolicy parse(String text) {
        String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        switch (t) {
            case "auto", "on", "yes" -> {
                return AUTO;
            }
            case "off", "no", "none", "0" -> {
                return OFF;
            }
            default -> {
                try {
                    long n = Long.parseLong(t);
                    return n >= 1 && n <= MAX_COUNT ? new JitWarmupPolicy(Mode.COUNT, (int) n) : null;
                } catch (NumberFormatException e) {
                    return null;
                }
            }
        }
    }

    public boolean off() {
        return mode == Mode.OFF;
    }

    /** As written in properties files and on the command line. */
    public String label() {
        return mode == Mode.COUNT ? String.valueOf(requests) : mode.name().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return label();
    }
}
