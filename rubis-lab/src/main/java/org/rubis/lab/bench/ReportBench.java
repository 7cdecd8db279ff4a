package org.rubis.lab.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.rubis.client.process.ChildJvm;
import org.rubis.lab.Runs;
import org.rubis.lab.host.HostProgram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bench report}: how long {@code rubis-analysis report} takes on a long run, in a heap a small machine gives
 * it. The run directory is generated ({@link SyntheticRunDirectory}: the client's own log writer), then each
 * repetition is a JVM of its own with {@code -Xmx512m}, so JIT and heap start cold as for a user, and its GC log gives
 * the heap it used.
 */
@Command(
        name = "report",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        showDefaultValues = true,
        description = "Generates a run directory of N requests with the client's log writer, then times "
                + "`rubis-analysis report` on it, each repetition a JVM of its own with -Xmx512m; prints the "
                + "generation time, each report's time, requests/s and the heap in use at the largest collection.")
final class ReportBench implements Callable<Integer> {

    /** The heap of each report's JVM. */
    static final String HEAP = "-Xmx512m";

    /** A collection in the unified GC log: {@code Pause Young (Normal) (G1 Evacuation Pause) 25M->3M(512M)}. */
    private static final Pattern GC_LINE = Pattern.compile("(\\d+)M->(\\d+)M\\(\\d+M\\)");

    @Option(
            names = "--requests",
            paramLabel = "N",
            defaultValue = "10000000",
            description = "Requests in the generated run directory.")
    long requests;

    @Option(names = "--repetitions", paramLabel = "N", defaultValue = "3", description = "Reports timed, one JVM each.")
    int repetitions;

    @Mixin
    ChildRunLogs logs = new ChildRunLogs();

    @Mixin
    Runs runs = new Runs(System.getProperty("java.io.tmpdir") + "/rubis-bench-report");

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter pw = spec.commandLine().getOut();
        Path dir = runs.dir().resolve("run-" + requests);
        pw.println("generating " + requests + " requests in " + dir);
        pw.flush();
        long t0 = System.nanoTime();
        SyntheticRunDirectory.write(dir, requests);
        double generation = (System.nanoTime() - t0) / 1e9;
        pw.println(String.format(
                Locale.ROOT,
                "generated in %.1f s (requests.csv %d MB)",
                generation,
                Files.size(dir.resolve("requests.csv")) >> 20));
        List<String> rows = new ArrayList<>();
        int failed = 0;
        for (int i = 1; i <= repetitions; i++) {
            pw.println("report " + i + " of " + repetitions + ": rubis-analysis report " + dir + " (" + HEAP + ")");
            pw.flush();
            Path gcLog = dir.resolve("report-gc-" + i + ".log");
            long start = System.nanoTime();
            int status = report(dir, gcLog);
            double seconds = (System.nanoTime() - start) / 1e9;
            failed += status == 0 ? 0 : 1;
            rows.add(String.format(
                    Locale.ROOT,
                    "%-4d %10.1f %14.0f %14s  %s",
                    i,
                    seconds,
                    requests / seconds,
                    peakHeapMb(gcLog),
                    status == 0 ? "ok" : "failed (exit " + status + ")"));
        }
        pw.println();
        pw.println(String.format(
                Locale.ROOT, "%-4s %10s %14s %14s  %s", "rep", "report s", "requests/s", "peak heap MB", "status"));
        rows.forEach(pw::println);
        pw.flush();
        logs.tidy(dir);
        return failed == 0 ? 0 : 1;
    }

    /** Runs the report in a JVM of its own (this JVM's Java and class path), its output beside the run. */
    private static int report(Path dir, Path gcLog) throws IOException, InterruptedException {
        List<String> cmd = List.of(
                ChildJvm.java(null),
                HEAP,
                ChildJvm.gcLog(gcLog),
                "-cp",
                System.getProperty("java.class.path"),
                "org.rubis.analysis.cli.AnalysisMain",
                "report",
                dir.toString());
        return HostProgram.start(cmd, dir.resolve("report-output.txt")).waitFor();
    }

    /** The most heap in use when a collection began, from the report JVM's GC log ("-" without a collection). */
    static String peakHeapMb(Path gcLog) throws IOException {
        if (!Files.isRegularFile(gcLog)) {
            return "-";
        }
        long peak = -1;
        for (String line : Files.readAllLines(gcLog)) {
            Matcher m = GC_LINE.matcher(line);
            if (m.find()) {
                peak = Math.max(peak, Long.parseLong(m.group(1)));
            }
        }
        return peak < 0 ? "-" : Long.toString(peak);
    }
}
