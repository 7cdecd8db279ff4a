package org.rubis.lab.bench;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.rubis.client.cli.Population;
import org.rubis.client.cli.RunPhases;
import org.rubis.client.config.BackendKind;
import org.rubis.client.input.ConfigException;
import org.rubis.client.process.ClientCommandLine;
import org.rubis.client.report.SummaryFile;
import org.rubis.format.RunFiles;
import org.rubis.lab.Runs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bench soak}: a long run at many users in a child JVM with a bounded heap (so that collections happen); then
 * the trend of the heap after collections (client-gc.csv), open file descriptors and threads (client-health.csv) after
 * the warm-up, and the figures per 5 minutes ({@link SoakTrend}).
 */
@Command(name = "soak", mixinStandardHelpOptions = true, sortOptions = false, showDefaultValues = true,
        description = "One long run; prints heap, file descriptors and threads over time and whether each is flat. "
                + "Exit 0 when all are flat, 1 when one grows or the run failed, 2 when the run was too short to "
                + "judge.")
final class SoakBench implements Callable<Integer> {

    @Mixin Population population = new Population(4000, 1.0);
    @Mixin RunPhases phases = new RunPhases("5s", "30m");
    @Option(names = "--backend", paramLabel = "NAME", defaultValue = "netty",
            description = "The backend: ${COMPLETION-CANDIDATES}.")
    BackendKind backend;
    @Option(names = "--heap", paramLabel = "SIZE", defaultValue = "1g",
            description = "The client JVM's -Xmx, so that collections happen and the heap after them can be judged.")
    String heap;
    @Mixin Runs runs = new Runs("runs/bench");
    @Mixin ChildRunLogs logs = new ChildRunLogs();
    @Spec CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!heap.matches("[0-9]{1,6}[kKmMgG]?")) {
            throw new ConfigException("bench soak --heap " + heap + ": expected a size such as 1g or 768m");
        }
        Path dir = runs.dir().resolve("soak-" + backend.label());
        PrintWriter pw = spec.commandLine().getOut();
        Duration rampUp = phases.rampUp();
        ClientCommandLine line = Measurement.closedRuns(population, phases).backend(backend)
                .profile("soak", List.of("-Xmx" + heap)).out(dir);
        Measurement m = Measurement.of(pw, "soak", line, dir.resolve("client.out"));
        SummaryFile s = m.summary();
        if (s == null || !Files.isRegularFile(RunFiles.clientHealth(dir))) {
            pw.println("soak failed (exit " + m.status() + "), see " + dir);
            pw.flush();
            return 2;
        }
        double skip = rampUp.toMillis() / 1000.0 + 60; // judge after the ramp and a minute of warm-up
        SoakTrend.Trend trend = SoakTrend.read(dir, skip);
        pw.println();
        pw.println(String.format(Locale.ROOT,
                "%d users, %s, backend %s, -Xmx%s: %d requests, %.1f req/s, status %s (exit %d), verdict %s; %s",
                population.users(), phases.durationText(), backend, heap, s.requests(), s.throughputRps(), s.status(),
                m.status(), s.verdict(), trend.judgedFrom(skip)));
        trend.windows(5, skip).forEach(pw::println);
        pw.println("heap judged on the " + trend.heapSource());
        trend.series().forEach(t -> pw.println(t.line()));
        pw.flush();
        logs.tidy(dir);
        // Not judged (too short a run) measured nothing: 2, as an invalid run; GROWING or a failed run 1.
        return !trend.judged() ? 2 : trend.flat() && m.status() == 0 ? 0 : 1;
    }
}
