package org.rubis.lab.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.rubis.client.cli.Population;
import org.rubis.client.cli.RunPhases;
import org.rubis.client.config.BackendKind;
import org.rubis.client.config.JitWarmupPolicy;
import org.rubis.client.input.ConfigException;
import org.rubis.client.process.ClientCommandLine;
import org.rubis.client.report.SummaryFile;
import org.rubis.format.run.RunFiles;
import org.rubis.lab.Runs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bench accuracy}: each backend in its own client JVM against the embedded server (its own JVM),
 * with the packet capture and the reference probe on; per backend, how far the client is from the wire
 * on reused connections, the host's floor (the probe), our overhead above it, retries and CPU, with the
 * host's load average before the run. The table goes to stdout and to OUT/accuracy.txt.
 */
@Command(
        name = "accuracy",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        showDefaultValues = true,
        description =
                "Each backend (and netty with --busy-poll; kernel: its published kernel times) with the packet capture and the reference probe on; "
                        + "prints client minus wire, the host's floor, the overhead above it, retries and CPU.")
final class AccuracyBench implements Callable<Integer> {

    @Mixin
    Population population = new Population(300, 1.0);

    @Mixin
    RunPhases phases = new RunPhases("10s", "60s");

    @Option(
            names = "--list",
            split = ",",
            paramLabel = "ITEM",
            defaultValue = "legacy,pooled,dedicated,netty,netty+busy-poll,kernel",
            description = "What to measure: BACKEND, BACKEND+busy-poll (netty's busy-polling loop), "
                    + "BACKEND+no-warmup (no JIT warm-up, the pitfall), e.g. netty,netty+no-warmup.")
    List<String> list;

    @Mixin
    Runs runs = new Runs("runs/bench-accuracy");

    @Mixin
    ChildRunLogs logs = new ChildRunLogs();

    @Option(
            names = "--metrics-port",
            paramLabel = "N",
            description = "Each run serves its live view on port N (run --metrics-port), read once a second as a "
                    + "Prometheus and an open page would: to measure its overhead, on and off in turn "
                    + "(docs/LIVE.md, Overhead).")
    Integer metricsPort;

    @Spec
    CommandSpec spec;

    /**
     * One item of the list: a backend and its modifiers. Without {@code +no-warmup} the run warms up (auto), whatever
     * the environment's default.
     */
    record Item(String label, BackendKind backend, boolean busyPoll, boolean warmup) {

        /** {@code BACKEND[+busy-poll][+no-warmup]}; anything else is a one-line error naming the item. */
        static Item parse(String item) {
            String[] parts = item.split("\\+");
            BackendKind backend = null;
            for (BackendKind k : BackendKind.values()) {
                if (k.label().equals(parts[0])) {
                    backend = k;
                }
            }
            if (backend == null) {
                throw new ConfigException("bench accuracy --list " + item + ": unknown backend " + parts[0]
                        + "; expected legacy, pooled, dedicated or netty, optionally +busy-poll and/or +no-warmup");
            }
            boolean busyPoll = false;
            boolean warmup = true;
            for (int i = 1; i < parts.length; i++) {
                switch (parts[i]) {
                    case "busy-poll" -> busyPoll = true;
                    case "no-warmup" -> warmup = false;
                    default ->
                        throw new ConfigException("bench accuracy --list " + item + ": unknown modifier +"
                                + parts[i] + "; expected BACKEND, BACKEND+busy-poll, BACKEND+no-warmup (e.g. "
                                + "netty,netty+no-warmup)");
                }
            }
            return new Item(item, backend, busyPoll, warmup);
        }

        /** {@code line} measuring this item. */
        ClientCommandLine applyTo(ClientCommandLine line) {
            ClientCommandLine l = line.backend(backend).jitWarmup(warmup ? JitWarmupPolicy.AUTO : JitWarmupPolicy.OFF);
            return busyPoll ? l.busyPoll() : l;
        }
    }

    @SuppressWarnings("try") // the live view's scrapes run beside the child run; the body only waits for it
    @Override
    public Integer call() throws Exception {
        List<Item> items = list.stream().map(Item::parse).toList(); // every item checked before the first run
        LiveScrapes.check(metricsPort);
        PrintWriter pw = spec.commandLine().getOut();
        Path out = runs.dir();
        Files.createDirectories(out);
        ClientCommandLine base =
                Measurement.closedRuns(population, phases).capture().probe();
        if (metricsPort != null) {
            base = base.metricsPort(metricsPort);
        }
        List<String> rows = new ArrayList<>();
        List<String> splits = new ArrayList<>();
        for (Item item : items) {
            Path dir = out.resolve(item.label());
            String load = loadAverage();
            Measurement m;
            try (LiveScrapes scrapes = LiveScrapes.of(metricsPort)) {
                m = Measurement.of(
                        pw,
                        item.label() + " (load average " + load + ")",
                        item.applyTo(base).out(dir),
                        dir.resolve(RunFiles.CLIENT_LOG));
            }
            rows.add(row(item.label(), dir, m.status(), load));
            splits.add(splitRow(item.label(), dir));
            logs.tidy(dir);
        }
        List<String> table = new ArrayList<>();
        if (metricsPort != null) {
            table.add("live view on: each run served port " + metricsPort
                    + ", read once a second (/metrics and /live.json)");
        }
        table.add(
                "client minus wire on reused connections (us), floor = the reference probe's client minus wire p50 on the same host and run");
        table.add(String.format(
                Locale.ROOT,
                "%-24s %8s | %8s %8s %8s | %8s %8s %8s | %7s %9s | %7s %6s %7s | %7s | %-16s %-8s %s",
                "backend",
                "requests",
                "ttfb mn",
                "p50",
                "p99",
                "resp mn",
                "p50",
                "p99",
                "floor",
                "above p50",
                "retries",
                "CPU",
                "drops",
                "warm-up",
                "load avg",
                "check",
                "verdict"));
        table.addAll(rows);
        table.add("");
        table.add(
                "where the error goes, reused connections, p50 (us): send = first request packet - send mark, receive = end mark - last response "
                        + "packet; each side within half the anchor's bracket (ns), their sum exact; new connections opened in their request's window: "
                        + "send mark - SYN (the client's own work before it connects), SYN - first request packet");
        table.add(String.format(
                Locale.ROOT,
                "%-16s | %8s %8s %8s | %8s %8s %8s | %7s %7s | %8s %8s",
                "backend",
                "total",
                "send",
                "receive",
                "probe",
                "send",
                "receive",
                "anchor",
                "probe",
                "new: SYN",
                "SYN-req"));
        table.addAll(splits);
        String text = String.join("\n", table) + "\n";
        pw.println();
        pw.print(text);
        pw.flush();
        Files.writeString(out.resolve("accuracy.txt"), text, StandardCharsets.UTF_8);
        pw.println("table written to " + out.resolve("accuracy.txt"));
        return 0;
    }

    private static String row(String item, Path dir, int status, String load) throws IOException {
        Path summary = RunFiles.summaryJson(dir);
        if (!Files.isRegularFile(summary)) {
            return String.format(
                    Locale.ROOT, "%-24s failed (exit %d), see %s", item, status, dir.resolve(RunFiles.CLIENT_LOG));
        }
        JsonNode s = new ObjectMapper().readTree(summary.toFile());
        JsonNode w = s.path("wire_check");
        if (!w.has("client_minus_wire_us")) {
            return String.format(
                    Locale.ROOT,
                    "%-24s no wire check: %s",
                    item,
                    w.path("reason").asText("(none in summary.json)"));
        }
        JsonNode reused = w.path("client_minus_wire_us").path("reused");
        JsonNode t = reused.path("ttfb");
        JsonNode r = reused.path("response");
        double floor = w.path("floor_us").asDouble(Double.NaN);
        double above = r.path("p50").asDouble() - floor;
        String retries = s.has("retried_requests") ? s.get("retried_requests").asText() : "n/a";
        long drops = w.path("capture").path("kernel_drops").asLong(0)
                + w.path("capture").path("interface_drops").asLong(0);
        JsonNode jit = s.path("jit_warmup");
        String warmup = !jit.has("status")
                ? "n/a"
                : jit.get("status").asText().equals("off")
                                || jit.get("status").asText().equals("skipped")
                        ? jit.get("status").asText()
                        : String.valueOf(jit.path("requests").asLong());
        return String.format(
                Locale.ROOT,
                "%-24s %8d | %8.1f %8.1f %8.1f | %8.1f %8.1f %8.1f | %7.1f %9.1f | %7s %6.2f %7d | %7s | %-16s %-8s %s",
                item,
                r.path("count").asLong(),
                t.path("mean").asDouble(),
                t.path("p50").asDouble(),
                t.path("p99").asDouble(),
                r.path("mean").asDouble(),
                r.path("p50").asDouble(),
                r.path("p99").asDouble(),
                floor,
                above,
                retries,
                s.path("client_health").path("run_cpu_cores").asDouble(),
                drops,
                warmup,
                load,
                w.path("status").asText(),
                SummaryFile.verdictWord(s.path("client_health").path("verdict").asText("")));
    }

    /** Send-side and receive-side p50 beside the total, for the backend (reused connections) and the run's probe. */
    private static String splitRow(String item, Path dir) throws IOException {
        Path summary = RunFiles.summaryJson(dir);
        JsonNode w = Files.isRegularFile(summary)
                ? new ObjectMapper().readTree(summary.toFile()).path("wire_check")
                : null;
        if (w == null || !w.has("client_minus_wire_us")) {
            return String.format(Locale.ROOT, "%-16s | (no wire check)", item);
        }
        JsonNode b = w.path("client_minus_wire_us").path("reused");
        JsonNode p = w.path("probe").path("client_minus_wire_us");
        JsonNode n = w.path("client_minus_wire_us").path("new");
        return String.format(
                Locale.ROOT,
                "%-16s | %8s %8s %8s | %8s %8s %8s | %7s %7s | %8s %8s",
                item,
                p50(b.path("response")),
                p50(b.path("send_side")),
                p50(b.path("receive_side")),
                p50(p.path("response")),
                p50(p.path("send_side")),
                p50(p.path("receive_side")),
                w.path("anchor_bracket_ns").path("client").asText("-"),
                w.path("anchor_bracket_ns").path("probe").asText("-"),
                p50(n.path("send_mark_to_syn")),
                p50(n.path("syn_to_request")));
    }

    private static String p50(JsonNode stats) {
        return stats.has("p50")
                ? String.format(Locale.ROOT, "%.1f", stats.path("p50").asDouble())
                : "-";
    }

    /** The 1, 5 and 15 minute load averages (/proc/loadavg), or "?" elsewhere. */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }
}
