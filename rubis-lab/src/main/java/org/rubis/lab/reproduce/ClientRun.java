package org.rubis.lab.reproduce;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.rubis.analysis.RunAnalysis;
import org.rubis.analysis.io.RunDirectory;
import org.rubis.analysis.wire.WireCheck;
import org.rubis.client.report.SummaryFile;

/**
 * A finished client run as an experiment reads it: its directory, summary, the server's own
 * accounting and CPU time (when the lab started the server), and the analysis, which includes the
 * wire check when the run was captured (RUN_DIR/capture.pcap).
 */
public final class ClientRun {

    private final Path dir;
    private final SummaryFile summary;
    private final double serverCpuSeconds;
    private final JsonNode serverStats;
    private final String note;
    private RunAnalysis analysis;

    ClientRun(Path dir, SummaryFile summary, double serverCpuSeconds, JsonNode serverStats, String note) {
        this.dir = dir;
        this.summary = summary;
        this.serverCpuSeconds = serverCpuSeconds;
        this.serverStats = serverStats;
        this.note = note;
    }

    public Path dir() {
        return dir;
    }

    /** summary.json read back, or null when the client JVM died without one. */
    public SummaryFile summary() {
        return summary;
    }

    /** True when the client wrote a summary (complete or partial) and sent requests. */
    public boolean ok() {
        return summary != null && summary.requests() > 0;
    }

    /** Server CPU seconds used while the client ran (NaN without a server of ours). */
    public double serverCpuSeconds() {
        return serverCpuSeconds;
    }

    /** The server's stats.json, or null (a target we did not start). */
    public JsonNode serverStats() {
        return serverStats;
    }

    /** The wire check, or null when the run was not captured. */
    public WireCheck wire() {
        return analysis().wire();
    }

    /** Why the capture or the wire check is missing, or null. */
    public String note() {
        return note;
    }

    /** The run analysed by rubis-analysis (computed once, on first use). */
    public synchronized RunAnalysis analysis() {
        if (analysis == null) {
            analysis = RunAnalysis.of(new RunDirectory(dir));
        }
        return analysis;
    }

    /** "see DIR/client.log" for failure messages. */
    public String where() {
        return "see " + dir.resolve("client.log");
    }
}
