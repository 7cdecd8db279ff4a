package org.rubis.client.experiment;

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
import org.rubis.client.process.ChildJvm;
import org.rubis.client.process.EmbeddedServerProcess;
import org.rubis.format.RunFiles;

/**
 * {@code bench accuracy}: each backend in its own client JVM against the embedded server (its own JVM),
 * with the packet capture and the reference probe on; per backend, how far the client is from the wire
 * on reused connections, the host's floor (the probe), our overhead above it, retries and CPU, with the
 * host's load average before the run. The table goes to stdout and to OUT/accuracy.txt.
 */
final class AccuracyBench {

    /** Backends measured by default; "netty+busy-poll" is netty with --busy-poll. */
    static final List<String> BACKENDS = List.of("legacy", "pooled", "dedicated", "netty", "netty+busy-poll");

    private AccuracyBench() {}

    static int run(PrintWriter pw, List<String> backends, int users, String duration, String rampUp, double thinkScale, Path out) throws Exception {
        for (String item : backends) { // every item checked before the first run
            String[] parts = item.split("\\+");
            checkBackend(item, parts[0]);
            modifiers(item, parts);
        }
        Files.createDirectories(out);
        List<String> rows = new ArrayList<>();
        List<String> splits = new ArrayList<>();
        for (String item : backends) {
            String[] parts = item.split("\\+");
            String backend = parts[0];
            Path dir = out.resolve(item);
            List<String> cmd = new ArrayList<>(List.of(EmbeddedServerProcess.javaExecutable(), "-jar", ChildJvm.selfJar(), "run", ChildJvm.CHILD,
                    "--users", String.valueOf(users), "--duration", duration, "--ramp-up", rampUp, "--ramp-down", "0",
                    "--think-scale", String.valueOf(thinkScale), "--seed", "1", "--backend", backend, "--capture", "--probe",
                    "--out", dir.toString(), "--no-progress"));
            cmd.addAll(modifiers(item, parts));
            String load = loadAverage();
            pw.println("measuring " + item + " (load average " + load + "): " + String.join(" ", cmd.subList(3, cmd.size())));
            pw.flush();
            Files.createDirectories(dir);
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve(RunFiles.CLIENT_LOG).toFile()).start();
            int status = p.waitFor();
            rows.add(row(item, dir, status, load));
            splits.add(splitRow(item, dir));
        }
        List<String> table = new ArrayList<>();
        table.add("client minus wire on reused connections (us), floor = the reference probe's client minus wire p50 on the same host and run");
        table.add(String.format(Locale.ROOT, "%-24s %8s | %8s %8s %8s | %8s %8s %8s | %7s %9s | %7s %6s %7s | %7s | %-16s %s", "backend", "requests",
                "ttfb mn", "p50", "p99", "resp mn", "p50", "p99", "floor", "above p50", "retries", "CPU", "drops", "warm-up", "load avg", "check"));
        table.addAll(rows);
        table.add("");
        table.add("where the error goes, reused connections, p50 (us): send = first request packet - send mark, receive = end mark - last response "
                + "packet; each side within half the anchor's bracket (ns), their sum exact; new connections opened in their request's window: "
                + "send mark - SYN (the client's own work before it connects), SYN - first request packet");
        table.add(String.format(Locale.ROOT, "%-16s | %8s %8s %8s | %8s %8s %8s | %7s %7s | %8s %8s", "backend", "total", "send", "receive", "probe",
                "send", "receive", "anchor", "probe", "new: SYN", "SYN-req"));
        table.addAll(splits);
        String text = String.join("\n", table) + "\n";
        pw.println();
        pw.print(text);
        pw.flush();
        Files.writeString(out.resolve("accuracy.txt"), text, StandardCharsets.UTF_8);
        pw.println("table written to " + out.resolve("accuracy.txt"));
        return 0;
    }

    /**
     * The options of an item's modifiers: {@code +busy-poll} (netty's busy-polling loop) and
     * {@code +no-warmup} (the JIT warm-up off, the pitfall); without {@code +no-warmup} the run warms up
     * (auto), whatever the environment's default.
     */
    static List<String> modifiers(String item, String[] parts) {
        List<String> args = new ArrayList<>();
        boolean warm = true;
        for (int i = 1; i < parts.length; i++) {
            switch (parts[i]) {
                case "busy-poll" -> args.add("--busy-poll");
                case "no-warmup" -> warm = false;
                default -> throw new org.rubis.client.input.ConfigException("bench accuracy --list " + item + ": unknown modifier +" + parts[i]
                        + "; expected BACKEND, BACKEND+busy-poll, BACKEND+no-warmup (e.g. netty,netty+no-warmup)");
            }
        }
        args.addAll(List.of("--jit-warmup", warm ? "auto" : "off"));
        return args;
    }

    private static void checkBackend(String item, String backend) {
        for (org.rubis.client.config.BackendKind k : org.rubis.client.config.BackendKind.values()) {
            if (k.label().equals(backend)) {
                return;
            }
        }
        throw new org.rubis.client.input.ConfigException("bench accuracy --list " + item + ": unknown backend " + backend
                + "; expected legacy, pooled, dedicated or netty, optionally +busy-poll and/or +no-warmup");
    }

    private static String row(String item, Path dir, int status, String load) throws IOException {
        Path summary = RunFiles.summaryJson(dir);
        if (!Files.isRegularFile(summary)) {
            return String.format(Locale.ROOT, "%-24s failed (exit %d), see %s", item, status, dir.resolve(RunFiles.CLIENT_LOG));
        }
        JsonNode s = new ObjectMapper().readTree(summary.toFile());
        JsonNode w = s.path("wire_check");
        if (!w.has("client_minus_wire_us")) {
            return String.format(Locale.ROOT, "%-24s no wire check: %s", item, w.path("reason").asText("(none in summary.json)"));
        }
        JsonNode reused = w.path("client_minus_wire_us").path("reused");
        JsonNode t = reused.path("ttfb");
        JsonNode r = reused.path("response");
        double floor = w.path("floor_us").asDouble(Double.NaN);
        double above = r.path("p50").asDouble() - floor;
        String retries = s.has("retried_requests") ? s.get("retried_requests").asText() : "n/a";
        long drops = w.path("capture").path("kernel_drops").asLong(0) + w.path("capture").path("interface_drops").asLong(0);
        JsonNode jit = s.path("jit_warmup");
        String warmup = !jit.has("status") ? "n/a" : jit.get("status").asText().equals("off") || jit.get("status").asText().equals("skipped")
                ? jit.get("status").asText() : String.valueOf(jit.path("requests").asLong());
        return String.format(Locale.ROOT, "%-24s %8d | %8.1f %8.1f %8.1f | %8.1f %8.1f %8.1f | %7.1f %9.1f | %7s %6.2f %7d | %7s | %-16s %s", item,
                r.path("count").asLong(), t.path("mean").asDouble(), t.path("p50").asDouble(), t.path("p99").asDouble(), r.path("mean").asDouble(),
                r.path("p50").asDouble(), r.path("p99").asDouble(), floor, above, retries, s.path("client_health").path("run_cpu_cores").asDouble(),
                drops, warmup, load, w.path("status").asText());
    }

    /** Send-side and receive-side p50 beside the total, for the backend (reused connections) and the run's probe. */
    private static String splitRow(String item, Path dir) throws IOException {
        Path summary = RunFiles.summaryJson(dir);
        JsonNode w = Files.isRegularFile(summary) ? new ObjectMapper().readTree(summary.toFile()).path("wire_check") : null;
        if (w == null || !w.has("client_minus_wire_us")) {
            return String.format(Locale.ROOT, "%-16s | (no wire check)", item);
        }
        JsonNode b = w.path("client_minus_wire_us").path("reused");
        JsonNode p = w.path("probe").path("client_minus_wire_us");
        JsonNode n = w.path("client_minus_wire_us").path("new");
        return String.format(Locale.ROOT, "%-16s | %8s %8s %8s | %8s %8s %8s | %7s %7s | %8s %8s", item, p50(b.path("response")), p50(b.path("send_side")),
                p50(b.path("receive_side")), p50(p.path("response")), p50(p.path("send_side")), p50(p.path("receive_side")),
                w.path("anchor_bracket_ns").path("client").asText("-"), w.path("anchor_bracket_ns").path("probe").asText("-"),
                p50(n.path("send_mark_to_syn")), p50(n.path("syn_to_request")));
    }

    private static String p50(JsonNode stats) {
        return stats.has("p50") ? String.format(Locale.ROOT, "%.1f", stats.path("p50").asDouble()) : "-";
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
