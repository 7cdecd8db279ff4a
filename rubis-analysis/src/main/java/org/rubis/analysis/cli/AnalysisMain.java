package org.rubis.analysis.cli;

import java.io.PrintWriter;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.rubis.analysis.RunAnalysis;
import org.rubis.analysis.export.HdrLogExport;
import org.rubis.analysis.export.HttperfExport;
import org.rubis.analysis.io.AnalysisException;
import org.rubis.analysis.io.RunDirectory;
import org.rubis.analysis.merge.RunMerge;
import org.rubis.analysis.report.CompareReport;
import org.rubis.analysis.report.HtmlReport;
import org.rubis.format.cli.OneLineErrors;
import org.rubis.format.cli.WholeWordHelp;
import org.rubis.format.io.FileProblem;
import org.rubis.format.run.RunFiles;
import org.rubis.format.text.Printable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code rubis-analysis.jar}: reports, comparisons and httperf export of run directories. */
@Command(
        name = "rubis-analysis",
        mixinStandardHelpOptions = true,
        version = "rubis-analysis 0.1.0",
        description = "Analyse rubis-client run directories.",
        subcommands = {
            AnalysisMain.Report.class,
            AnalysisMain.Compare.class,
            AnalysisMain.ExportHttperf.class,
            AnalysisMain.Merge.class,
            WireCommand.class
        })
public final class AnalysisMain {

    public static void main(String[] args) {
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = commandLine(out, err);
        if (args.length == 0) {
            // No command is a usage error, as in rubis-client: the usage goes to stderr, the status is the parse
            // errors' one, so that a script calling the jar without a command does not take it for success.
            cl.usage(err);
            err.flush();
            return OneLineErrors.USAGE_ERROR;
        }
        return cl.execute(args);
    }

    /** The program's command line with its error handling and help layout (also what docs/cli/ is generated from). */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        CommandLine cl = OneLineErrors.install(new CommandLine(new AnalysisMain()));
        cl.setHelpFactory(WholeWordHelp::new);
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            boolean user = ex instanceof AnalysisException || ex instanceof FileSystemException;
            if (ex instanceof AnalysisException) {
                err.println("error: " + Printable.escape(ex.getMessage()));
            } else if (ex instanceof FileSystemException f) {
                // A read-only folder, an output that is a directory: the user's to fix, said in one line.
                err.println("error: cannot read or write " + Printable.escape(FileProblem.of(f)));
            } else {
                err.println(
                        "error: unexpected failure (a bug in rubis-analysis; please report it with the trace below): "
                                + Printable.escape(ex.toString()));
                ex.printStackTrace(err);
            }
            err.flush();
            return user ? 1 : 3;
        });
        return cl;
    }

    /**
     * Checks an output file before the analysis: a directory, or a folder this user may not write, is a one-line error
     * naming it, not a stack trace after minutes of reading logs.
     */
    static Path outputFile(Path out, String example) {
        if (Files.isDirectory(out)) {
            throw new AnalysisException(
                    "--out " + out + ": a directory; give a file name, e.g. " + out.resolve(example));
        }
        Path parent = out.toAbsolutePath().getParent();
        if (parent != null && Files.isDirectory(parent) && !Files.isWritable(parent)) {
            throw new AnalysisException("cannot write " + out + ": permission denied (" + parent
                    + " is not writable); give --out FILE.html " + "in a folder this user may write");
        }
        return out;
    }

    @Command(
            name = "report",
            mixinStandardHelpOptions = true,
            description =
                    "Write a self-contained HTML report of a run (default RUN_DIR/report.html) and analysis.json beside it.")
    static final class Report implements Callable<Integer> {
        @Parameters(
                paramLabel = "RUN_DIR",
                description =
                        "A run directory written by rubis-client run (requests.csv, sessions.csv, summary.json, ...).")
        Path dir;

        @Option(
                names = "--out",
                paramLabel = "FILE.html",
                description =
                        "Where to write the report (default: RUN_DIR/report.html); analysis.json and response-times.hlog go beside it.")
        Path out;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            Path target = outputFile(out != null ? out : dir.resolve(RunFiles.REPORT_HTML), RunFiles.REPORT_HTML);
            RunDirectory run = new RunDirectory(dir);
            Path hlog = target.toAbsolutePath().resolveSibling(RunFiles.RESPONSE_TIMES_HLOG);
            Files.createDirectories(hlog.getParent()); // as the report's writer does, before the log is opened
            RunAnalysis a;
            try (HdrLogExport.Pass log = new HdrLogExport(run).open(hlog)) {
                a = RunAnalysis.of(run, log); // one pass over requests.csv for both
            }
            new HtmlReport(a).write(target);
            PrintWriter pw = spec.commandLine().getOut();
            a.notes().forEach(n -> pw.println("note: " + Printable.escape(n)));
            pw.println("report: " + target + " (" + a.requests()
                    + " requests; analysis.json beside it; HdrHistogram log " + hlog + ")");
            return 0;
        }
    }

    @Command(
            name = "compare",
            mixinStandardHelpOptions = true,
            description =
                    "Compare runs side by side (median, mean, p95 and their ratios to the first run; overlaid plots).")
    static final class Compare implements Callable<Integer> {
        @Parameters(
                paramLabel = "RUN_DIR",
                arity = "2..*",
                description = "Two or more run directories; the first is the baseline of the ratios.")
        List<Path> dirs;

        @Option(
                names = "--out",
                paramLabel = "FILE.html",
                defaultValue = "comparison.html",
                description = "Where to write the comparison (comparison.json beside it). Default: ${DEFAULT-VALUE}.")
        Path out;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            outputFile(out, "comparison.html");
            List<RunAnalysis> runs = new ArrayList<>();
            PrintWriter pw = spec.commandLine().getOut();
            for (Path d : dirs) {
                RunAnalysis a = RunAnalysis.of(new RunDirectory(d));
                if (a.ending().partial()) {
                    pw.println("note: "
                            + Printable.escape(a.name() + ": " + a.ending().label() + " ("
                                    + a.ending().stopReason() + ")"));
                }
                runs.add(a);
            }
            new CompareReport(runs).write(out);
            spec.commandLine()
                    .getOut()
                    .println("comparison: " + out + " (" + runs.size() + " runs; comparison.json beside it)");
            return 0;
        }
    }

    @Command(
            name = "export-httperf",
            mixinStandardHelpOptions = true,
            description =
                    "Export the executed sessions as an httperf --wsesslog file plus the session inter-arrival sequence.")
    static final class ExportHttperf implements Callable<Integer> {
        @Parameters(paramLabel = "RUN_DIR", description = "The run directory whose sessions are exported.")
        Path dir;

        @Option(
                names = "--out",
                paramLabel = "DIR",
                required = true,
                description =
                        "Directory to write sessions.wsesslog, interarrivals.txt and README.txt (with the httperf command) into (created if missing; required).")
        Path out;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            RunDirectory run = new RunDirectory(dir);
            if (run.summaryProblem() != null) {
                spec.commandLine().getOut().println("note: " + Printable.escape(run.summaryProblem()));
            }
            int n = new HttperfExport(run).write(out);
            spec.commandLine()
                    .getOut()
                    .println("exported " + n + " sessions to " + out.resolve("sessions.wsesslog") + "; see "
                            + out.resolve("README.txt"));
            return 0;
        }
    }

    @Command(
            name = "merge",
            mixinStandardHelpOptions = true,
            description =
                    "Merge the run directories of the shards of one run (run --shard I/N) into one run directory: logs in time order, "
                            + "summary recomputed from them, each shard's clock anchor recorded. See docs/SHARDING.md.")
    static final class Merge implements Callable<Integer> {
        @Parameters(
                paramLabel = "SHARD_DIR",
                arity = "1..*",
                description = "The run directories of the shards (one per run --shard I/N), in any order.")
        List<Path> dirs;

        @Option(
                names = "--out",
                paramLabel = "DIR",
                required = true,
                description = "New directory for the merged run (required).")
        Path out;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            RunMerge.Result r = RunMerge.merge(dirs, out);
            PrintWriter pw = spec.commandLine().getOut();
            r.warnings().forEach(w -> pw.println("warning: " + Printable.escape(w)));
            pw.println("merged " + dirs.size() + " shards into " + out + " ("
                    + r.summary().path("requests").asLong() + " requests, status "
                    + r.status().label() + "); next: rubis-analysis report " + out);
            return 0;
        }
    }
}
