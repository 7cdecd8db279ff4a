package org.rubis.client.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.rubis.format.Phase;
import org.rubis.format.RunFiles;
import org.rubis.format.RunStatus;
import org.rubis.format.SectionStatus;

/**
 * A run's summary.json read back as types, for the commands that run the client as a child and
 * compare runs (bench, capacity, accuracy): the keys are read here, next to {@link Summary} which
 * writes them, instead of in each command.
 *
 * @param status       how the run ended; null when summary.json names no status this client knows
 * @param stopReason   why the run ended
 * @param requests     requests sent (all phases)
 * @param throughputRps requests per second in the run phase
 * @param run          response time of the run phase (ms)
 * @param health       the client's own health in the run phase
 * @param server       the embedded server's connection accounting (zeros without an embedded server)
 * @param wireCheckNotRun why a run with {@code --capture} was not checked against the wire (no privilege, no
 *                     libpcap, ...), or null: not asked for, or checked
 * @param verdict      the client-health verdict's word ({@code OK}, {@code SUSPECT}, {@code INVALID}; {@code -} when
 *                     summary.json has none), so that a table of runs shows a doubtful one as such
 */
public record SummaryFile(
        RunStatus status,
        String stopReason,
        long requests,
        double throughputRps,
        Latency run,
        Health health,
        Server server,
        String wireCheckNotRun,
        String verdict) {

    /** Response time in ms. */
    public record Latency(double mean, double p99) {}

    /**
     * @param runCpuUsPerRequest run-phase CPU over run-phase requests (the fixed cost included)
     * @param fixedCpuCores      the idle client's CPU (-1 when not measured)
     * @param runRequestCpuUs    run-phase CPU per request with the fixed cost taken out (-1 when not measured)
     * @param gcPauseTotalMs     the client's GC pauses over the whole run
     * @param maxHeapBytes       the client JVM's maximum heap
     * @param elapsedMs          the run's phases (up ramp, run, down ramp) together
     * @param runSystemCpuUsPerRequest the kernel's part of {@code runCpuUsPerRequest} (-1 when unknown)
     */
    public record Health(
            int cores,
            double runCpuSeconds,
            double runCpuCores,
            double runCpuUsPerRequest,
            double runSendLatenessP99Ms,
            int peakThreads,
            long peakHeapBytes,
            double fixedCpuCores,
            double fixedCpuCoresError,
            double runRequestCpuUs,
            long gcPauseTotalMs,
            long maxHeapBytes,
            long elapsedMs,
            double runSystemCpuUsPerRequest) {

        /** Share of the run the client's GC held its threads stopped (0 when unknown). */
        public double gcPauseShare() {
            return elapsedMs > 0 ? (double) gcPauseTotalMs / elapsedMs : 0;
        }
    }

    public record Server(long connectionsAccepted, long maxConcurrentConnections) {}

    public boolean complete() {
        return status == RunStatus.COMPLETE;
    }

    private static long elapsedMs(JsonNode phases) {
        long sum = 0;
        for (JsonNode v : phases) {
            sum += v.asLong();
        }
        return sum;
    }

    /** The summary of a run directory, or null when the run wrote none (its JVM died). */
    public static SummaryFile read(Path runDir) throws IOException {
        Path p = RunFiles.summaryJson(runDir);
        if (!Files.exists(p)) {
            return null;
        }
        JsonNode s = new ObjectMapper().readTree(p.toFile());
        JsonNode run = s.path("response_time_ms").path(Phase.RUN.label());
        JsonNode h = s.path("client_health");
        JsonNode srv = s.path("server");
        JsonNode wire = s.path("wire_check");
        return new SummaryFile(
                RunStatus.parse(s.path("status").asText(null)),
                s.path("stop_reason").asText(),
                s.path("requests").asLong(),
                s.path("throughput_rps").asDouble(),
                new Latency(run.path("mean").asDouble(), run.path("p99").asDouble()),
                new Health(
                        h.path("cores").asInt(),
                        h.path("run_cpu_seconds").asDouble(),
                        h.path("run_cpu_cores").asDouble(),
                        h.path("run_cpu_us_per_request").asDouble(),
                        h.path("run_send_lateness_ms").path("p99").asDouble(),
                        h.path("peak_threads").asInt(),
                        h.path("peak_heap_bytes").asLong(),
                        h.path("fixed_cpu_cores").asDouble(-1),
                        h.path("fixed_cpu_cores_error").asDouble(-1),
                        h.path("run_request_cpu_us").asDouble(-1),
                        h.path("gc_pause_total_ms").asLong(),
                        h.path("max_heap_bytes").asLong(),
                        elapsedMs(s.path("phases_ms")),
                        h.path("run_system_cpu_us_per_request").asDouble(-1)),
                new Server(
                        srv.path("connections_accepted").asLong(),
                        srv.path("max_concurrent_connections").asLong()),
                SectionStatus.parse(wire.path("status").asText()) == SectionStatus.NOT_RUN
                        ? wire.path("reason").asText()
                        : null,
                verdictWord(h.path("verdict").asText("")));
    }

    /** {@code SUSPECT} of {@code SUSPECT: HOST: ...}; {@code -} for no verdict. */
    public static String verdictWord(String verdict) {
        int colon = verdict.indexOf(':');
        String word = (colon < 0 ? verdict : verdict.substring(0, colon)).strip();
        return word.isEmpty() ? "-" : word;
    }
}
