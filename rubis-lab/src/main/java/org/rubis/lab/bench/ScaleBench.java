package org.rubis.lab.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.rubis.client.cli.RunPhases;
import org.rubis.client.config.BackendKind;
import org.rubis.client.config.ThreadModel;
import org.rubis.client.heap.HeapPerUser;
import org.rubis.client.input.ConfigException;
import org.rubis.client.process.ClientCommandLine;
import org.rubis.client.process.ResourcePlan;
import org.rubis.client.report.SummaryFile;
import org.rubis.format.run.RunFiles;
import org.rubis.lab.Runs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

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
@Command(
        name = "scale",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        showDefaultValues = true,
        description = "Many users with their own connections and TPC-W think time in one client JVM with a fixed "
                + "heap, with netty and with virtual threads; prints users reached, connect errors, run-phase p99 send "
                + "lateness, heap per user and CPU.")
final class ScaleBench implements Callable<Integer> {

    /** The execution models measured: how each selects its backend and threads, and its collector. */
    enum Model {
        /** netty's event loops, the JVM's default collector (G1). */
        NETTY,
        /**
         * A virtual thread per request (dedicated), with ZGC: G1 copies these sessions' state (HttpClient 5
         * connections and their buffers, 6.5 KB a user) in young pauses of 15 to 35 ms at 18,000 users: its run-phase
         * p99 send lateness was 4.0 to 7.9 ms, over 5 ms in 3 of 5 runs on an idle host (2026-11-25), against 2.3 to
         * 2.5 ms with ZGC for the same CPU per request and 1 KB more heap per user (docs/BENCHMARKS.md, "Tried, and not
         * kept").
         */
        VIRTUAL;

        ClientCommandLine applyTo(ClientCommandLine line) {
            return this == NETTY
                    ? line.backend(BackendKind.NETTY)
                    : line.backend(BackendKind.DEDICATED).threads(ThreadModel.VIRTUAL);
        }

        /** The client JVM's collector flags beside {@code -Xmx}. */
        List<String> collector() {
            return this == VIRTUAL ? List.of("-XX:+UseZGC") : List.of();
        }

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    @Option(
            names = "--users",
            paramLabel = "N",
            defaultValue = "18000",
            description = "Emulated users, each with its own connection.")
    int users;

    @Mixin
    RunPhases phases = new RunPhases("30s", "30s");

    @Option(names = "--heap", paramLabel = "SIZE", defaultValue = "512m", description = "The client JVM's -Xmx.")
    String heap;

    @Option(
            names = "--list",
            split = ",",
            paramLabel = "MODEL",
            defaultValue = "netty,virtual",
            description = "The execution models: ${COMPLETION-CANDIDATES}.")
    List<Model> models;

    @Mixin
    Runs runs = new Runs("runs/bench");

    @Mixin
    ChildRunLogs logs = new ChildRunLogs();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Path dir = runs.dir();
        if (!heap.matches("[0-9]{1,6}[kKmMgG]?")) {
            throw new ConfigException("bench scale --heap " + heap + ": expected a size such as 512m or 2g");
        }
        ResourcePlan plan = new ResourcePlan(users, ResourcePlan.openFileLimit(), ResourcePlan.ephemeralPorts());
        int sources = plan.sourceAddressesNeeded();
        plan.check(true, sources, true, BackendKind.NETTY);
        out.printf(
                Locale.ROOT,
                "plan: %d users, open-file limit %d per process (client and server each need about %d), %d ephemeral ports per "
                        + "source address -> %d loopback source address(es)%n",
                users,
                plan.fdLimit(),
                plan.filesNeeded(),
                plan.ports(),
                sources);
        ClientCommandLine base = ClientCommandLine.run()
                .users(users)
                .rampUp(phases.rampUp())
                .duration(phases.duration())
                .rampDown(Duration.ofSeconds(15))
                .seed(1)
                .noProgress()
                .sourceAddresses(sources)
                // dedicated semantics: the server keeps idle connections through any think time (TPC-W: up to 70 s)
                .property("server_keepalive_timeout_ms", "0")
                // class histograms (full GC) 2 s into the down ramp (users connected and thinking) and after the
                // sessions
                // end
                .heapPerUser();
        List<String> rows = new ArrayList<>();
        List<String> details = new ArrayList<>();
        for (Model model : models) {
            Path runDir = dir.resolve("scale-" + model);
            List<String> jvm = new ArrayList<>(model.collector());
            jvm.add("-Xmx" + heap);
            ClientCommandLine line = model.applyTo(base).profile("scale", jvm).out(runDir);
            Measurement m = Measurement.of(out, model.toString(), line, runDir.resolve("client.out"));
            SummaryFile s = m.summary();
            if (s == null) {
                rows.add(String.format(
                        Locale.ROOT, "%-8s failed (exit %d), see %s", model, m.status(), runDir.resolve("client.out")));
                continue;
            }
            JsonNode j =
                    new ObjectMapper().readTree(RunFiles.summaryJson(runDir).toFile());
            long connectErrors = 0;
            for (var e : (Iterable<Map.Entry<String, JsonNode>>) j.path("errors_by_class")::fields) {
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
                    top.append(String.format(
                            Locale.ROOT,
                            " %s %.0f B;",
                            c.path("class").asText(),
                            c.path("bytes_per_user").asDouble()));
                }
                details.add(top.toString());
            }
            rows.add(String.format(
                    Locale.ROOT,
                    "%-8s %8d %8d %9d %9d %8d %10.3f %10s %9.2f %9.1f %-9s %s",
                    model,
                    j.path("users_started").asInt(),
                    s.server().maxConcurrentConnections(),
                    s.server().connectionsAccepted(),
                    j.path("sessions_started").asLong(),
                    connectErrors,
                    s.health().runSendLatenessP99Ms(),
                    perUser < 0 ? "n/a" : String.valueOf(perUser),
                    s.health().runCpuCores(),
                    s.throughputRps(),
                    s.status(),
                    s.verdict()));
            logs.tidy(runDir);
        }
        out.println();
        out.println(String.format(
                Locale.ROOT,
                "%-8s %8s %8s %9s %9s %8s %10s %10s %9s %9s %-9s %s",
                "model",
                "users",
                "conc conn",
                "srv conns",
                "sessions",
                "conn err",
                "late p99ms",
                "heap B/usr",
                "CPU cores",
                "req/s",
                "status",
                "verdict"));
        rows.forEach(out::println);
        out.println(
                "(users: started by the client; conc conn: the server's maximum of concurrent connections; srv conns: connections it "
                        + "accepted; heap B/usr: (live heap 2 s into the down ramp - live heap after the sessions ended) / users, both after a full GC, "
                        + "with -Xmx" + heap
                        + "; class histograms and the largest per-user classes in each run directory's summary; virtual runs with ZGC, "
                        + "whose pauses stay under 1 ms where G1's young pauses of 15-35 ms set the p99)");
        details.forEach(out::println);
        out.flush();
        return 0;
    }
}
