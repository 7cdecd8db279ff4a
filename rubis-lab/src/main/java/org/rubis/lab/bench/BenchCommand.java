package org.rubis.lab.bench;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Benchmark commands that print figures (not tests: the machine is shared and noisy). Each measurement is a separate
 * client JVM running {@code run}, so JIT state and CPU accounting are its own; the figures come from that run's
 * summary.json and the server's ground truth. One subcommand per benchmark, each with its own options and defaults.
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = "Benchmarks: each measurement is a client JVM of its own running `run`; the figures come from "
                + "its summary and the server's own log. `rubis-client bench BENCHMARK --help` gives each one's "
                + "options and defaults.",
        subcommands = {
            BackendsBench.class,
            ServerBench.class,
            AccuracyBench.class,
            ScaleBench.class,
            RateBench.class,
            SoakBench.class,
            ReportBench.class
        })
public final class BenchCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    /** {@code bench} alone: which benchmark is missing, in one line. */
    @Override
    public Integer call() {
        String accepted = String.join(", ", spec.subcommands().keySet());
        throw new ParameterException(spec.commandLine(), "missing benchmark, accepted: " + accepted);
    }
}
