package org.rubis.client.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.rubis.analysis.io.AnalysisException;
import org.rubis.analysis.io.RunDirectory;
import org.rubis.analysis.wire.AnchorBrackets;
import org.rubis.analysis.wire.DiffStats;
import org.rubis.analysis.wire.WireCheck;
import org.rubis.client.config.PublishedTimes;
import org.rubis.client.report.SummarySection;
import org.rubis.format.run.SectionStatus;
import org.rubis.format.stats.WireAccuracy;

/**
 * The summary's "wire check" section (summary.json {@code wire_check}): the join of the run's requests
 * with the capture (rubis-analysis' {@link WireCheck}, the same code as {@code rubis-analysis wire}), the
 * client-minus-wire error split by new and reused connections and into its send and receive sides, the
 * three connection counts, the capture's drops, the reference probe's floor, and the accuracy verdict
 * measured from them.
 *
 * <p>The verdict: {@link WireAccuracy}'s rule (the one the run's verdict uses too; docs/WIRE.md says why);
 * INCOMPLETE when the capture lost anything, since unchecked requests cannot be vouched for.
 */
public final class WireCheckSection implements SummarySection {

    /** The measured error handed to the run verdict (set once, at construction). */
    private WireAccuracy accuracy;

    private final ObjectNode json;
    private final String text;
    private final String verdict;
    private final JsonNode published;
    private boolean incomplete;

    private WireCheckSection(ObjectNode json, String text, String verdict, JsonNode published) {
        this.json = json;
        this.text = text;
        this.verdict = verdict;
        this.published = published;
    }

    /** The capture did not run: say so and why (accuracy then not measured by the wire). */
    public static WireCheckSection notRun(String why) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("status", SectionStatus.NOT_RUN.label());
        o.put("reason", why);
        return new WireCheckSection(o, "Wire check\n  not run: " + why + "\n", null, null);
    }

    /**
     * Runs the wire check on RUN_DIR/capture.pcap now that requests.csv (and the server's log) are complete.
     *
     * @param anchors the uncertainty of the client's and the probe's epoch anchors (bounds the send/receive split)
     */
    public static WireCheckSection check(
            Path runDir, CaptureStats stats, PublishedTimes publishedTimes, AnchorBrackets anchors) {
        WireCheck w;
        try {
            w = WireCheck.run(new RunDirectory(runDir), null, anchors);
        } catch (AnalysisException | UncheckedIOException e) {
            return notRun("the wire check failed: " + e.getMessage());
        }
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        boolean complete = w.complete() && stats.complete();
        o.put("status", (complete ? SectionStatus.COMPLETE : SectionStatus.INCOMPLETE).label());
        w.toJson(o);
        WireAccuracy measured = w.accuracy();
        String verdict = verdict(measured, complete, stats, w.capture.gaps());
        ObjectNode acc = o.has("accuracy") ? (ObjectNode) o.get("accuracy") : o.putObject("accuracy");
        acc.put("verdict", verdict);
        JsonNode published = null;
        if (publishedTimes == PublishedTimes.WIRE) {
            published = WireTimes.table(runDir);
            o.put("published_times", "wire");
        }
        WireCheckSection section = new WireCheckSection(
                o, render(w, stats, complete, word(measured, complete), publishedTimes), verdict, published);
        section.accuracy = complete ? measured : null;
        section.incomplete = !complete;
        return section;
    }

    /** The summary's accuracy line: the one rule's answer ({@link WireAccuracy#within}) with the measured error beside its limit. */
    static String verdict(WireAccuracy a, boolean complete, CaptureStats stats, long gaps) {
        if (!complete) {
            return String.format(
                    Locale.ROOT,
                    "INCOMPLETE: the capture lost packets (%d kernel, %d interface drops%s%s); %s",
                    stats.kernelDrops(),
                    stats.interfaceDrops(),
                    gaps > 0 ? ", " + gaps + " sequence holes" : "",
                    stats.fileWhole() ? "" : ", its file not written whole: the disk refused a write",
                    a == null
                            ? "no request was matched to the wire"
                            : String.format(
                                    Locale.ROOT,
                                    "client minus wire mean %.1f us over the requests it holds",
                                    a.meanUs()));
        }
        if (a == null) {
            return "NOT MEASURED: no request was matched to the wire";
        }
        String cause = a.causeText();
        return String.format(
                Locale.ROOT,
                "%s: the client's response times are %.1f us above the wire on average over %d requests (p50 %.1f, "
                        + "p99 %.1f us; %s); %s%s",
                a.word(),
                a.meanUs(),
                a.requests(),
                a.p50Us(),
                a.p99Us(),
                a.splitText(),
                a.limitText(),
                cause.isEmpty() ? "" : "; " + cause);
    }

    /** The verdict in a few words ("INACCURATE, cause HOST"): the section names it, the last line states it. */
    static String word(WireAccuracy a, boolean complete) {
        if (!complete) {
            return "INCOMPLETE";
        }
        return a == null ? "NOT MEASURED" : a.shortText();
    }

    private static String render(
            WireCheck w, CaptureStats stats, boolean complete, String word, PublishedTimes publishedTimes) {
        StringBuilder b = new StringBuilder();
        b.append("Wire check (capture on ")
                .append(stats.interfaceName())
                .append(", ")
                .append(stats.packetsWritten())
                .append(" packets, drops: kernel ")
                .append(stats.kernelDrops())
                .append(", interface ")
                .append(stats.interfaceDrops())
                .append(complete ? "" : "; INCOMPLETE")
                .append(")\n");
        b.append(String.format(
                Locale.ROOT,
                "  requests: wire %d, client %d%s; matched %d, client only %d, wire only %d%n",
                w.wireRequests(),
                w.clientRequests,
                w.serverRequests >= 0 ? ", server " + w.serverRequests : "",
                w.matched,
                w.clientOnly,
                w.wireOnly));
        b.append(String.format(
                Locale.ROOT,
                "  connections: wire %d, client %d%s%n",
                w.wireConnections(),
                w.clientDistinctConnections,
                w.serverConnections >= 0 ? ", server " + w.serverConnections : ""));
        b.append(
                "  client minus wire (us)      count | TTFB mean     p50     p99     max | response mean     p50     p99     max\n");
        for (Map.Entry<String, WireCheck.Group> e : w.groups.entrySet()) {
            row(b, e.getKey(), e.getValue());
        }
        if (w.probe.response.count() > 0) {
            row(b, "probe (floor)", w.probe);
            double floor = w.floorUs();
            b.append(String.format(
                    Locale.ROOT,
                    "  floor of this host (probe p50): %.1f us; overhead above the floor (response p50):",
                    floor));
            w.groups.forEach((name, g) -> {
                if (name.endsWith("reused") && g.response.count() > 0) {
                    b.append(String.format(Locale.ROOT, " %s %.1f us;", name, g.response.percentileUs(50) - floor));
                }
            });
            b.append('\n');
        }
        if (publishedTimes == PublishedTimes.WIRE) {
            b.append("  published response times: the wire's (capture timestamps; their error is the capture's, ")
                    .append(stats.kernelDrops() + stats.interfaceDrops())
                    .append(" packets dropped); the client's are in response_time_ms_client\n");
        }
        w.splitLines().forEach(l -> b.append("  ").append(l).append('\n'));
        w.notes.forEach(n -> b.append("  note: ").append(n).append('\n'));
        b.append("  accuracy: ").append(word).append(" (the run's accuracy verdict: the last line of this summary)\n");
        return b.toString();
    }

    private static void row(StringBuilder b, String name, WireCheck.Group g) {
        DiffStats t = g.ttfb;
        DiffStats r = g.response;
        b.append(String.format(
                Locale.ROOT,
                "  %-26s %7d | %9.1f %7.1f %7.1f %7.1f | %13.1f %7.1f %7.1f %7.1f%n",
                name,
                r.count(),
                t.meanUs(),
                t.percentileUs(50),
                t.percentileUs(99),
                t.maxUs(),
                r.meanUs(),
                r.percentileUs(50),
                r.percentileUs(99),
                r.maxUs()));
    }

    @Override
    public String key() {
        return "wire_check";
    }

    @Override
    public JsonNode json() {
        return json;
    }

    @Override
    public String text() {
        return text;
    }

    @Override
    public WireAccuracy accuracy() {
        return accuracy;
    }

    @Override
    public boolean captureIncomplete() {
        return incomplete;
    }

    @Override
    public String accuracyVerdict() {
        return verdict;
    }

    @Override
    public JsonNode publishedResponseTimes() {
        return published;
    }

    @Override
    public String publishedClock() {
        return published == null ? null : "wire (packet capture: first request packet to last response packet)";
    }
}
