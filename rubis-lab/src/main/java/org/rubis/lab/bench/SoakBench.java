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
import org.rubis.format.run.RunFiles;
import org.rubis.format.run.RunStatus;
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
@Command(
        name = "soak",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        showDefaultValues = true,
        description = "One long run; prints heap, file descriptors and threads over time and whether each is flat. "
                + "Exit 0 when all are flat, 1 when one grows, 2 when there is no judgment (the run is not complete, "
                + "or left too few points), 64 for a run too short to judge (refused before it starts).")
final class SoakBench implements Callable<Integer> {

    @Mixin
    Population population = new Population(4000, 1.0);

    @Mixin
    RunPhases phases = new RunPhases("5s", "30m");

    @Option(
            names = "--backend",
            paramLabel = "NAME",
            defaultValue = "netty",
            description = "The backend: ${COMPLETION-CANDIDATES}.")
    BackendKind backend;

    @Option(
            names = "--heap",
            paramLabel = "SIZE",
            defaultValue = "1g",
            description = "The client JVM's -Xmx, so that collections happen and the heap after them can be judged.")
    String heap;

    @Mixin
    Runs runs = new Runs("runs/bench");

    @Mixin
    ChildRunLogs logs = new ChildRunLogs();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!heap.matches("[0-9]{1,6}[kKmMgG]?")) {
            throw new ConfigException("bench soak --heap " + heap + ": expected a size such as 1g or 768m");
        }
        Duration rampUp = phases.rampUp();
        double skip = rampUp.toMillis() / 1000.0 + 60; // judge after the ramp and a minute of warm-up
        double needed = SoakTrend.minimumRunSeconds(skip);
        double planned = (rampUp.toMillis() + phases.duration().toMillis()) / 1000.0;
        if (planned < needed) {
            throw new ConfigException(String.format(
                    Locale.ROOT,
                    "bench soak --duration %s: the trend is judged after "
                            + "the up ramp and a minute of warm-up (%.0f s) on %d one-minute points, so the up ramp and the run "
                            + "need %.0f s; give --duration %.0fs or more",
                    phases.durationText(),
                    skip,
                    SoakTrend.MIN_POINTS,
                    needed,
                    needed - rampUp.toMillis() / 1000.0));
        }
        Path dir = runs.dir().resolve("soak-" + backend.label());
        PrintWriter pw = spec.commandLine().getOut();
        ClientCommandLine line = Measurement.closedRuns(population, phases)
                .backend(backend)
                .profile("soak", List.of("-Xmx" + heap))
                .out(dir);
        Measurement m = Measurement.of(pw, "soak", line, dir.resolve("client.out"));
        SummaryFile s = m.summary();
        if (s == null || !Files.isRegularFile(RunFiles.clientHealth(dir))) {
            pw.println("soak failed (exit " + m.status() + "), see " + dir);
            pw.flush();
            return NO_JUDGMENT;
        }
        SoakTrend.Trend trend = SoakTrend.read(dir, skip);
        pw.println();
        pw.println(String.format(
                Locale.ROOT,
                "%d users, %s, backend %s, -Xmx%s: %d requests, %.1f req/s, status %s (exit %d), verdict %s; %s",
                population.users(),
                phases.durationText(),
                backend,
                heap,
                s.requests(),
                s.throughputRps(),
                s.status(),
                m.status(),
                s.verdict(),
                trend.judgedFrom(skip)));
        trend.windows(5, skip).forEach(pw::println);
        pw.println("heap judged on the " + trend.heapSource());
        trend.series().forEach(t -> pw.println(t.line()));
        pw.flush();
        logs.tidy(dir);
        return status(s.status(), trend.judged(), trend.flat());
    }

    /** Every series judged and flat. */
    static final int FLAT = 0;
    /** A series grows: a leak, the finding this bench looks for. */
    static final int GROWING = 1;
    /** No judgment: the run is not complete (its figures are no measurement), or it left too few points. */
    static final int NO_JUDGMENT = 2;

    /** The exit status, one meaning each: a growing series is a finding only on a complete, judged run. */
    static int status(RunStatus run, boolean judged, boolean flat) {
        if (run != RunStatus.COMPLETE || !judged) {
            return NO_JUDGMENT;
        }
        return flat ? FLAT : GROWING;
    }
}
