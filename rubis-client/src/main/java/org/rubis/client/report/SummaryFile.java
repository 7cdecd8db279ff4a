package org.rubis.client.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.rubis.format.run.RunFiles;
import org.rubis.format.run.RunStatus;
import org.rubis.format.run.SectionStatus;
import org.rubis.format.schema.ClientHealth;
import org.rubis.format.schema.PhasesMs;
import org.rubis.format.schema.SchemaMapper;
import org.rubis.format.schema.ServerStats;
import org.rubis.format.schema.SummaryJson;
import org.rubis.format.schema.WireCheck;

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

    /** The summary of a run directory, or null when the run wrote none (its JVM died). */
    public static SummaryFile read(Path runDir) throws IOException {
        Path p = RunFiles.summaryJson(runDir);
        if (!Files.exists(p)) {
            return null;
        }
        SummaryJson s = SummaryJson.read(p);
        org.rubis.format.schema.Latency run =
                s.responseTimeMs() == null ? null : s.responseTimeMs().run();
        // A summary without client_health (a run that died early) reads as every figure unknown, as before.
        ClientHealth h = s.clientHealth() != null
                ? s.clientHealth()
                : SchemaMapper.LENIENT.convertValue(Map.of(), ClientHealth.class);
        ServerStats srv = s.server();
        WireCheck wire = s.wireCheck();
        PhasesMs phases = s.phasesMs();
        return new SummaryFile(
                s.status(),
                s.stopReason() == null ? "" : s.stopReason(),
                s.requests(),
                s.throughputRps(),
                run == null ? new Latency(0, 0) : new Latency(run.mean(), run.p99()),
                health(h, phases == null ? 0 : phases.up() + phases.run() + phases.down()),
                srv == null ? new Server(0, 0) : new Server(srv.connectionsAccepted(), srv.maxConcurrentConnections()),
                wire != null && SectionStatus.parse(wire.status()) == SectionStatus.NOT_RUN ? wire.reason() : null,
                verdictWord(h.verdict() == null ? "" : h.verdict()));
    }

    private static Health health(ClientHealth h, long elapsedMs) {
        return new Health(
                (int) h.cores(),
                h.runCpuSeconds(),
                h.runCpuCores(),
                h.runCpuUsPerRequest(),
                h.runSendLatenessMs() == null ? 0 : h.runSendLatenessMs().p99(),
                (int) h.peakThreads(),
                h.peakHeapBytes(),
                orMinusOne(h.fixedCpuCores()),
                orMinusOne(h.fixedCpuCoresError()),
                orMinusOne(h.runRequestCpuUs()),
                h.gcPauseTotalMs(),
                h.maxHeapBytes(),
                elapsedMs,
                orMinusOne(h.runSystemCpuUsPerRequest()));
    }

    private static double orMinusOne(Double figure) {
        return figure == null ? -1 : figure;
    }

    /** {@code SUSPECT} of {@code SUSPECT: HOST: ...}; {@code -} for no verdict. */
    public static String verdictWord(String verdict) {
        int colon = verdict.indexOf(':');
        String word = (colon < 0 ? verdict : verdict.substring(0, colon)).strip();
        return word.isEmpty() ? "-" : word;
    }
}
