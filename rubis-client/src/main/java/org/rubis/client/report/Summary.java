package org.rubis.client.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.rubis.client.config.ClientConfig;
import org.rubis.format.run.ErrorClass;
import org.rubis.format.run.Phase;
import org.rubis.format.run.RunStatus;
import org.rubis.format.schema.SummaryJson;
import org.rubis.format.stats.LatencyStats;
import org.rubis.format.stats.WireAccuracy;

/**
 * The end-of-run summary, {@code summary.json} and {@code summary.txt}: how the run ended ({@link RunOutcome}), then
 * its parts, each of which writes its keys and its lines: the run, the requests, the sessions and connections, the
 * run phase's stationarity, the original client's per-phase, per-state table with percentiles, the client's health
 * with a plain-words verdict, the exact JVM, the embedded server's ground truth and the warnings. Sections a run hook
 * builds after the logs closed (the wire check, the JIT warm-up) follow ({@link #add}).
 */
public final class Summary {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path dir;
    private final RunOutcome outcome;
    private final ObjectNode root = JSON.createObjectNode();
    /**
     * The parts in summary.txt's order: what a person reads first on one screen (how the run ended, throughput,
     * response times, steadiness, sessions and connections, the verdict), then the health figures, the warnings and
     * the per-phase, per-state tables. summary.json's order differs.
     */
    private final List<SummaryPart> textOrder;

    private final StringBuilder sectionsText = new StringBuilder();
    private String text;

    /**
     * @param accuracy the capture's client-minus-wire error when the run had a packet capture (the
     *                 wire check of {@code run --capture}), else null: the verdict then says accuracy
     *                 was not measured
     * @param captureIncomplete the run's capture lost packets (drops, a full disk): accuracy is not vouched for
     */
    public Summary(
            ClientConfig config,
            RunResult result,
            RunTotals stats,
            HealthFigures health,
            WireAccuracy accuracy,
            boolean captureIncomplete) {
        this.dir = result.dir();
        LatencyStats overall = stats.overall();
        LatencyStats runPhase = stats.phaseTotal(Phase.RUN);
        this.outcome = RunOutcome.of(
                config,
                result,
                overall.count(),
                overall.count() - overall.errors(),
                runPhase.count(),
                runPhase.count() - runPhase.errors(),
                stats.errorsByClass().getOrDefault(ErrorClass.ABORTED.label(), 0L));
        RunPart run = new RunPart(config, result, outcome);
        RequestsPart requests = new RequestsPart(result, stats);
        SessionsPart sessions =
                new SessionsPart(result, stats, config.workload().errorPagesWithoutThink());
        IntervalsPart intervals = config.profile() == null ? null : new IntervalsPart(config, result, stats, health);
        StationarityPart stationarity = new StationarityPart(config, result, stats, intervals);
        ResponseTimesPart times = new ResponseTimesPart(stats);
        HealthPart healthPart = new HealthPart(config, stats, health, outcome, accuracy, captureIncomplete);
        ServerPart server = new ServerPart(dir);
        WarningsPart warnings = new WarningsPart(config, result, stationarity.warning());
        List<SummaryPart> jsonOrder = new ArrayList<>(
                List.of(run, requests, sessions, stationarity, times, healthPart, new JvmFacts(), server, warnings));
        if (intervals != null) {
            jsonOrder.add(4, intervals); // after the stationarity it judges
        }
        jsonOrder.forEach(p -> p.json(root));
        List<SummaryPart> text = new ArrayList<>(List.of(
                run,
                requests,
                times.headline(),
                stationarity,
                sessions,
                server,
                healthPart.verdictLines(),
                healthPart,
                warnings,
                times));
        if (intervals != null) {
            text.add(text.size() - 1, intervals); // before the per-state tables
        }
        this.textOrder = List.copyOf(text);
        this.text = renderText();
    }

    private String renderText() {
        StringBuilder b = new StringBuilder(8192);
        SummaryJson s = SummaryJson.of(root);
        textOrder.forEach(p -> p.text(s, b));
        return b.toString();
    }

    /**
     * Adds a section built after the logs closed (the wire check): its object, its text block, the
     * accuracy verdict it measured and, when it publishes other times, those times in place of the
     * client's, which are kept as {@code response_time_ms_client}.
     */
    public void add(SummarySection section) {
        root.set(section.key(), section.json());
        if (section.accuracyVerdict() != null) {
            root.put("accuracy_verdict", section.accuracyVerdict());
        }
        JsonNode published = section.publishedResponseTimes();
        if (published != null) {
            root.set("response_time_ms_client", root.get("response_time_ms"));
            root.set("response_time_ms", published);
            root.put("response_time_clock", section.publishedClock());
            this.text = renderText();
        } else if (section.publishedClock() != null) {
            root.put("response_time_clock", section.publishedClock()); // the run's own times, from that clock
            this.text = renderText();
        }
        sectionsText.append('\n').append(section.text());
    }

    /** Writes summary.json, then summary.txt, each whole or not at all. */
    public void write() throws IOException {
        SummaryWriter.write(dir, JSON.writeValueAsString(root), text());
    }

    public String text() {
        if (sectionsText.isEmpty()) {
            return text;
        }
        String accuracy = root.has("accuracy_verdict")
                ? "\nAccuracy: " + root.get("accuracy_verdict").asText() + "\n"
                : "";
        return text + sectionsText + accuracy;
    }

    public JsonNode json() {
        return root;
    }

    /** How the run ended (summary.json's {@code status}). */
    public RunStatus status() {
        return outcome.status();
    }

    /** Why it ended: "complete", or summary.json's {@code stop_reason}. */
    public String stopReason() {
        return outcome.stopReason();
    }

    /** True when the verdict names the client as a cause. */
    public boolean saturated() {
        return root.path("client_health").path("saturated").asBoolean();
    }

    /**
     * The run phase's CPU per request by thread role, roles that did not run left out (summary.txt's "CPU by thread").
     */
    public static String byThread(Map<String, Double> perRequestByThread) {
        return HealthPart.byThread(perRequestByThread);
    }
}
