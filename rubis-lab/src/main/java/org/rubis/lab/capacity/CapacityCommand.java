package org.rubis.lab.capacity;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.rubis.client.cli.JvmChoice;
import org.rubis.client.cli.RunPhases;
import org.rubis.client.config.JvmProfiles;
import org.rubis.client.process.ChildJvm;
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
 * Finds how many emulated users one client JVM sustains: closed runs with TPC-W think time at
 * increasing N, each in a child JVM with the profile's flags, until the run fails (out of memory,
 * no thread) or the client becomes the bottleneck (send lateness or CPU above the limits).
 */
@Command(
        name = "capacity",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        showDefaultValues = true,
        description =
                "Largest number of concurrent emulated users the client sustains for a JVM profile and execution model.")
public final class CapacityCommand implements Callable<Integer> {

    @Mixin
    JvmChoice jvm = new JvmChoice("default");

    @Option(
            names = "--execution",
            paramLabel = "MODEL",
            defaultValue = "platform",
            description = "${COMPLETION-CANDIDATES}: platform (a thread per user), virtual (a virtual thread per "
                    + "request, think times on a timer) or netty (event loops).")
    Execution execution;

    @Option(
            names = "--users",
            split = ",",
            paramLabel = "N",
            defaultValue = "500,1000,2000,4000,8000",
            description = "The steps: users of each run.")
    List<Integer> steps;

    @Mixin
    RunPhases phases = new RunPhases("15s", "20s");

    private static final double DEFAULT_LATENESS_MS = 5;
    private static final double DEFAULT_CPU = 0.8;

    @Option(
            names = "--lateness-ms",
            paramLabel = "MS",
            defaultValue = "" + DEFAULT_LATENESS_MS,
            description = "Bottleneck if the run-phase p99 send lateness exceeds this.")
    double latenessMs;

    @Option(
            names = "--cpu",
            paramLabel = "SHARE",
            defaultValue = "" + DEFAULT_CPU,
            description = "Bottleneck if the client uses more than this fraction of the cores.")
    double cpu;

    @Option(
            names = "--until-heap",
            description = "Go on past a lateness or CPU bottleneck, up to a step that fails or whose heap is full "
                    + "(the heap's own limit, found even where the host's cores give out first); 'largest sustained' stays the last step before the first "
                    + "bottleneck.")
    boolean untilHeap;

    @Mixin
    Runs runs = new Runs("runs/capacity");

    @Spec
    CommandSpec spec;

    /** What a search found: the most users sustained before the first bottleneck (0: none), and what ended it. */
    public record Result(int largestSustained, String stopReason) {}

    /** A search set up from code (as {@code reproduce heap-capacity} runs it): these values in place of the options. */
    public static CapacityCommand of(
            String profile, Execution execution, List<Integer> steps, RunPhases phases, boolean untilHeap, Path out) {
        CapacityCommand c = new CapacityCommand();
        c.jvm = new JvmChoice(profile);
        c.execution = execution;
        c.steps = List.copyOf(steps);
        c.phases = phases;
        c.latenessMs = DEFAULT_LATENESS_MS;
        c.cpu = DEFAULT_CPU;
        c.untilHeap = untilHeap;
        c.runs = new Runs(out.toString());
        return c;
    }

    @Override
    public Integer call() throws Exception {
        search(spec.commandLine().getOut());
        return 0;
    }

    /** Runs the steps, prints each and the table to {@code pw}, and returns what the search found. */
    public Result search(PrintWriter pw) throws Exception {
        List<String> flags = jvm.flags();
        ClientCommandLine base = execution
                .applyTo(jvm.applyTo(ClientCommandLine.run()))
                .rampUp(phases.rampUp())
                .duration(phases.duration())
                .rampDown(Duration.ZERO)
                .property("workload_up_ramp_slowdown_factor", "1")
                .seed(1)
                .noProgress()
                .property("server_java_options", "-Xmx2g");
        List<String> rows = new ArrayList<>();
        CapacityLadder ladder = new CapacityLadder(untilHeap);
        for (int n : steps) {
            Path dir = runs.dir().resolve(jvm.profile() + "-" + execution + "-" + n);
            ClientCommandLine line = base.users(n).out(dir);
            Files.createDirectories(dir);
            pw.println("N=" + n + ": " + String.join(" ", line.command()));
            pw.flush();
            ChildJvm.run(line, dir.resolve(RunFiles.CLIENT_LOG), null);
            SummaryFile s = SummaryFile.read(dir);
            if (s == null) {
                rows.add(String.format(
                        Locale.ROOT, "%7d  %-8s (no summary: see %s)", n, "failed", dir.resolve(RunFiles.CLIENT_LOG)));
                ladder.step(n, "the client JVM died without a summary", true);
                break;
            }
            double late = s.health().runSendLatenessP99Ms();
            double cores = s.health().runCpuCores();
            int nCores = s.health().cores();
            String verdict = verdict(s, late, cores, nCores);
            rows.add(String.format(
                    Locale.ROOT,
                    "%7d  %9.1f %9.3f %9.2f %8d %9d  %s",
                    n,
                    s.throughputRps(),
                    late,
                    cores,
                    s.health().peakThreads(),
                    s.health().peakHeapBytes() >> 20,
                    verdict));
            if (!ladder.step(n, verdict, !s.complete())) {
                break;
            }
        }
        table(pw, flags, rows, ladder);
        pw.flush();
        return new Result(ladder.sustained(), ladder.stopReason());
    }

    /** A step's verdict: failed, a bottleneck (lateness or CPU, the heap named when full), or sustained. */
    private String verdict(SummaryFile s, double late, double cores, int nCores) {
        if (!s.complete()) {
            return "FAILED: " + s.stopReason();
        } else if (late > latenessMs) {
            return String.format(Locale.ROOT, "bottleneck: %sp99 lateness %.1f ms", heapFull(s.health()), late);
        } else if (cores > cpu * nCores) {
            return String.format(
                    Locale.ROOT, "bottleneck: %sCPU %.2f of %d cores", heapFull(s.health()), cores, nCores);
        } else {
            return "sustained";
        }
    }

    /** The profile, the steps' table and the largest sustained step. */
    private void table(PrintWriter pw, List<String> flags, List<String> rows, CapacityLadder ladder) {
        pw.println();
        pw.println("JVM profile " + JvmProfiles.describe(jvm.profile(), flags) + ", execution " + execution
                + ", TPC-W think time (mean 7 s)");
        pw.println(String.format(
                Locale.ROOT,
                "%7s  %9s %9s %9s %8s %9s  %s",
                "users",
                "req/s",
                "late p99",
                "CPU cores",
                "threads",
                "heap MiB",
                "verdict"));
        rows.forEach(pw::println);
        pw.println(
                "largest sustained: " + (ladder.sustained() == 0 ? "none of the steps" : ladder.sustained() + " users")
                        + " (" + ladder.stopReason() + ")");
    }

    /** A GC that held the client stopped this share of the run, with the heap this full, is the heap's limit. */
    static final double HEAP_FULL_PAUSE_SHARE = 0.2;

    static final double HEAP_FULL_PEAK = 0.85;

    /**
     * "heap full (...); " when the step's bottleneck is its heap: today's JVM rarely reaches the
     * paper's OutOfMemoryError, it spends the run collecting a nearly full heap instead (GC pauses
     * for a fifth of the run or more, the peak heap within 15 % of the maximum); else "".
     */
    static String heapFull(SummaryFile.Health h) {
        if (h.maxHeapBytes() <= 0
                || h.gcPauseShare() < HEAP_FULL_PAUSE_SHARE
                || h.peakHeapBytes() < HEAP_FULL_PEAK * h.maxHeapBytes()) {
            return "";
        }
        return String.format(
                Locale.ROOT,
                "heap full (GC paused %.0f %% of the run, peak heap %d of %d MiB), ",
                100 * h.gcPauseShare(),
                h.peakHeapBytes() >> 20,
                h.maxHeapBytes() >> 20);
    }
}
