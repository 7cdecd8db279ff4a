package org.rubis.client.experiment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rubis.client.config.Durations;
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
 * connections), connect errors, run-phase p99 send lateness, client heap per idle user
 * ({@link HeapPerUser}: live heap with the users thinking minus live heap after the sessions ended,
 * both after a full GC, divided by the users) and CPU.
 * The resource plan (open files, ephemeral ports) is checked first; a plan that cannot fit is
 * refused with one line.
 */
final class ScaleBench {

    /** The execution models measured: label, then the run options that select it. */
    static final List<List<String>> MODELS = List.of(
            List.of("netty", "--backend", "netty"),
            List.of("virtual", "--backend", "dedicated", "--threads", "virtual"));

    /**
     * The client JVM's collector per model, beside {@code -Xmx}: the JVM's default (G1) for netty; ZGC for virtual threads,
     * whose sessions' state (HttpClient 5 connections and their buffers, 6.5 KB a user) G1 copies in young pauses of 15 to
     * 35 ms at 18,000 users: its run-phase p99 send lateness was 4.0 to 7.9 ms, over 5 ms in 3 of 5 runs on an idle host
     * (2026-11-25), against 2.3 to 2.5 ms with ZGC for the same CPU per request and 1 KB more heap per user
     * (docs/BENCHMARKS.md "bench scale: virtual threads with ZGC").
     */
    static List<String> collector(String model) {
        return "virtual".equals(model) ? List.of("-XX:+UseZGC") : List.of();
    }

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
        plan.check(true, sources, true, org.rubis.client.config.BackendKind.NETTY);
        out.printf(Locale.ROOT, "plan: %d users, open-file limit %d per process (client and server each need about %d), %d ephemeral ports per "
                + "source address -> %d loopback source address(es)%n", users, plan.fdLimit(), plan.filesNeeded(), plan.ports(), sources);
        Durations.millis("--ramp-up", rampUp); // bad times fail here, with one line, before any JVM starts
        Durations.millis("--duration", duration);
        List<String> rows = new ArrayList<>();
        List<String> details = new ArrayList<>();
        for (String model : models) {
            List<String> select = MODELS.stream().filter(m -> m.get(0).equals(model)).findFirst()
                    .orElseThrow(() -> new ConfigException("bench scale --list " + model + ": expected netty or virtual"))
                    .subList(1, 3 + ("virtual".equals(model) ? 2 : 0));
            Path runDir = dir.resolve("scale-" + model);
            Files.createDirectories(runDir);
            List<String> args = new ArrayList<>(List.of("--users", String.valueOf(users), "--ramp-up", rampUp, "--duration", duration,
                    "--ramp-down", "15s", "--seed", "1", "--no-progress", "--source-addresses", String.valueOf(sources),
                    // dedicated semantics: the server keeps idle connections through any think time (TPC-W: up to 70 s)
                    "-Dserver_keepalive_timeout_ms=0",
                    // class histograms (full GC) 2 s into the down ramp (users connected and thinking) and after the sessions end
                    "--heap-per-user"));
            args.addAll(select);
            List<String> jvm = new ArrayList<>(collector(model));
            jvm.add("-Xmx" + heap);
            List<String> cmd = ChildJvm.command(EmbeddedServerProcess.javaExecutable(), "scale", jvm, runDir, args);
            out.println("measuring " + model + ": " + String.join(" ", cmd.subList(1, cmd.size())));
            out.flush();
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(runDir.resolve("client.out").toFile()).start();
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
            JsonNode heapJson = j.path("heap_per_user");
            long perUser = heapJson.path("bytes_per_user").asLong(-1);
            if (perUser >= 0) {
                StringBuilder top = new StringBuilder(model + " per user:");
                for (int i = 0; i < Math.min(6, heapJson.path("top_classes").size()); i++) {
                    JsonNode c = heapJson.path("top_classes").get(i);
                    top.append(String.format(Locale.ROOT, " %s %.0f B;", c.path("class").asText(), c.path("bytes_per_user").asDouble()));
                }
                details.add(top.toString());
            }
            rows.add(String.format(Locale.ROOT, "%-8s %8d %8d %9d %9d %8d %10.3f %10s %9.2f %9.1f %s", model, j.path("users_started").asInt(),
                    s.server().maxConcurrentConnections(), s.server().connectionsAccepted(), j.path("sessions_started").asLong(), connectErrors,
                    s.health().runSendLatenessP99Ms(), perUser < 0 ? "n/a" : String.valueOf(perUser),
                    s.health().runCpuCores(), s.throughputRps(), s.status()));
        }
        out.println();
        out.println(String.format(Locale.ROOT, "%-8s %8s %8s %9s %9s %8s %10s %10s %9s %9s %s", "model", "users", "conc conn", "srv conns",
                "sessions", "conn err", "late p99ms", "heap B/usr", "CPU cores", "req/s", "status"));
        rows.forEach(out::println);
        out.println("(users: started by the client; conc conn: the server's maximum of concurrent connections; srv conns: connections it "
                + "accepted; heap B/usr: (live heap 2 s into the down ramp - live heap after the sessions ended) / users, both after a full GC, "
                + "with -Xmx" + heap + "; class histograms and the largest per-user classes in each run directory's summary; virtual runs with ZGC, "
                + "whose pauses stay under 1 ms where G1's young pauses of 15-35 ms set the p99)");
        details.forEach(out::println);
        out.flush();
        return 0;
    }
}
