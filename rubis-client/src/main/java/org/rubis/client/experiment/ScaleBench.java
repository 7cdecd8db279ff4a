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
import java.util.concurrent.TimeUnit;
import org.rubis.client.input.ConfigException;
import org.rubis.client.process.ChildJvm;
import org.rubis.client.process.EmbeddedServerProcess;
import org.rubis.client.process.ResourcePlan;
import org.rubis.client.report.SummaryFile;
import org.rubis.format.RunFiles;

/**
 * {@code bench scale}: many concurrent users, each with its own connection and TPC-W think time,
 * from one client JVM with a fixed heap (default -Xmx512m) against the embedded event server in
 * its own JVM. Per execution model it prints users reached (the server's own count of concurrent
 * connections), connect errors, run-phase p99 send lateness, client heap per user (live heap
 * after a full GC, from a class histogram taken mid-run, divided by the users) and CPU.
 * The resource plan (open files, ephemeral ports) is checked first; a plan that cannot fit is
 * refused with one line.
 */
final class ScaleBench {

    /** The execution models measured: label, then the run options that select it. */
    static final List<List<String>> MODELS = List.of(
            List.of("netty", "--backend", "netty"),
            List.of("virtual", "--backend", "dedicated", "--threads", "virtual"));

    private final PrintWriter out;

    ScaleBench(PrintWriter out) {
        this.out = out;
    }

    int run(int users, String rampUp, String duration, String heap, List<String> models, Path dir) throws Exception {
        if (!heap.matches("[0-9]{1,6}[kKmMgG]?")) {
            throw new ConfigException("bench scale --heap " + heap + ": expected a size such as 512m or 2g");
        }
        ResourcePlan plan = new ResourcePlan(users, ResourcePlan.openFileLimit(), ResourcePlan.ephemeralPorts());
        int sources = plan.sourceAddressesNeeded();
        plan.check(true, sources, true);
        out.printf(Locale.ROOT, "plan: %d users, open-file limit %d per process (client and server each need about %d), %d ephemeral ports per "
                + "source address -> %d loopback source address(es)%n", users, plan.fdLimit(), plan.filesNeeded(), plan.ports(), sources);
        long rampMs = millis(rampUp);
        long runMs = millis(duration);
        List<String> rows = new ArrayList<>();
        for (String model : models) {
            List<String> select = MODELS.stream().filter(m -> m.get(0).equals(model)).findFirst()
                    .orElseThrow(() -> new ConfigException("bench scale --list " + model + ": expected netty or virtual"))
                    .subList(1, 3 + ("virtual".equals(model) ? 2 : 0));
            Path runDir = dir.resolve("scale-" + model);
            Files.createDirectories(runDir);
            List<String> args = new ArrayList<>(List.of("--users", String.valueOf(users), "--ramp-up", rampUp, "--duration", duration,
                    "--ramp-down", "15s", "--seed", "1", "--no-progress", "--source-addresses", String.valueOf(sources),
                    // dedicated semantics: the server keeps idle connections through any think time (TPC-W: up to 70 s)
                    "-Dserver_keepalive_timeout_ms=0"));
            args.addAll(select);
            List<String> cmd = ChildJvm.command(EmbeddedServerProcess.javaExecutable(), "scale", List.of("-Xmx" + heap), runDir, args);
            out.println("measuring " + model + ": " + String.join(" ", cmd.subList(1, cmd.size())));
            out.flush();
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(runDir.resolve("client.out").toFile()).start();
            // After the run phase, in the down ramp (users still connected, thinking 3x longer): a class histogram (it forces a
            // full GC first) gives the live heap of the full population without pausing the measured phase.
            long histogramAt = rampMs + runMs + 2_000;
            Long live = null;
            if (!p.waitFor(histogramAt + 5_000, TimeUnit.MILLISECONDS)) {
                live = liveHeap(p.pid(), runDir.resolve("histogram.txt"));
            }
            int status = p.waitFor();
            SummaryFile s = SummaryFile.read(runDir);
            if (s == null) {
                rows.add(String.format(Locale.ROOT, "%-8s failed (exit %d), see %s", model, status, runDir.resolve("client.out")));
                continue;
            }
            JsonNode j = new ObjectMapper().readTree(RunFiles.summaryJson(runDir).toFile());
            long connectErrors = 0;
            for (var e : (Iterable<java.util.Map.Entry<String, JsonNode>>) j.path("errors_by_class")::fields) {
                if (e.getKey().startsWith("connect")) {
                    connectErrors += e.getValue().asLong();
                }
            }
            rows.add(String.format(Locale.ROOT, "%-8s %8d %8d %9d %9d %8d %10.3f %10s %9.2f %9.1f %s", model, j.path("users_started").asInt(),
                    s.server().maxConcurrentConnections(), s.server().connectionsAccepted(), j.path("sessions_started").asLong(), connectErrors,
                    s.health().runSendLatenessP99Ms(), live == null ? "n/a" : String.format(Locale.ROOT, "%.0f", (double) live / users),
                    s.health().runCpuCores(), s.throughputRps(), s.status()));
        }
        out.println();
        out.println(String.format(Locale.ROOT, "%-8s %8s %8s %9s %9s %8s %10s %10s %9s %9s %s", "model", "users", "conc conn", "srv conns",
                "sessions", "conn err", "late p99ms", "heap B/usr", "CPU cores", "req/s", "status"));
        rows.forEach(out::println);
        out.println("(users: started by the client; conc conn: the server's maximum of concurrent connections; srv conns: connections it "
                + "accepted; heap B/usr: live heap after a full GC at the start of the down ramp / users, with -Xmx" + heap + ")");
        out.flush();
        return 0;
    }

    /** Live heap in bytes from {@code jcmd PID GC.class_histogram} (which runs a full GC first), or null. */
    static Long liveHeap(long pid, Path save) {
        Path jcmd = Path.of(EmbeddedServerProcess.javaExecutable()).resolveSibling("jcmd");
        try {
            Process p = new ProcessBuilder(jcmd.toString(), String.valueOf(pid), "GC.class_histogram")
                    .redirectErrorStream(true).redirectOutput(save.toFile()).start();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            List<String> lines = Files.readAllLines(save, StandardCharsets.UTF_8);
            for (int i = lines.size() - 1; i >= 0; i--) {
                String l = lines.get(i).trim();
                if (l.startsWith("Total")) {
                    String[] f = l.split("\\s+");
                    return Long.parseLong(f[2]);
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return null;
    }

    static long millis(String t) {
        String s = t.trim().toLowerCase(Locale.ROOT);
        try {
            if (s.endsWith("ms")) {
                return Long.parseLong(s.substring(0, s.length() - 2));
            }
            if (s.endsWith("s")) {
                return Long.parseLong(s.substring(0, s.length() - 1)) * 1000;
            }
            if (s.endsWith("m")) {
                return Long.parseLong(s.substring(0, s.length() - 1)) * 60_000;
            }
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw new ConfigException("bench scale: '" + t + "' is not a time; expected e.g. 30s, 2m, 500ms");
        }
    }
}
