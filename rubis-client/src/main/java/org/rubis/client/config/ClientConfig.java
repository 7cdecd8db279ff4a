package org.rubis.client.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.rubis.client.assertion.Assertion;
import org.rubis.client.input.Source;
import org.rubis.client.profile.LoadProfile;
import org.rubis.client.workload.WorkloadModel;

/**
 * The resolved, validated configuration of one run, built once by {@link ConfigLoader}.
 *
 * @param source           the properties file (display name)
 * @param target           "embedded" or a base URL such as {@code http://127.0.0.1:8080}
 * @param workload         transition table, think time, URL layout, data files and policy
 * @param regionsFile      where the regions came from (handed to the embedded server)
 * @param categoriesFile   where the categories came from (handed to the embedded server)
 * @param users            closed mode: emulated users ({@code workload_number_of_clients_per_node})
 * @param sessionsPerUser  closed mode: sessions each user runs before it stops (0 = until the end)
 * @param upRampMs         warm-up length; think times multiplied by {@code upRampFactor}
 * @param runMs            the measured phase
 * @param downRampMs       cool-down length; think times multiplied by {@code downRampFactor}
 * @param thinkScale       extra think-time multiplier (tests, Principle-A experiments)
 * @param rampMode         how closed-mode users enter the run (stationary, or the original's)
 * @param seed             the run seed; every session's randomness derives from it
 * @param arrival          hybrid-mode arrival settings
 * @param execution        backend, threads, timeouts
 * @param server           embedded-server settings
 * @param outDir           run directory, or null for a new one under runs/
 * @param warnings         non-fatal findings (unknown keys, ignored commands, column sums)
 * @param measurement      packet capture, reference probe and which clock the published times come from
 * @param configSha256     hash of the effective settings (docs/SHARDING.md): equal on every shard of one run
 * @param profile          the load over the run phase (docs/WORKLOAD.md, Load profiles), or null for a fixed one; with
 *                         closed arrivals {@code users} is then its peak, with hybrid arrivals it is the session rate
 * @param leave            closed arrivals with a profile: how a user the profile no longer wants leaves
 */
public record ClientConfig(
        String source,
        String target,
        WorkloadModel workload,
        Source regionsFile,
        Source categoriesFile,
        int users,
        long sessionsPerUser,
        long upRampMs,
        double upRampFactor,
        long runMs,
        long downRampMs,
        double downRampFactor,
        double thinkScale,
        RampMode rampMode,
        long seed,
        boolean seedGiven,
        Arrivals arrivals,
        ArrivalSettings arrival,
        Execution execution,
        EmbeddedServer server,
        Path outDir,
        boolean progress,
        List<String> warnings,
        Map<String, String> resolved,
        Measurement measurement,
        String configSha256,
        LoadProfile profile,
        LeaveRule leave) {

    /**
     * How the run checks (docs/WIRE.md) and protects its own measurement.
     *
     * @param capture        capture the run's packets and run the wire check at the end
     * @param probe          the same-run reference probe (one extra connection, plain NIO)
     * @param probeRate      probe requests per second
     * @param probeBusyPoll  the probe polls a non-blocking socket instead of blocking in read
     * @param publishedTimes whose clock the summary's response-time table comes from
     * @param jitWarmup      the JIT warm-up of the client's request path before the measurement (docs/JIT-WARMUP.md)
     * @param metrics        the live view's endpoint (Prometheus and the live page, docs/LIVE.md), or off
     * @param targetProcesses the target's processes the user named ({@code --target-processes}): their CPU is the
     *                       server's
     */
    public record Measurement(
            boolean capture,
            boolean probe,
            double probeRate,
            boolean probeBusyPoll,
            PublishedTimes publishedTimes,
            JitWarmupPolicy jitWarmup,
            List<Assertion> assertions,
            MetricsEndpoint metrics,
            TargetProcessSpec targetProcesses) {
        public static final Measurement NONE = new Measurement(
                false,
                false,
                5,
                false,
                PublishedTimes.CLIENT,
                JitWarmupPolicy.AUTO,
                List.of(),
                MetricsEndpoint.OFF,
                TargetProcessSpec.NONE);
    }

    /** Hybrid arrivals: a rate, a file of inter-arrival times, or the load profile ({@link #profile}) drives session starts. */
    public record ArrivalSettings(
            double sessionRate,
            Interarrival distribution,
            Path interarrivalFile,
            int maxConcurrentSessions,
            CapPolicy capPolicy) {}

    /**
     * How requests are sent.
     *
     * @param httpKeepAlive      legacy backend: the JDK's {@code http.keepAlive}, or null for the JDK's default
     * @param httpMaxConnections legacy backend: the JDK's {@code http.maxConnections}, or null for the JDK's default
     * @param busyPoll           netty backend: epoll event loops busy-wait instead of blocking (one loop, a whole core)
     * @param sourceAddresses    dedicated and netty backends: loopback source addresses to spread connections over (1 = the OS chooses)
     * @param httpStaleCheckMs   pooled/dedicated: HttpClient's stale check on a connection idle this long, 0 = off
     *                           (the check blocks up to 1 ms inside the measured window)
     */
    public record Execution(
            BackendKind backend,
            ThreadModel threads,
            int connectTimeoutMs,
            int requestTimeoutMs,
            boolean downloadImages,
            int poolMax,
            boolean tlsResumption,
            Boolean httpKeepAlive,
            Integer httpMaxConnections,
            boolean busyPoll,
            int sourceAddresses,
            int httpStaleCheckMs) {

        public ExecutionModel model() {
            return ExecutionModel.of(backend, threads);
        }

        public Execution withSourceAddresses(int n) {
            return new Execution(
                    backend,
                    threads,
                    connectTimeoutMs,
                    requestTimeoutMs,
                    downloadImages,
                    poolMax,
                    tlsResumption,
                    httpKeepAlive,
                    httpMaxConnections,
                    busyPoll,
                    n,
                    httpStaleCheckMs);
        }
    }

    /** The embedded target, started in its own JVM. */
    public record EmbeddedServer(
            ServerModel model,
            double size,
            int keepAliveMs,
            String javaOptions,
            boolean tls,
            boolean tlsResumption,
            String faults) {}

    /** This configuration with {@code n} loopback source addresses (the run's port plan chose them). */
    public ClientConfig withSourceAddresses(int n) {
        return new ClientConfig(
                source,
                target,
                workload,
                regionsFile,
                categoriesFile,
                users,
                sessionsPerUser,
                upRampMs,
                upRampFactor,
                runMs,
                downRampMs,
                downRampFactor,
                thinkScale,
                rampMode,
                seed,
                seedGiven,
                arrivals,
                arrival,
                execution.withSourceAddresses(n),
                server,
                outDir,
                progress,
                warnings,
                resolved,
                measurement,
                configSha256,
                profile,
                leave);
    }

    public boolean embedded() {
        return "embedded".equals(target);
    }
}
