package org.rubis.client.engine;

import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.rubis.client.arrival.SessionArrivals;
import org.rubis.client.backend.Backend;
import org.rubis.client.backend.Backends;
import org.rubis.client.backend.ClientTls;
import org.rubis.client.backend.KernelBackend;
import org.rubis.client.config.Arrivals;
import org.rubis.client.config.BackendKind;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.PublishedTimes;
import org.rubis.client.config.ShardPlan;
import org.rubis.client.log.EpochAnchor;
import org.rubis.client.process.StartHandshake;
import org.rubis.client.report.FixedCost;
import org.rubis.client.report.IntervalLoad;
import org.rubis.client.report.Summary;
import org.rubis.client.warmup.JitWarmup;
import org.rubis.client.warmup.WarmupLoad;
import org.rubis.client.warmup.WarmupReport;
import org.rubis.client.workload.RequestGenerator;
import org.rubis.format.run.StopCause.Kind;

/**
 * One emulation run from start to summary, as its phases in order: start the target, warm the JIT up, open the logs,
 * calibrate, await the start, dispatch, drain, finish. Each phase delegates to a collaborator with one job (
 * {@link ShardStart}, {@link RunRecords}, {@link EndOfRun}, {@link RunFinisher}), and {@link RunGuard} makes sure the
 * run always leaves complete, flushed logs and a summary, whether it ends normally, by Ctrl-C, by an error or out of
 * memory.
 */
public final class RunEngine {

    /** The run's configuration; the source addresses may be raised before the run starts (startTarget). */
    private ClientConfig config;

    /** Which part of the workload this process runs, and when; a shard waiting for its start instant gets it later. */
    private ShardPlan shard;

    private final Path dir;
    private final PrintStream out;
    private final RunSeams seams;
    private final StopSignal stop = new StopSignal();
    private final CountDownLatch finished = new CountDownLatch(1);
    private final RunCounters counters = new RunCounters();
    private final List<RunObserver> observers = new ArrayList<>();
    private final RunGuard guard;
    private final ShardStart start;
    private final EndOfRun end;
    private volatile EpochAnchor anchor;

    // What the run opened, phase by phase (one engine, one run); the finisher closes it in reverse order.
    private Target target;
    private RunFinisher finisher;
    private RunRecords records;
    private Backend backend;
    private RunClock clock;
    private Recorder recorder;
    /** Closed arrivals: who is wanted when, and who left when. */
    private Population population;
    /** When the run began on the anchored clock (after the wait for a start instant). */
    private long runStartEpochNs;

    public RunEngine(ClientConfig config, Path dir, PrintStream out) {
        this(config, ShardPlan.SINGLE, dir, out);
    }

    /** A shard of a sharded run, or a run starting at a given instant (docs/SHARDING.md); the JVM's test seams. */
    public RunEngine(ClientConfig config, ShardPlan shard, Path dir, PrintStream out) {
        this(config, shard, dir, out, RunSeams.fromSystemProperties());
    }

    /** A run with the given test seams ({@link RunSeams#NONE}: none). */
    public RunEngine(ClientConfig config, ShardPlan shard, Path dir, PrintStream out, RunSeams seams) {
        this.config = config;
        this.shard = shard;
        this.dir = dir;
        this.out = out;
        this.seams = seams;
        this.guard = new RunGuard(config, dir, stop, counters);
        this.start = new ShardStart(stop, out);
        this.end = new EndOfRun(config, seams.endWaitMs(), dir, stop, counters.active);
    }

    /** Adds a hook around the measurement (packet capture...); call before {@link #run}. */
    public RunEngine observe(RunObserver observer) {
        observers.add(observer);
        return this;
    }

    /**
     * A shard of run --shards N: once everything before t = 0 is done (JIT warm-up, backend, logs, fixed-cost
     * calibration), it says so and waits for the start instant its parent gives every shard (docs/SHARDING.md); the run
     * then starts at that instant, as with a start instant given up front. Call before {@link #run}.
     */
    public RunEngine startWhenReady(StartHandshake shardHandshake) {
        start.handshake(shardHandshake);
        return this;
    }

    /** The run clock's epoch anchor and its uncertainty, once the run has begun (else null). */
    public EpochAnchor anchor() {
        return anchor;
    }

    /**
     * Asks the run to stop (Ctrl-C, SIGTERM); {@link #awaitFinished} waits for logs and summary. During the end-of-run
     * wait the requests in flight are aborted at once, as they are when the stop comes earlier ({@link EndOfRun}).
     */
    public void requestStop(String reason) {
        stop.stop(Kind.INTERRUPTED, reason);
        end.stopRequested(reason);
    }

    public boolean awaitFinished(long timeoutMs) throws InterruptedException {
        return finished.await(timeoutMs, TimeUnit.MILLISECONDS);
    }

    /** Runs to the end; returns the summary (also written to the run directory). */
    public Summary run() throws IOException {
        try {
            return guard.run(this::phases);
        } finally {
            finished.countDown();
        }
    }

    /** The run's phases in order; whatever fails or stops the run once its logs are open, it finishes. */
    private Summary phases() throws IOException {
        SessionArrivals arrivals =
                config.arrivals() == Arrivals.HYBRID ? HybridDispatch.arrivals(config) : null; // bad files fail first
        String arrivalsText = describe(arrivals);
        start.announce(shard);
        KernelTimes kernelTimes = kernelTimes();
        startTarget();
        WarmupReport warmup = warmUp(target.base());
        openLogs();
        try {
            backend = Backends.create(config.execution(), target.base());
            if (kernelTimes != null && backend instanceof KernelBackend k) {
                kernelTimes.backend(k);
            }
            finisher.add("backend", backend);
            calibrate();
            SessionExecutor executor = sessions();
            dispatch(executor, arrivals);
            end.drain(backend, executor, observers);
        } catch (InterruptedException e) {
            stop.stop(Kind.INTERRUPTED, "interrupted");
            Thread.currentThread().interrupt();
        } catch (OutOfMemoryError e) {
            guard.outOfMemory(e);
        } catch (Exception e) {
            stop.stop(Kind.CLIENT_FAILED, "run hook failed: " + e);
        } finally {
            end.giveUpStuckSessions(backend);
            finisher.cleanup();
            records.lastInterval();
        }
        return finish(arrivalsText, warmup);
    }

    private String describe(SessionArrivals arrivals) {
        if (arrivals != null) {
            return arrivals.describe();
        }
        return config.profile() != null
                ? "emulated users following the load profile "
                        + config.profile().source() + " (at most " + config.users() + "), sessions back to back"
                : config.users() + " emulated users, sessions back to back";
    }

    /** The kernel backend's stamps: its section first (a wire check that publishes the wire's comes after). */
    private KernelTimes kernelTimes() {
        if (config.execution().backend() != BackendKind.KERNEL) {
            return null;
        }
        KernelTimes kernelTimes = new KernelTimes(config.measurement().publishedTimes() == PublishedTimes.KERNEL);
        observers.add(0, kernelTimes);
        return kernelTimes;
    }

    /** Checks the host can run the configuration, then starts the embedded server (or takes the URL). */
    private void startTarget() throws IOException {
        config = Target.checkHost(config, out);
        Files.createDirectories(dir);
        target = Target.start(config, dir, out);
        finisher = new RunFinisher(config, dir, stop, counters, seams, guard);
        finisher.add("embedded server", target);
    }

    /**
     * The JIT warm-up (docs/JIT-WARMUP.md): before the health log, the clock and any request of the
     * run, so that neither its time nor its CPU is part of the run; ends before a shard's start instant.
     * Over TLS when the target is HTTPS, with the run's resumption (the client's, and the embedded server's).
     */
    private WarmupReport warmUp(String targetBase) {
        long deadline = ShardStart.warmupDeadlineNano(shard);
        List<WarmupLoad.Factory> loads = new ArrayList<>();
        for (RunObserver o : observers) {
            loads.add(o::warmupLoad);
        }
        JitWarmup warmup = new JitWarmup(
                        config.execution(),
                        config.workload(),
                        config.measurement().jitWarmup(),
                        out)
                .bindAddress(seams.warmupStubAddress())
                .cancelledBy(stop::stopped);
        if (ClientTls.isHttps(targetBase)) {
            warmup.overTls(config.execution().tlsResumption()
                    && (!config.embedded() || config.server().tlsResumption()));
        }
        return warmup.run(loads, deadline);
    }

    private void openLogs() throws IOException {
        records = new RunRecords(config, dir, stop, counters.active, observers, finisher);
        guard.health(records.health);
        records.watchTarget(target, out);
    }

    /**
     * The fixed cost: the client idle (samplers, log writer, backend up; no request) before t = 0, so that the
     * summary prints it apart from the CPU per request. A shard with a handshake then gets its start instant, and the
     * run's clock starts.
     */
    private void calibrate() {
        records.health.fixedCost(FixedCost.measure(
                ShardStart.calibrationWindowNs(shard), deadline -> stop.awaitUntil(deadline, Long.MAX_VALUE)));
        shard = start.awaitStartGiven(shard);
        startClock();
    }

    /** The run's clock: t = 0 now or at the shard's start instant. */
    private void startClock() {
        clock = new RunClock(config, shard.startAt());
        this.anchor = clock.anchor();
        runStartEpochNs = clock.anchorEpochNs();
        records.clockStarted(clock);
        if (config.arrivals() == Arrivals.CLOSED) {
            population = new Population(config, clock, shard);
        }
    }

    /**
     * The executor that runs the sessions, recording into the logs; the run hooks get the clock and see the target up.
     */
    private SessionExecutor sessions() throws Exception {
        recorder = new Recorder(
                clock, records.log, records.stats, new TargetWatch(stop, target.base()), backend.name(), shard);
        SessionContext ctx = new SessionContext(clock, stop, backend, recorder, counters.active, seams);
        SessionExecutor executor = SessionExecutor.of(ctx, config.execution().model(), guard::onUserFailed);
        finisher.add("sessions", executor);
        for (RunObserver o : observers) {
            o.clock(clock);
            o.beforeRun(target.base(), dir);
        }
        return executor;
    }

    /**
     * Waits for the start instant, then hands users or arrivals to their dispatcher and waits for the end of the run.
     */
    private void dispatch(SessionExecutor executor, SessionArrivals arrivals) {
        RequestGenerator generator = new RequestGenerator(config.workload());
        start.awaitStartInstant(shard, clock);
        runStartEpochNs = clock.epochNs(System.nanoTime());
        if (config.progress()) {
            finisher.add("progress", new Progress(out, clock, records.stats, counters.active));
        }
        out.println(banner());
        if (stop.stopped()) {
            return; // Ctrl-C while waiting for the start instant: nothing is sent
        }
        HybridDispatch hybrid = arrivals == null
                ? null
                : new HybridDispatch(config, shard, clock, stop, counters, recorder, generator, arrivals);
        CountDownLatch done = hybrid == null
                ? new ClosedDispatch(config, shard, clock, stop, counters, generator, population).start(executor)
                : hybrid.start(executor);
        end.awaitEnd(clock, records.health, done, hybrid);
    }

    private String banner() {
        return String.format(
                Locale.ROOT,
                "Run: %s arrivals, backend %s (%s), seed %d, %s s up ramp + %s s run + %s s down ramp -> %s",
                config.arrivals().label(),
                backend.name(),
                config.execution().model().label(),
                config.seed(),
                seconds(config.upRampMs()),
                seconds(config.runMs()),
                seconds(config.downRampMs()),
                dir);
    }

    /** Builds and writes the summary; a run stopped before its clock started gets one now (its figures are empty). */
    private Summary finish(String arrivalsText, WarmupReport warmup) throws IOException {
        if (clock == null) {
            startClock();
        }
        long until = stop.stopNano() == 0 ? System.nanoTime() : stop.stopNano();
        List<IntervalLoad> loads = config.profile() == null
                ? List.of()
                : population != null
                        ? population.figures(until)
                        : HybridDispatch.figures(config, shard, clock, records.stats, until);
        return finisher.summary(
                clock,
                loads,
                shard,
                runStartEpochNs,
                records.stats,
                records.health,
                records.log,
                backend == null ? config.execution().backend().label() : backend.name(),
                arrivalsText,
                observers,
                warmup);
    }

    /** Milliseconds as seconds, as given: 1500 is "1.5", 30000 is "30" (the banner once said "1 s" for 1.5 s). */
    static String seconds(long ms) {
        return BigDecimal.valueOf(ms, 3).stripTrailingZeros().toPlainString();
    }
}
