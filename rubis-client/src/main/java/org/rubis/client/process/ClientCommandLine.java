package org.rubis.client.process;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rubis.client.config.Arrivals;
import org.rubis.client.config.BackendKind;
import org.rubis.client.config.JitWarmupPolicy;
import org.rubis.client.config.Keys;
import org.rubis.client.config.ServerModel;
import org.rubis.client.config.Setting;
import org.rubis.client.config.ThreadModel;
import org.rubis.format.run.RunFiles;

/**
 * The command line of {@code rubis-client run} in a child JVM: the one place that writes run's options for another
 * process. The lab's experiments, {@code run --jvm-profile} and {@code run --shards} all start their clients through
 * it, so each option is given from its type ({@link BackendKind}, {@link Duration}, ...) and spelt once; the tests
 * parse every option it writes with run's own command line. Immutable: each method returns a changed copy, so that an
 * experiment derives its runs from one base, and setting an option again replaces it.
 *
 * <p>The child is {@code [wrapper] java [flags] [GC log, profile name] -jar rubis-client.jar run [the user's arguments]
 * [options] [-Dkey=value] --out DIR}.
 */
public final class ClientCommandLine {

    /** Options of the parent only: they choose the child JVM or split the run, never reach the child. */
    private static final Set<String> PARENT_ONLY = Set.of("--jvm-profile", "--jvm-profiles", "--java", "--shards");

    private static final String OUT = "--out";

    private final List<String> wrapper;
    private final String java;
    private final List<String> jvmFlags;
    private final String profile;
    private final List<String> forwarded;
    private final Map<String, String> options;
    private final Map<String, String> properties;
    private final Path out;

    private ClientCommandLine(
            List<String> wrapper,
            String java,
            List<String> jvmFlags,
            String profile,
            List<String> forwarded,
            Map<String, String> options,
            Map<String, String> properties,
            Path out) {
        this.wrapper = List.copyOf(wrapper);
        this.java = java;
        this.jvmFlags = List.copyOf(jvmFlags);
        this.profile = profile;
        this.forwarded = List.copyOf(forwarded);
        this.options = new LinkedHashMap<>(options);
        this.properties = new LinkedHashMap<>(properties);
        this.out = out;
    }

    /** {@code run} with this process's java, no JVM flags and no option: the run's properties decide everything. */
    public static ClientCommandLine run() {
        return new ClientCommandLine(
                List.of(),
                EmbeddedServerProcess.javaExecutable(),
                List.of(),
                null,
                List.of(),
                Map.of(),
                Map.of(),
                null);
    }

    // ---- the child JVM

    /** The java executable (see {@link ChildJvm#java}). */
    public ClientCommandLine java(String executable) {
        return new ClientCommandLine(wrapper, executable, jvmFlags, profile, forwarded, options, properties, out);
    }

    /** JVM flags, after those already given (a JVM profile's, or a heap size such as {@code -Xmx512m}). */
    public ClientCommandLine jvmFlags(List<String> flags) {
        List<String> all = new ArrayList<>(jvmFlags);
        all.addAll(flags);
        return new ClientCommandLine(wrapper, java, all, profile, forwarded, options, properties, out);
    }

    /**
     * A JVM profile: its flags, a GC log into the run directory ({@code gc.log}) and its name for the summary
     * ({@code -Drubis.jvm.profile}).
     */
    public ClientCommandLine profile(String name, List<String> flags) {
        return new ClientCommandLine(wrapper, java, jvmFlags, name, forwarded, options, properties, out)
                .jvmFlags(flags);
    }

    /** The child pinned to {@code cpus} (a taskset CPU list such as {@code 0}) by {@code taskset}. */
    public ClientCommandLine pinned(Path taskset, String cpus) {
        if (!cpus.matches("[0-9,-]{1,32}")) {
            throw new IllegalArgumentException("not a CPU list: " + cpus);
        }
        return new ClientCommandLine(
                List.of(taskset.toString(), "-c", cpus), java, jvmFlags, profile, forwarded, options, properties, out);
    }

    // ---- run's arguments

    /**
     * The arguments a user gave to {@code run} (already parsed and checked by this process), passed on; the options
     * that choose the child JVM or split the run are left out, and so is every option this line sets itself.
     */
    public ClientCommandLine forwarding(List<String> userArguments) {
        return new ClientCommandLine(wrapper, java, jvmFlags, profile, userArguments, options, properties, out);
    }

    /** Closed mode: emulated users. */
    public ClientCommandLine users(int n) {
        return set(Keys.USERS, n);
    }

    /** Length of the run (measured) phase. */
    public ClientCommandLine duration(Duration d) {
        return set(Keys.RUN_MS, d.toMillis());
    }

    public ClientCommandLine rampUp(Duration d) {
        return set(Keys.UP_RAMP_MS, d.toMillis());
    }

    public ClientCommandLine rampDown(Duration d) {
        return set(Keys.DOWN_RAMP_MS, d.toMillis());
    }

    /** Every think time multiplied by {@code x} (0: none). */
    public ClientCommandLine thinkScale(double x) {
        return set(Keys.THINK_SCALE, x);
    }

    /** The {@code --seed} this line gives, or null when the run's properties decide it. */
    public Long givenSeed() {
        String s = options.get(Keys.SEED.option().name());
        return s == null ? null : Long.valueOf(s);
    }

    public ClientCommandLine seed(long seed) {
        return set(Keys.SEED, seed);
    }

    /** A session ends after {@code n} requests at most. */
    public ClientCommandLine maxTransitions(int n) {
        return set(Keys.MAX_TRANSITIONS, n);
    }

    public ClientCommandLine backend(BackendKind kind) {
        return set(Keys.BACKEND, kind);
    }

    public ClientCommandLine threads(ThreadModel model) {
        return set(Keys.THREADS, model);
    }

    public ClientCommandLine serverModel(ServerModel model) {
        return set(Keys.SERVER_MODEL, model);
    }

    /** Hybrid arrivals: sessions start at {@code perSecond} on average. */
    public ClientCommandLine sessionRate(double perSecond) {
        return set(Keys.ARRIVALS, Arrivals.HYBRID).set(Keys.SESSION_RATE, perSecond);
    }

    /** Hybrid arrivals at the piecewise-constant rate of {@code file} (lines {@code start_s rate_per_s}). */
    public ClientCommandLine rateSchedule(Path file) {
        return set(Keys.ARRIVALS, Arrivals.HYBRID)
                .option(Keys.RATE_SCHEDULE_FILE.option().name(), file.toString());
    }

    /** The target's base URL (the lab starts its own server, or a user's deployment). */
    public ClientCommandLine target(String baseUrl) {
        return set(Keys.TARGET, baseUrl);
    }

    /** Loopback connections spread over {@code n} source addresses. */
    public ClientCommandLine sourceAddresses(int n) {
        return set(Keys.SOURCE_ADDRESSES, n);
    }

    public ClientCommandLine jitWarmup(JitWarmupPolicy policy) {
        return option(Keys.JIT_WARMUP.option().name(), policy.label());
    }

    /** New connections resume TLS sessions, or every handshake is full. */
    public ClientCommandLine tlsResumption(boolean on) {
        return set(Keys.TLS_RESUMPTION, on);
    }

    /** The packet capture and the wire check. */
    public ClientCommandLine capture() {
        return flag(Keys.CAPTURE.option().name());
    }

    /** The reference probe. */
    public ClientCommandLine probe() {
        return flag(Keys.PROBE.option().name());
    }

    /** netty's busy-polling event loop. */
    public ClientCommandLine busyPoll() {
        return flag(Keys.BUSY_POLL.option().name());
    }

    /** Class histograms of the users' heap (bench scale). */
    public ClientCommandLine heapPerUser() {
        return flag("--heap-per-user");
    }

    public ClientCommandLine noProgress() {
        return flag(Keys.PROGRESS.option().name());
    }

    /** The live view on TCP port {@code port} (docs/LIVE.md). */
    public ClientCommandLine metricsPort(int port) {
        return set(Keys.METRICS_PORT, String.valueOf(port));
    }

    /** The live view stays up this long after the run. */
    public ClientCommandLine metricsLinger(Duration d) {
        return set(Keys.METRICS_LINGER_MS, d.toMillis());
    }

    /** Shard {@code index} (0-based) of {@code count}. */
    public ClientCommandLine shard(int index, int count) {
        return option("--shard", index + "/" + count);
    }

    /** When the run begins (every shard the same). */
    public ClientCommandLine startAt(Instant instant) {
        return option("--start-at", instant.toString());
    }

    /**
     * The shard says when it is ready and waits for the start instant its parent then gives every shard
     * ({@link StartHandshake}), in place of {@link #startAt}.
     */
    public ClientCommandLine startWhenReady() {
        return flag("--start-when-ready");
    }

    /** A key of rubis.properties for this run ({@code -Dkey=value}). */
    public ClientCommandLine property(String key, String value) {
        if (!key.matches("[a-z][a-z0-9_]{0,99}")) {
            throw new IllegalArgumentException("not a rubis.properties key: " + key);
        }
        Map<String, String> p = new LinkedHashMap<>(properties);
        p.put(key, value);
        return new ClientCommandLine(wrapper, java, jvmFlags, profile, forwarded, options, p, out);
    }

    /** The run directory (also where a profile's GC log goes). */
    public ClientCommandLine out(Path dir) {
        return new ClientCommandLine(wrapper, java, jvmFlags, profile, forwarded, options, properties, dir);
    }

    public Path out() {
        return out;
    }

    // ---- the line

    /** The whole command: wrapper, java, JVM flags, {@code -jar} this jar, then {@link #runArguments()}. */
    public List<String> command() {
        List<String> cmd = new ArrayList<>(jvm());
        cmd.add("-jar");
        cmd.add(ChildJvm.selfJar());
        cmd.addAll(runArguments());
        return cmd;
    }

    /** The wrapper, java and the JVM's flags: what a JVM profile changes. */
    public List<String> jvm() {
        if (out == null) {
            throw new IllegalStateException("a child run needs its run directory (out)");
        }
        List<String> cmd = new ArrayList<>(wrapper);
        cmd.add(java);
        cmd.addAll(jvmFlags);
        if (profile != null) {
            cmd.add(ChildJvm.gcLog(RunFiles.gcLog(out)));
            cmd.add("-Drubis.jvm.profile=" + profile);
        }
        return cmd;
    }

    /**
     * {@code run} and its arguments: the user's (those this line does not set), the options, the properties,
     * {@code --out}.
     */
    public List<String> runArguments() {
        if (out == null) {
            throw new IllegalStateException("a child run needs its run directory (out)");
        }
        List<String> args = new ArrayList<>();
        args.add("run");
        args.add(ChildJvm.CHILD); // the run directory is the parent's; the child stops when the parent dies
        args.addAll(withoutOwn(forwarded));
        options.forEach((name, value) -> {
            args.add(name);
            if (value != null) {
                args.add(value);
            }
        });
        properties.forEach((k, v) -> args.add("-D" + k + "=" + v));
        args.add(OUT);
        args.add(out.toString());
        return args;
    }

    @Override
    public String toString() {
        return String.join(" ", runArguments());
    }

    /** The user's arguments without the parent's own options, {@code --out} and the options set here. */
    private List<String> withoutOwn(List<String> given) {
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < given.size(); i++) {
            String a = given.get(i);
            String name = a.startsWith("--") && a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            boolean set = options.containsKey(name);
            if (set && options.get(name) == null) {
                continue; // a flag this line gives anyway
            }
            if (set || PARENT_ONLY.contains(name) || name.equals(OUT)) {
                if (!a.contains("=")) {
                    i++; // and its value
                }
                continue;
            }
            kept.add(a);
        }
        return kept;
    }

    private ClientCommandLine option(String name, String value) {
        Map<String, String> o = new LinkedHashMap<>(options);
        o.remove(name); // set again: the last value, in the last place
        o.put(name, value);
        return new ClientCommandLine(wrapper, java, jvmFlags, profile, forwarded, o, properties, out);
    }

    private ClientCommandLine flag(String name) {
        return option(name, null);
    }

    /** {@code setting} by its option of run, its value written as a user types it ({@code 30s}, {@code 0.1}). */
    private <T> ClientCommandLine set(Setting<T> setting, T value) {
        return option(setting.option().name(), setting.option().shown(value));
    }
}
