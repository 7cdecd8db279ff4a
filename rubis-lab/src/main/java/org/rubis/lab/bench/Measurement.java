package org.rubis.lab.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.rubis.client.cli.Population;
import org.rubis.client.cli.RunPhases;
import org.rubis.client.process.ChildJvm;
import org.rubis.client.process.ClientCommandLine;
import org.rubis.client.report.SummaryFile;

/**
 * One measured run of a benchmark: its client JVM, started and waited for, and its summary read back.
 *
 * @param summary the run's summary.json, or null when the client wrote none
 * @param status  the client's exit status
 */
record Measurement(SummaryFile summary, int status) {

    /** A benchmark's closed runs: its population and phases, no down ramp, the same seed, no progress line. */
    static ClientCommandLine closedRuns(Population population, RunPhases phases) {
        return ClientCommandLine.run()
                .users(population.users())
                .thinkScale(population.thinkScale())
                .rampUp(phases.rampUp())
                .duration(phases.duration())
                .rampDown(Duration.ZERO)
                .seed(1)
                .noProgress();
    }

    /**
     * Says {@code measuring LABEL: run ...}, runs {@code line} to its end with its output in {@code output} (null:
     * discarded) and reads its summary.
     */
    static Measurement of(PrintWriter out, String label, ClientCommandLine line, Path output)
            throws IOException, InterruptedException {
        out.println("measuring " + label + ": " + line);
        out.flush();
        Files.createDirectories(line.out());
        int status = ChildJvm.run(line, output, null);
        return new Measurement(SummaryFile.read(line.out()), status);
    }
}
