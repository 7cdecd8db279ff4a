package org.rubis.analysis.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.rubis.analysis.io.RunDirectory;
import org.rubis.analysis.wire.WireCheck;
import org.rubis.format.run.RunFiles;
import org.rubis.format.stats.WireAccuracy;
import org.rubis.format.text.Printable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code rubis-analysis wire RUN_DIR [--pcap FILE]}: the wire check of a run, printed and written to wire.csv. */
@Command(
        name = "wire",
        mixinStandardHelpOptions = true,
        description =
                "Check the client's times against a packet capture (default RUN_DIR/capture.pcap; any tcpdump/Wireshark classic pcap): "
                        + "writes RUN_DIR/wire.csv and RUN_DIR/wire-connections.csv and prints client-minus-wire statistics.")
final class WireCommand implements Callable<Integer> {
    @Parameters(
            paramLabel = "RUN_DIR",
            description =
                    "A run directory written by rubis-client run (requests.csv; server/ and "
                            + "capture-stats.json are used when present); wire.csv and wire-connections.csv are written into it.")
    Path dir;

    @Option(names = "--pcap", paramLabel = "FILE", description = "capture file (default RUN_DIR/capture.pcap)")
    Path pcap;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        RunDirectory run = new RunDirectory(dir);
        WireCheck w = WireCheck.run(run, pcap);
        PrintWriter out = spec.commandLine().getOut();
        if (run.summaryProblem() != null) {
            out.println("note: " + Printable.escape(run.summaryProblem()));
        }
        w.notes.forEach(n -> out.println("note: " + Printable.escape(n)));
        out.printf(
                Locale.ROOT,
                "wire: %d requests on %d connections (%s); client: %d requests on %d connections%s%n",
                w.wireRequests(),
                w.wireConnections(),
                w.complete() ? "capture complete" : "capture INCOMPLETE",
                w.clientRequests,
                w.clientDistinctConnections,
                w.serverConnections >= 0
                        ? "; server: " + w.serverRequests + " requests on " + w.serverConnections + " connections"
                        : "");
        out.printf(Locale.ROOT, "matched %d, client only %d, wire only %d%n", w.matched, w.clientOnly, w.wireOnly);
        out.println(
                "client minus wire (us)     count   TTFB mean    p50    p99    max | response mean    p50    p99    max");
        w.groups.forEach((name, g) -> row(out, name, g));
        if (w.probe.response.count() > 0) {
            row(out, "probe (floor)", w.probe);
            out.printf(
                    Locale.ROOT,
                    "floor of this host (probe response p50): %.1f us; overhead above it (p50): %s%n",
                    w.floorUs(),
                    w.groups.entrySet().stream()
                            .filter(e -> e.getKey().endsWith("reused")
                                    && e.getValue().response.count() > 0)
                            .map(e -> String.format(
                                    Locale.ROOT,
                                    "%s %.1f us",
                                    e.getKey(),
                                    e.getValue().response.percentileUs(50) - w.floorUs()))
                            .collect(Collectors.joining(", ")));
        }
        w.splitLines().forEach(out::println);
        WireAccuracy acc = w.accuracy();
        if (acc != null) {
            out.printf(
                    Locale.ROOT,
                    "accuracy: %s: client minus wire mean %.1f us over %d requests; %s%s%n",
                    acc.word(),
                    acc.meanUs(),
                    acc.requests(),
                    acc.limitText(),
                    acc.causeText().isEmpty() ? "" : "; " + acc.causeText());
        }
        out.println("per request: " + dir.resolve(RunFiles.WIRE_CSV));
        return 0;
    }

    /** A row of the client-minus-wire table: the TTFB's and the response's mean, p50, p99 and max (us). */
    private static void row(PrintWriter out, String name, WireCheck.Group g) {
        out.printf(
                Locale.ROOT,
                "  %-22s %7d %11.1f %6.1f %6.1f %6.1f | %13.1f %6.1f %6.1f %6.1f%n",
                name,
                g.response.count(),
                g.ttfb.meanUs(),
                g.ttfb.percentileUs(50),
                g.ttfb.percentileUs(99),
                g.ttfb.maxUs(),
                g.response.meanUs(),
                g.response.percentileUs(50),
                g.response.percentileUs(99),
                g.response.maxUs());
    }
}
