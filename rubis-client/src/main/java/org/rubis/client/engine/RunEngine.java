package org.rubis.client.engine;

import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.rubis.client.arrival.SessionArrivals;
import org.rubis.client.backend.Backend;
import org.rubis.client.backend.Backends;
import org.rubis.client.backend.ClientTls;
import org.rubis.client.backend.SourceAddresses;
import org.rubis.client.config.Arrivals;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ExecutionModel;
import org.rubis.client.config.ShardPlan;
import org.rubis.client.log.EpochAnchor;
import org.rubis.client.log.RecordTap;
import org.rubis.client.log.RequestRecord;
import org.rubis.client.log.RunLog;
import org.rubis.client.log.SessionRecord;
import org.rubis.client.process.ResourcePlan;
import org.rubis.client.process.StartHandshake;
import org.rubis.client.report.ClientHealth;
import org.rubis.client.report.FixedCost;
import org.rubis.client.report.HealthSample;
import org.rubis.client.report.IntervalLoad;
import org.rubis.client.report.IntervalSnapshots;
import org.rubis.client.report.RunStats;
import org.rubis.client.report.Summary;
import org.rubis.client.report.SummaryWriter;
import org.rubis.client.warmup.JitWarmup;
import org.rubis.client.warmup.WarmupLoad;
import org.rubis.client.warmup.WarmupReport;
import org.rubis.client.workload.RequestGenerator;
import org.rubis.format.Phase;
import org.rubis.format.StopCause.Kind;

/**
 * One emulation run from start to summary: starts the target, hands users or arrivals to their
 * dispatcher, waits for the end, and always leaves complete, flushed logs and a summary
 * ({@link RunFinisher}), whether the run ends normally, by Ctrl-C, by an error or out of memory.
 */
public final class RunEngine {

    /** Closed mode: session ids are emulated user * this + session number of that user. */
    public static final long SESSIONS_PER_USER = ClosedDispatch.SESSIONS_PER_USER;

    /** The run's configuration; the source addresses may be raised before the run starts (runGuarded). */
    private ClientConfig config;

    /** Which part of the workload this process runs, and when; a shard waiting for its start instant gets it later. */
    private ShardPlan shard;
    /** A shard of run --shards N: says it is ready and waits for its start instant before the clock starts (or null). */
    private StartHandshake handshake;

    private final Path dir;
    private final PrintStream out;
    private final StopSignal stop = new StopSignal();
    private final CountDownLatch finished = new CountDownLatch(1);
    private final RunCounters counters = new RunCounters();
    private final List<RunObserver> observers = new ArrayList<>();
    private Summary summary;
    /** The run's health monitor once started: an out-of-memory stop's minimal summary takes its GC totals. */
    private volatile ClientHealth health;

    private InetAddress warmupStubAddress = InetAddress.getLoopbackAddress();
    private volatile EpochAnchor anchor;
    /** How long the run waits for requests in flight after the stop; -1: request + connect timeout + 2 s. */
    private long endWaitMs = -1;
    /** Guards {@link #interrupt} and {@link #draining}: a stop request and the end-of-run wait meet here. */
    private final Object drainLock = new Object();
    /** The words of a stop request (Ctrl-C, SIGTERM), once one came. */
    private String interrupt;
    /** The backend whose requests the end-of-run wait is waiting for, while it waits (else null). */
    private Backend draining;

    public RunEngine(ClientConfig config, Path dir, PrintStream out) {
        this(config, ShardPlan.SINGLE, dir, out);
    }

    /** A shard of a sharded run, or a run starting at a given instant (docs/SHARDING.md). */
    public RunEngine(ClientConfig config, ShardPlan shard, Path dir, PrintStream out) {
        this.config = config;
        this.shard = shard;
        this.dir = dir;
        this.out = out;
    }

    /** Tests: a shorter end-of-run wait than the timeouts imply, to see what happens to the sessions it gives up on. */
    RunEngine endWaitMs(long ms) {
        this.endWaitMs = ms;
        return this;
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
        this.handshake = shardHandshake;
        return this;
    }

    /** Tests: where the JIT warm-up's stub listens (an address that cannot be bound makes the warm-up fail). */
    RunEngine warmupStubAddress(InetAddress address) {
        this.warmupStubAddress = address;
        return this;
    }

    /** The run clock's epoch anchor and its uncertainty, once the run has begun (else null). */
    public EpochAnchor anchor() {
        return anchor;
    }

    /**
     * Asks the run to stop (Ctrl-C, SIGTERM); {@link #awaitFinished} waits for logs and summary. During the end-of-run
     * wait the requests in flight are aborted at once, as they are when the stop comes earlier: the wait would
     * otherwise last their timeouts (100 s of them outlasted the shutdown hook, and nothing was written).
     */
    public void requestStop(String reason) {
        stop.stop(Kind.INTERRUPTED, reason);
        synchronized (drainLock) {
            interrupt = reason;
            if (draining != null) {
                cutEndOfRunWait();
            }
        }
    }

    /**
     * A stop request during the end-of-run wait: requests still in flight are aborted, so the run did not end as
     * planned when sessions were still in a request (its status is then {@code partial}).
     */
    private void cutEndOfRunWait() {
        long inRequest = counters.active.now();
        if (inRequest > 0) {
            stop.interruptEnd(interrupt + " during the end-of-run wait: the requests in flight of " + inRequest
                    + " sessions were aborted");
        }
        draining.abortInFlight();
    }

    public boolean awaitFinished(long timeoutMs) throws InterruptedException {
        return finished.await(timeoutMs, TimeUnit.MILLISECONDS);
    }

    public Summary summary() {
        return summary;
    }

    /** Runs to the end; returns the summary (also written to the run directory). */
    public Summary run() throws IOException {
        try {
            return runInternal();
        } finally {
            finished.countDown();
        }
    }

    static boolean outOfMemory(Throwable e) {
        return HeapReserve.outOfMemory(e);
    }

    private void onFatal(Thread t, Throwable e) {
        HeapReserve.release();
        try {
            if (outOfMemory(e)) {
                stop.stopOutOfMemory(
                        "thread ", t.getName(), counters.active.now(), counters.usersStarted, e.getMessage());
            } else {
                stop.stop(Kind.CLIENT_FAILED, "thread " + t.getName() + " failed: " + e);
            }
        } catch (OutOfMemoryError | BootstrapMethodError again) { // a call site left unlinked by the exhausted heap
            stop.stopOutOfMemory();
        }
    }

    /** A user (closed) or session (hybrid) that failed with an exception. */
    private void onUserFailed(String who, Throwable e) {
        if (outOfMemory(e)) {
            HeapReserve.release();
            stop.stopOutOfMemory("", who, counters.active.now(), counters.usersStarted, e.getMessage());
        } else {
            stop.stop(Kind.CLIENT_FAILED, who + " failed: " + e);
        }
    }

    private Summary runInternal() throws IOException {
        HeapReserve.hold();
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler(this::onFatal);
        try {
            return runGuarded();
        } catch (OutOfMemoryError e) {
            HeapReserve.release();
            stop.stopOutOfMemory();
            SummaryWriter.writeMinimal(
                    dir,
                    new StringBuilder(stop.reason())
                            .append("; the full summary could not be built (out of memory)")
                            .toString(), // no invokedynamic to link now (StopSignal.outOfMemory)
                    config.seed(),
                    config.execution().backend().label(),
                    counters.usersStarted,
                    -1,
                    -1,
                    health);
            throw new RunOutOfMemory(dir);
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(previous);
            HeapReserve.release();
        }
    }

    private boolean loopbackTarget() {
        if (config.embedded()) {
            return true;
        }
        try {
            return InetAddress.getByName(URI.create(config.target()).getHost()).isLoopbackAddress();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** What one run opened, phase by phase; the finisher closes it in reverse order. */
    private static final class RunState {
        Target target;
        RunFinisher finisher;
        RunStats stats;
        IntervalSnapshots intervals;
        RunLog log;
        ClientHealth health;
        Backend backend;
        RunClock clock;
        Recorder recorder;
        /** Closed arrivals: who is wanted when, and who left when. */
        Population population;
        /** When the run began on the anchored clock (after the wait for a start instant). */
        long runStartEpochNs;
    }

    /**
     * The run's phases: start the target (and warm the JIT up against a stub), open the logs, calibrate the idle
     * client's fixed cost (a shard of run --shards N then says it is ready and waits for its start instant) and start
     * the clock, dispatch the sessions until the end, drain those in flight, finish
     * (close everything, write the summary). Whatever fails or stops the run, it finishes.
     */
    private Summary runGuarded() throws IOException {
        SessionArrivals arrivals =
                config.arrivals() == Arrivals.HYBRID ? HybridDispatch.arrivals(config) : null; // bad files fail first
        String arrivalsText = arrivals != null
                ? arrivals.describe()
                : config.profile() != null
                        ? "emulated users following the load profile "
                                + config.profile().source() + " (at most " + config.users() + "), sessions back to back"
                        : config.users() + " emulated users, sessions back to back";
        if (handshake != null) {
            out.println("Shard " + shard.index() + " of " + shard.count() + ": getting ready (JIT warm-up, backend, "
                    + "logs, calibration), then waiting for the start instant of all shards");
        }
        RunState run = startTarget();
        WarmupReport warmup = warmUp(run.target.base());
        openLogs(run);
        try {
            run.backend = Backends.create(config.execution(), run.target.base());
            run.finisher.add("backend", run.backend);
            calibrate(run);
            SessionExecutor executor = sessions(run);
            dispatch(run, executor, arrivals);
            drain(run, executor);
        } catch (InterruptedException e) {
            stop.stop(Kind.INTERRUPTED, "interrupted");
            Thread.currentThread().interrupt();
        } catch (OutOfMemoryError e) {
            HeapReserve.release();
            stop.stop(Kind.OUT_OF_MEMORY, "out of memory: " + e.getMessage());
        } catch (Exception e) {
            stop.stop(Kind.CLIENT_FAILED, "run hook failed: " + e);
        } finally {
            giveUpStuckSessions(run.backend);
            run.finisher.cleanup();
            run.intervals.roll(null, counters.active.begun()); // the last interval, once every record is in
        }
        return finish(run, arrivalsText, warmup);
    }

    /** Checks the host can run the configuration, then starts the embedded server (or takes the URL). */
    private RunState startTarget() throws IOException {
        ResourcePlan plan = ResourcePlan.of(config);
        int sources = plan.check(
                config.embedded(),
                config.execution().sourceAddresses(),
                loopbackTarget(),
                config.execution().backend());
        if (sources != config.execution().sourceAddresses()) {
            out.println("Source addresses: 127.0.0.1.." + SourceAddresses.last(sources) + " (" + sources + "): "
                    + plan.portRule());
            config = config.withSourceAddresses(sources);
        }
        Files.createDirectories(dir);
        RunState run = new RunState();
        run.target = Target.start(config, dir, out);
        run.finisher = new RunFinisher(config, dir, stop, counters);
        run.finisher.add("embedded server", run.target);
        return run;
    }

    /**
     * The request and session logs, the statistics and interval snapshots they feed (and the observers' taps), and
     * the client's health monitor, whose seconds end the intervals.
     */
    private void openLogs(RunState run) throws IOException {
        run.stats = new RunStats();
        run.intervals = new IntervalSnapshots();
        List<RecordTap> taps = new ArrayList<>();
        for (RunObserver o : observers) {
            o.intervals(run.intervals);
            RecordTap tap = o.recordTap();
            if (tap != null) {
                taps.add(tap);
            }
        }
        RunStats stats = run.stats;
        IntervalSnapshots intervals = run.intervals;
        // An array, not the list: the log writer calls these once per record, and a list's loop makes an iterator each
        // time (an array's makes none, and costs nothing when empty).
        RecordTap[] tapArray = taps.toArray(RecordTap[]::new);
        Consumer<RequestRecord> requests = r -> {
            stats.accept(r);
            intervals.request(r);
            for (RecordTap t : tapArray) {
                t.request(r);
            }
        };
        Consumer<SessionRecord> sessions = s -> {
            stats.accept(s);
            for (RecordTap t : tapArray) {
                t.session(s);
            }
        };
        run.log = new RunLog(
                dir,
                requests,
                sessions,
                config.execution().model() == ExecutionModel.PLATFORM_THREADS
                        ? RunLog.Producers.MANY
                        : RunLog.Producers.FEW);
        run.log.onWriteFailure(words -> stop.stop(Kind.DISK_FULL, diskFull(words)));
        run.finisher.add("request log", run.log);
        run.health = new ClientHealth(dir, counters.active::now, run.stats::liveRequests);
        this.health = run.health;
        run.health.listen(sample -> healthSample(intervals, sample));
        run.finisher.add("client health", run.health);
        if (run.target.serverPid() > 0) {
            run.health.watchServer(run.target.serverPid());
        }
    }

    /** A failed log write in words: most often the disk is full (or the user's quota is used up). */
    private static String diskFull(String failedWrite) {
        boolean full = failedWrite.contains("No space left") || failedWrite.contains("quota");
        return (full ? "disk full: " : "a log write failed: ") + failedWrite;
    }

    /** Each second of the health sampler ends an interval; the observers see it after. */
    private void healthSample(IntervalSnapshots intervals, HealthSample sample) {
        intervals.roll(sample, counters.active.begun());
        for (RunObserver o : observers) {
            o.healthSample(sample);
        }
    }

    /**
     * The fixed cost: the client idle (samplers, log writer, backend up; no request) before t = 0, so that the
     * summary prints it apart from the CPU per request. The run's clock starts after it.
     */
    private void calibrate(RunState run) {
        run.health.fixedCost(
                FixedCost.measure(calibrationWindowNs(), deadline -> stop.awaitUntil(deadline, Long.MAX_VALUE)));
        if (handshake != null) {
            awaitStartGiven();
        }
        startClock(run);
    }

    /**
     * A shard of run --shards N, ready: says so, then waits for the start instant (looking for it every few
     * milliseconds, before the clock exists, so nothing of the wait touches the run). A stop while waiting leaves the
     * shard without one: its run then sends nothing.
     */
    private void awaitStartGiven() {
        if (stop.stopped()) {
            return;
        }
        try {
            handshake.ready(Instant.now());
            out.println("Ready; waiting for the start instant");
            Instant start = handshake.startInstant();
            while (start == null && !stop.stopped()) {
                stop.awaitUntil(System.nanoTime() + StartHandshake.POLL_NS, Long.MAX_VALUE);
                start = handshake.startInstant();
            }
            if (start == null) {
                start = handshake.startInstant(); // given before the stop came: the shards still share it
            }
            if (start != null) {
                shard = shard.startingAt(start);
            }
        } catch (IOException e) {
            stop.stop(Kind.CLIENT_FAILED, "the start handshake with the parent process failed: " + e.getMessage());
        } finally {
            try {
                handshake.done();
            } catch (IOException e) {
                out.println("warning: the start handshake's files were not removed: " + e.getMessage());
            }
        }
    }

    /**
     * The run's clock: t = 0 now or at the shard's start instant; the statistics count the run phase's windows from it.
     */
    private void startClock(RunState run) {
        run.clock = new RunClock(config, shard.startAt());
        this.anchor = run.clock.anchor();
        run.runStartEpochNs = run.clock.anchorEpochNs();
        run.stats.runPhase(run.clock.epochNs(run.clock.upEndNano()), run.clock.runSeconds());
        long[] bounds = new long[run.clock.intervals() + 1];
        for (int i = 0; i < run.clock.intervals(); i++) {
            bounds[i] = run.clock.epochNs(run.clock.intervalStartNano(i));
        }
        bounds[bounds.length - 1] = run.clock.epochNs(run.clock.runEndNano());
        run.stats.intervals(bounds);
        if (config.arrivals() == Arrivals.CLOSED) {
            run.population = new Population(config, run.clock, shard);
        }
        RunClock c = run.clock;
        run.intervals.clock(
                c.startEpochNs(), c.epochNs(c.upEndNano()), c.epochNs(c.runEndNano()), c.epochNs(c.endNano()));
    }

    /**
     * The executor that runs the sessions, recording into the logs; the run hooks get the clock and see the target up.
     */
    private SessionExecutor sessions(RunState run) throws Exception {
        run.recorder = new Recorder(
                run.clock, run.log, run.stats, new TargetWatch(stop, run.target.base()), run.backend.name());
        SessionContext ctx = new SessionContext(run.clock, stop, run.backend, run.recorder, counters.active);
        SessionExecutor executor = SessionExecutor.of(ctx, config.execution().model(), this::onUserFailed);
        run.finisher.add("sessions", executor);
        for (RunObserver o : observers) {
            o.clock(run.clock);
            o.beforeRun(run.target.base(), dir);
        }
        return executor;
    }

    /**
     * Waits for the start instant, then hands users or arrivals to their dispatcher and waits for the end of the run.
     */
    private void dispatch(RunState run, SessionExecutor executor, SessionArrivals arrivals) {
        RunClock clock = run.clock;
        RequestGenerator generator = new RequestGenerator(config.workload());
        if (shard.startAt() != null) {
            awaitStartInstant(clock);
        }
        run.runStartEpochNs = clock.epochNs(System.nanoTime());
        if (config.progress()) {
            run.finisher.add("progress", new Progress(out, clock, run.intervals, run.stats, counters.active));
        }
        out.println(String.format(
                Locale.ROOT,
                "Run: %s arrivals, backend %s (%s), seed %d, %s s up ramp + %s s run + %s s down ramp -> %s",
                config.arrivals().label(),
                run.backend.name(),
                config.execution().model().label(),
                config.seed(),
                seconds(config.upRampMs()),
                seconds(config.runMs()),
                seconds(config.downRampMs()),
                dir));
        if (stop.stopped()) {
            return; // Ctrl-C while waiting for the start instant: nothing is sent
        }
        HybridDispatch hybrid = arrivals == null
                ? null
                : new HybridDispatch(config, shard, clock, stop, counters, run.recorder, generator, arrivals);
        CountDownLatch done = hybrid == null
                ? new ClosedDispatch(config, shard, clock, stop, counters, generator, run.population).start(executor)
                : hybrid.start(executor);
        awaitEnd(clock, run.health, done, hybrid);
    }

    /** A shard waits for the common start instant; one ready only after its run's end measured nothing. */
    private void awaitStartInstant(RunClock clock) {
        out.println(String.format(
                Locale.ROOT,
                "waiting until %s (%.1f s)",
                shard.startAt(),
                (clock.startNano() - System.nanoTime()) / 1e9));
        stop.awaitUntil(clock.startNano(), Long.MAX_VALUE);
        long now = System.nanoTime();
        if (!stop.stopped() && now >= clock.endNano()) {
            stop.stop(
                    Kind.LATE_START,
                    String.format(
                            Locale.ROOT,
                            "this process was ready %.1f s after the start instant %s, after the end of "
                                    + "the run: nothing was measured; give a start instant further ahead",
                            (now - clock.startNano()) / 1e9,
                            shard.startAt()));
        }
    }

    /**
     * The end: requests in flight finish within the end-of-run wait (hung ones end at once, logged as aborted, when the
     * run was stopped early or a stop request comes during the wait); sessions still in a request then are given up
     * on; the run hooks see the end.
     */
    private void drain(RunState run, SessionExecutor executor) throws Exception {
        boolean early = stop.stopped(); // Ctrl-C or a fatal error before the end of the run
        stop.end();
        if (early) {
            run.backend.abortInFlight();
        }
        synchronized (drainLock) {
            draining = run.backend;
            if (interrupt != null && !early) { // came between the end and now
                cutEndOfRunWait();
            }
        }
        try {
            awaitSessions(run, executor);
        } finally {
            synchronized (drainLock) {
                draining = null;
            }
        }
        for (RunObserver o : observers) {
            o.afterRun(dir);
        }
    }

    /** The end-of-run wait: sessions still in a request after it are given up on. */
    private void awaitSessions(RunState run, SessionExecutor executor) throws InterruptedException {
        long graceNs = TimeUnit.MILLISECONDS.toNanos(
                endWaitMs >= 0
                        ? endWaitMs
                        : config.execution().requestTimeoutMs()
                                + config.execution().connectTimeoutMs()
                                + 2000L);
        // Sessions that outlast a share of the wait get their threads dumped into the run directory (EndOfRunWatch).
        EndOfRunWatch watch = new EndOfRunWatch(dir, counters.active::now, graceNs, System.err);
        observers.add(watch);
        try (watch) {
            watch.start();
            executor.drain(System.nanoTime() + graceNs);
        }
        giveUpStuckSessions(run.backend);
    }

    /** Builds and writes the summary; a run stopped before its clock started gets one now (its figures are empty). */
    private Summary finish(RunState run, String arrivalsText, WarmupReport warmup) throws IOException {
        if (run.clock == null) {
            startClock(run);
        }
        long until = stop.stopNano() == 0 ? System.nanoTime() : stop.stopNano();
        List<IntervalLoad> loads = config.profile() == null
                ? List.of()
                : run.population != null
                        ? run.population.figures(until)
                        : HybridDispatch.figures(config, shard, run.clock, run.stats, until);
        summary = run.finisher.summary(
                run.clock,
                loads,
                shard,
                run.runStartEpochNs,
                run.stats,
                run.health,
                run.log,
                run.backend == null ? config.execution().backend().label() : run.backend.name(),
                arrivalsText,
                observers,
                warmup);
        return summary;
    }

    /** One second of idleness; a shard with a start instant only has until a second before it. */
    private long calibrationWindowNs() {
        if (shard.startAt() == null) {
            return FixedCost.WINDOW_NS;
        }
        long left = RunClock.epochNs(shard.startAt()) - RunClock.epochNs(Instant.now()) - 1_000_000_000L;
        return Math.max(0, Math.min(FixedCost.WINDOW_NS, left));
    }

    /**
     * The JIT warm-up (docs/JIT-WARMUP.md): before the health log, the clock and any request of the
     * run, so that neither its time nor its CPU is part of the run; ends before a shard's start instant.
     * Over TLS when the target is HTTPS, with the run's resumption (the client's, and the embedded server's).
     */
    private WarmupReport warmUp(String targetBase) {
        long deadline = Long.MAX_VALUE;
        if (shard.startAt() != null) {
            long left = Duration.between(Instant.now(), shard.startAt()).toNanos() - TimeUnit.SECONDS.toNanos(1);
            deadline = System.nanoTime() + Math.max(0, left);
        }
        List<WarmupLoad.Factory> loads = new ArrayList<>();
        for (RunObserver o : observers) {
            loads.add(o::warmupLoad);
        }
        JitWarmup warmup = new JitWarmup(
                        config.execution(),
                        config.workload(),
                        config.measurement().jitWarmup(),
                        out)
                .bindAddress(warmupStubAddress)
                .cancelledBy(stop::stopped);
        if (ClientTls.isHttps(targetBase)) {
            warmup.overTls(config.execution().tlsResumption()
                    && (!config.embedded() || config.server().tlsResumption()));
        }
        return warmup.run(loads, deadline);
    }

    /**
     * Sessions still in a request when the end-of-run wait ran out (a request slower than its
     * timeouts, image fetches, a pool lease then a response) get their sessions.csv line now, end
     * reason {@code stuck}, before the logs close; their requests are then aborted.
     */
    private void giveUpStuckSessions(Backend backend) {
        if (counters.active.giveUp() > 0 && backend != null) {
            backend.abortInFlight();
        }
    }

    /**
     * Until the end of the run, a stop, or all work done (closed users out of sessions, or hybrid
     * arrivals exhausted and every session finished); marks the measured phase in the health log.
     */
    private void awaitEnd(RunClock clock, ClientHealth health, CountDownLatch done, HybridDispatch hybrid) {
        while (!stop.stopped() && System.nanoTime() < clock.endNano()) {
            markPhases(clock, health);
            // All work done ends the run early (users out of sessions, arrivals exhausted), but a load profile's length
            // is
            // planned: its users may all be gone or its rate 0 for a while, and come back.
            if (config.profile() == null && done.getCount() == 0 && (hybrid == null || hybrid.allEnded())) {
                break;
            }
            // Wake at the next phase boundary (marked exactly for the run-phase CPU) or every 250 ms to see whether all
            // users have finished: 4 wake-ups a second instead of 50 (part of the idle cost at low rates).
            long now = System.nanoTime();
            long boundary = now < clock.upEndNano()
                    ? clock.upEndNano()
                    : now < clock.runEndNano() ? clock.runEndNano() : clock.endNano();
            stop.awaitUntil(Math.min(boundary, now + 250_000_000L), Long.MAX_VALUE);
        }
        markPhases(clock, health);
        health.markRunEnd();
    }

    private static void markPhases(RunClock clock, ClientHealth health) {
        Phase phase = clock.phase(System.nanoTime());
        if (phase != Phase.UP) {
            health.markRunStart();
        }
        if (phase == Phase.DOWN) {
            health.markRunEnd();
        }
    }

    /** Session ids are deterministic: exposed for tests and analysis. */
    public static long closedSessionId(int user, long k) {
        return ClosedDispatch.sessionId(user, k);
    }

    /** Milliseconds as seconds, as given: 1500 is "1.5", 30000 is "30" (the banner once said "1 s" for 1.5 s). */
    static String seconds(long ms) {
        return BigDecimal.valueOf(ms, 3).stripTrailingZeros().toPlainString();
    }
}
