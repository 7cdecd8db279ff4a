package org.rubis.lab.capacity;

import org.rubis.client.report.SummaryFile;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.rubis.client.input.ConfigException;
import org.rubis.client.config.JvmProfiles;
import org.rubis.client.process.ChildJvm;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Finds how many emulated users one client JVM sustains: closed runs with TPC-W think time at
 * increasing N, each in a child JVM with the profile's flags, until the run fails (out of memory,
 * no thread) or the client becomes the bottleneck (send lateness or CPU above the limits).
 */
@Command(name = "capacity", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Largest number of concurrent emulated users the client sustains for a JVM profile and execution model.")
public final class CapacityCommand implements Callable<Integer> {

    @Option(names = "--jvm-profile", defaultValue = "default", description = "JVM profile (default ${DEFAULT-VALUE}).")
    String profile;
    @Option(names = "--jvm-profiles", paramLabel = "FILE", description = "Extra JVM profiles file.")
    Path profiles;
    @Option(names = "--java", paramLabel = "PATH", description = "java executable of the client JVMs.")
    Path java;
    @Option(names = "--execution", defaultValue = "platform", description = "platform (thread per user), virtual (a virtual thread per request, think times on a timer) or netty (event loops).")
    String execution;
    @Option(names = "--users", split = ",", defaultValue = "500,1000,2000,4000,8000", description = "Steps of N (default ${DEFAULT-VALUE}).")
    List<Integer> steps;
    @Option(names = "--ramp-up", defaultValue = "15s", description = "Up ramp of each step (default ${DEFAULT-VALUE}).")
    String rampUp;
    @Option(names = "--duration", defaultValue = "20s", description = "Measured phase of each step (default ${DEFAULT-VALUE}).")
    String duration;
    @Option(names = "--lateness-ms", defaultValue = "5", description = "Bottleneck if the run-phase p99 send lateness exceeds this (default ${DEFAULT-VALUE}).")
    double latenessMs;
    @Option(names = "--cpu", defaultValue = "0.8", description = "Bottleneck if the client uses more than this fraction of the cores (default ${DEFAULT-VALUE}).")
    double cpu;
    @Option(names = "--until-heap", description = "Go on past a lateness or CPU bottleneck, up to a step that fails or whose heap is full "
            + "(the heap's own limit, found even where the host's cores give out first); 'largest sustained' stays the last step before the first "
            + "bottleneck.")
    boolean untilHeap;
    @Option(names = "--out", defaultValue = "runs/capacity", description = "Directory for the runs (default ${DEFAULT-VALUE}).")
    Path out;
    @Spec CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        List<String> flags = JvmProfiles.load(profiles).flags(profile);
        String exe = ChildJvm.java(java);
        List<String> exec = switch (execution) {
            case "platform" -> List.of("--backend", "dedicated", "--threads", "platform");
            case "virtual" -> List.of("--backend", "dedicated", "--threads", "virtual");
            case "netty" -> List.of("--backend", "netty");
            default -> throw new ConfigException("--execution " + execution + ": expected platform, virtual or netty");
        };
        PrintWriter pw = spec.commandLine().getOut();
        List<String> rows = new ArrayList<>();
        CapacityLadder ladder = new CapacityLadder(untilHeap);
        for (int n : steps) {
            Path dir = out.resolve(profile + "-" + execution + "-" + n);
            List<String> args = new ArrayList<>(List.of("--users", String.valueOf(n), "--ramp-up", rampUp, "--duration", duration, "--ramp-down", "0",
                    "-Dworkload_up_ramp_slowdown_factor=1", "--seed", "1", "--no-progress", "-Dserver_java_options=-Xmx2g"));
            args.addAll(exec);
            List<String> cmd = ChildJvm.command(exe, profile, flags, dir, args);
            Files.createDirectories(dir);
            pw.println("N=" + n + ": " + String.join(" ", cmd));
            pw.flush();
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("client.log").toFile()).start();
            p.waitFor();
            SummaryFile s = SummaryFile.read(dir);
            if (s == null) {
                rows.add(String.format(Locale.ROOT, "%7d  %-8s (no summary: see %s)", n, "failed", dir.resolve("client.log")));
                ladder.step(n, "the client JVM died without a summary", true);
                break;
            }
            double late = s.health().runSendLatenessP99Ms();
            double cores = s.health().runCpuCores();
            int nCores = s.health().cores();
            String verdict;
            if (!s.complete()) {
                verdict = "FAILED: " + s.stopReason();
            } else if (late > latenessMs) {
                verdict = String.format(Locale.ROOT, "bottleneck: %sp99 lateness %.1f ms", heapFull(s.health()), late);
            } else if (cores > cpu * nCores) {
                verdict = String.format(Locale.ROOT, "bottleneck: %sCPU %.2f of %d cores", heapFull(s.health()), cores, nCores);
            } else {
                verdict = "sustained";
            }
            rows.add(String.format(Locale.ROOT, "%7d  %9.1f %9.3f %9.2f %8d %9d  %s", n, s.throughputRps(), late, cores,
                    s.health().peakThreads(), s.health().peakHeapBytes() >> 20, verdict));
            if (!ladder.step(n, verdict, !s.complete())) {
                break;
            }
        }
        pw.println();
        pw.println("JVM profile " + JvmProfiles.describe(profile, flags) + ", execution " + execution + ", TPC-W think time (mean 7 s)");
        pw.println(String.format(Locale.ROOT, "%7s  %9s %9s %9s %8s %9s  %s", "users", "req/s", "late p99", "CPU cores", "threads", "heap MiB", "verdict"));
        rows.forEach(pw::println);
        pw.println("largest sustained: " + (ladder.sustained() == 0 ? "none of the steps" : ladder.sustained() + " users") + " (" + ladder.stopReason() + ")");
        pw.flush();
        return 0;
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
        if (h.maxHeapBytes() <= 0 || h.gcPauseShare() < HEAP_FULL_PAUSE_SHARE || h.peakHeapBytes() < HEAP_FULL_PEAK * h.maxHeapBytes()) {
            return "";
        }
        return String.format(Locale.ROOT, "heap full (GC paused %.0f %% of the run, peak heap %d of %d MiB), ", 100 * h.gcPauseShare(),
                h.peakHeapBytes() >> 20, h.maxHeapBytes() >> 20);
    }
}
