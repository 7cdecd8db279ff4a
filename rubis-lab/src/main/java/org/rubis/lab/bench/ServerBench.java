package org.rubis.lab.bench;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.rubis.client.cli.Population;
import org.rubis.client.cli.RunPhases;
import org.rubis.client.config.BackendKind;
import org.rubis.client.config.ServerModel;
import org.rubis.client.process.ClientCommandLine;
import org.rubis.client.report.SummaryFile;
import org.rubis.format.run.RunFiles;
import org.rubis.lab.Runs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bench server}: the browse mix against each server model with no think time; requests/s, service time. */
@Command(
        name = "server",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        showDefaultValues = true,
        description = "The browse mix against each server model with no think time; prints requests/s and mean "
                + "service time.")
final class ServerBench implements Callable<Integer> {

    /** The browse-only mix: every request reads, so the models are compared on the same work. */
    private static final String BROWSE_ONLY = "browse_only_transitions.txt";

    @Mixin
    Population population = new Population(16, 0);

    @Mixin
    RunPhases phases = new RunPhases("5s", "30s");

    @Option(
            names = "--list",
            split = ",",
            paramLabel = "MODEL",
            defaultValue = "event,prefork",
            description = "The server models, in this order: ${COMPLETION-CANDIDATES}.")
    List<ServerModel> models;

    @Mixin
    Runs runs = new Runs("runs/bench");

    @Mixin
    ChildRunLogs logs = new ChildRunLogs();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter pw = spec.commandLine().getOut();
        ClientCommandLine base = Measurement.closedRuns(population, phases)
                .backend(BackendKind.DEDICATED)
                .property("workload_transition_table", BROWSE_ONLY);
        List<String> rows = new ArrayList<>();
        for (ServerModel model : models) {
            Path dir = runs.dir().resolve("server-" + model.label());
            Measurement m =
                    Measurement.of(pw, model.label(), base.serverModel(model).out(dir), null);
            rows.add(
                    m.summary() == null
                            ? String.format(Locale.ROOT, "%-10s failed (exit %d)", model.label(), m.status())
                            : row(model.label(), dir, m.summary()));
            logs.tidy(dir);
        }
        pw.println();
        pw.println(String.format(
                Locale.ROOT,
                "%-10s %10s %12s %12s %12s %10s  %s",
                "model",
                "req/s",
                "service ms",
                "client ms",
                "p99 ms",
                "conns max",
                "verdict"));
        rows.forEach(pw::println);
        pw.flush();
        return 0;
    }

    private static String row(String model, Path dir, SummaryFile s) throws Exception {
        // Mean service time from the server's own log (arrival to end of response write).
        double sum = 0;
        long n = 0;
        try (Stream<String> lines = Files.lines(RunFiles.serverRequests(dir))) {
            for (String line : (Iterable<String>) lines.skip(1)::iterator) {
                String[] f = line.split(",", 5);
                sum += Long.parseLong(f[3]);
                n++;
            }
        }
        double serviceMs = n == 0 ? 0 : sum / n / 1e6;
        return String.format(
                Locale.ROOT,
                "%-10s %10.1f %12.3f %12.3f %12.3f %10d  %s",
                model,
                s.throughputRps(),
                serviceMs,
                s.run().mean(),
                s.run().p99(),
                s.server().maxConcurrentConnections(),
                s.verdict());
    }
}
