package org.rubis.lab.bench;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.rubis.client.cli.Population;
import org.rubis.client.cli.RunPhases;
import org.rubis.client.config.BackendKind;
import org.rubis.client.process.ClientCommandLine;
import org.rubis.client.report.SummaryFile;
import org.rubis.lab.Runs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bench backends}: the same closed workload with each backend; client CPU per request, connections used. */
@Command(
        name = "backends",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        showDefaultValues = true,
        description = "The same closed workload with each connection backend; prints client CPU per request and "
                + "connections used.")
final class BackendsBench implements Callable<Integer> {

    @Mixin
    Population population = new Population(200, 0.1);

    @Mixin
    RunPhases phases = new RunPhases("5s", "30s");

    @Option(
            names = "--list",
            split = ",",
            paramLabel = "BACKEND",
            defaultValue = "legacy,pooled,dedicated,netty",
            description = "The backends, in this order: ${COMPLETION-CANDIDATES}.")
    List<BackendKind> backends;

    @Mixin
    Runs runs = new Runs("runs/bench");

    @Mixin
    ChildRunLogs logs = new ChildRunLogs();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter pw = spec.commandLine().getOut();
        ClientCommandLine base = Measurement.closedRuns(population, phases);
        List<String> rows = new ArrayList<>();
        for (BackendKind b : backends) {
            Path dir = runs.dir().resolve("backend-" + b.label());
            Measurement m = Measurement.of(pw, b.label(), base.backend(b).out(dir), null);
            rows.add(
                    m.summary() == null
                            ? String.format(Locale.ROOT, "%-10s failed (exit %d)", b.label(), m.status())
                            : row(b.label(), m.summary()));
            logs.tidy(dir);
        }
        pw.println();
        pw.println(String.format(
                Locale.ROOT,
                "%-10s %9s %9s %11s %12s %11s %11s %9s %9s %9s %10s  %s",
                "backend",
                "requests",
                "req/s",
                "run CPU s",
                "CPU us/req",
                "fixed cores",
                "conns (srv)",
                "max conc",
                "mean ms",
                "p99 ms",
                "late p99",
                "verdict"));
        rows.forEach(pw::println);
        pw.flush();
        return 0;
    }

    private static String row(String backend, SummaryFile s) {
        // CPU per request without the fixed cost (the idle client's cores, printed beside it): at low rates the ratio
        // of CPU to requests is mostly the fixed cost.
        SummaryFile.Health h = s.health();
        String cpu = h.runRequestCpuUs() < 0
                ? String.format(Locale.ROOT, "%.1f gross", h.runCpuUsPerRequest())
                : String.format(Locale.ROOT, "%.1f", h.runRequestCpuUs());
        return String.format(
                Locale.ROOT,
                "%-10s %9d %9.1f %11.2f %12s %11s %11d %9d %9.3f %9.3f %10.3f  %s",
                backend,
                s.requests(),
                s.throughputRps(),
                h.runCpuSeconds(),
                cpu,
                h.fixedCpuCores() < 0 ? "n/a" : String.format(Locale.ROOT, "%.4f", h.fixedCpuCores()),
                s.server().connectionsAccepted(),
                s.server().maxConcurrentConnections(),
                s.run().mean(),
                s.run().p99(),
                s.health().runSendLatenessP99Ms(),
                s.verdict());
    }
}
