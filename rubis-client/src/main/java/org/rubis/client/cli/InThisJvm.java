package org.rubis.client.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.rubis.client.assertion.Assertion;
import org.rubis.client.backend.KernelBackend;
import org.rubis.client.config.Arrivals;
import org.rubis.client.config.BackendKind;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ShardPlan;
import org.rubis.client.engine.RunEngine;
import org.rubis.client.engine.RunOutOfMemory;
import org.rubis.client.heap.HeapPerUser;
import org.rubis.client.input.ConfigException;
import org.rubis.client.live.LiveRun;
import org.rubis.client.preflight.PreflightReport;
import org.rubis.client.process.StartHandshake;
import org.rubis.client.report.ExitStatus;
import org.rubis.client.report.JvmFacts;
import org.rubis.client.report.Summary;
import org.rubis.format.run.RunFiles;
import org.rubis.format.run.RunStatus;
import org.rubis.format.text.Printable;

/**
 * A run in this JVM, by the engine: the target's preflight first when asked, the live view, Ctrl-C (any signal) stopping
 * the run cleanly with logs and summary written, the summary printed and the run's assertions checked on it.
 *
 * @param preflight      check the target against the configuration before any load ({@code --preflight})
 * @param heapPerUser    class histograms of the users' heap ({@code --heap-per-user})
 * @param startWhenReady a shard of {@code run --shards}: start at the instant its parent gives once all are ready
 * @param readyTimeout   with {@code --start-at ready}: how long the shards wait for each other
 * @param metricsGiven   how the live view's port was given, for an error about it
 * @param directory      makes the run's directory, once the checks before it passed
 * @param stopWords      the words of a stop by the shutdown hook (a signal's, or the parent's death)
 */
record InThisJvm(
        boolean preflight,
        boolean heapPerUser,
        boolean startWhenReady,
        Duration readyTimeout,
        String metricsGiven,
        Supplier<Path> directory,
        Supplier<String> stopWords) {

    /** The run; the exit status is the run status's, or that of its assertions. */
    int run(ClientConfig c, ShardPlan plan, List<Assertion> asserted) throws Exception {
        PrintStream stdout = System.out;
        if (preflight) {
            if (c.embedded()) {
                throw new ConfigException("--preflight: checks a target of your own (--target URL); the embedded"
                        + " server is populated from the configuration and fits it");
            }
            PreflightReport report = TargetPreflight.of(c).checkPages();
            PrintWriter w = new PrintWriter(stdout, true, Charset.defaultCharset());
            report.print(w);
            if (!report.problems().isEmpty()) {
                System.err.println("rubis-client: the target does not fit the configuration ("
                        + report.problems().size() + " problems above); nothing was sent to it beyond the checks");
                return ExitStatus.TARGET_DOES_NOT_FIT;
            }
        }
        // The JVM's warnings too: up front on stderr, and again in the summary's Warnings section (and summary.json).
        JvmFacts.warnings(c.users(), c.arrivals() == Arrivals.CLOSED).forEach(w -> System.err.println("warning: " + w));
        if (heapPerUser && (c.arrivals() != Arrivals.CLOSED || c.users() <= 0)) {
            throw new ConfigException("--heap-per-user: closed runs only (--users N), the population it divides by");
        }
        if (c.execution().backend() == BackendKind.KERNEL) {
            String why = KernelBackend.kernelRefusal(); // before anything starts: never a run on user-space times
            if (why != null) {
                throw new ConfigException(why);
            }
        }
        LiveView live = LiveView.start(c.measurement().metrics(), metricsGiven, stdout); // before anything starts
        try {
            return run(c, plan, asserted, stdout, live);
        } finally {
            if (live != null) {
                live.close();
            }
        }
    }

    private int run(ClientConfig c, ShardPlan plan, List<Assertion> asserted, PrintStream stdout, LiveView live)
            throws Exception {
        Path dir = directory.get();
        RunEngine engine = new RunEngine(c, plan, dir, stdout);
        if (startWhenReady) {
            engine.startWhenReady(new StartHandshake(dir));
        } else if (plan.shard() && plan.startAt() == null) { // --start-at ready: the shards among themselves
            engine.startWhenReady(StartHandshake.amongPeers(dir, plan.index(), plan.count(), readyTimeout));
        }
        LiveRun liveRun = live == null ? null : live.watch(engine, c, dir, plan);
        MeasurementObservers.register(engine, c, stdout, liveRun);
        if (heapPerUser) {
            engine.observe(new HeapPerUser(c.users()));
        }
        Thread hook = new Thread(
                () -> {
                    engine.requestStop(stopWords.get());
                    try {
                        engine.awaitFinished(60_000);
                    } catch (InterruptedException ignored) {
                        // exiting anyway
                    }
                },
                "rubis-client-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        Summary s;
        try {
            s = engine.run();
        } catch (RunOutOfMemory e) {
            System.err.println("error: the run did not complete: " + e.getMessage());
            return ExitStatus.NOT_A_MEASUREMENT; // the summary says invalid
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running: it waits for us
        }
        stdout.println();
        stdout.print(s.text());
        stdout.println();
        stdout.println("Logs: " + RunFiles.requests(dir) + ", " + RunFiles.sessions(dir) + "; summary: "
                + RunFiles.summaryJson(dir));
        if (s.status() != RunStatus.COMPLETE) {
            System.err.println("error: the run did not complete: " + Printable.escape(s.stopReason()));
        }
        if (live != null) {
            live.finished(s.status(), dir);
        }
        // A shard's figures are a part of the run: the merged run is asserted (run --shards), not each shard.
        return plan.shard()
                ? s.status().exitCode()
                : RunAssertions.check(asserted, dir, s.status().exitCode());
    }
}
