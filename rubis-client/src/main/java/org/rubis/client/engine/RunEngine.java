package org.rubis.client.engine;

import java.io.IOException;
import java.io.PrintStream;
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
import org.rubis.client.config.Arrivals;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ShardPlan;
import org.rubis.client.log.RunLog;
import org.rubis.client.report.ClientHealth;
import org.rubis.client.report.FixedCost;
import org.rubis.client.report.RunStats;
import org.rubis.client.report.Summary;
import org.rubis.client.warmup.JitWarmup;
import org.rubis.client.warmup.WarmupLoad;
import org.rubis.client.warmup.WarmupReport;
import org.rubis.client.workload.RequestGenerator;

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
    private final ShardPlan shard;
    private final Path dir;
    private final PrintStream out;
    private final StopSignal stop = new StopSignal();
    private final CountDownLatch finished = new CountDownLatch(1);
    private final RunCounters counters = new RunCounters();
    private final List<RunObserver> observers = new ArrayList<>();
    private Summary summary;
    /** The run's health monitor once started: an out-of-memory stop's minimal summary takes its GC totals. */
    private volatile ClientHealth health;
    private java.net.InetAddress warmupStubAddress = java.net.InetAddress.getLoopbackAddress();
    private volatile org.rubis.client.log.EpochAnchor anchor;
    /** How long the run waits for requests in flight after the stop; -1: request + connect timeout + 2 s. */
    private long endWaitMs = -1;

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

    /** Tests: where the JIT warm-up's stub listens (an address that cannot be bound makes the warm-up fail). */
    RunEngine warmupStubAddress(java.net.InetAddress address) {
        this.warmupStubAddress = address;
        return this;
    }

    /** The run clock's epoch anchor and its uncertainty, once the run has begun (else null). */
    public org.rubis.client.log.EpochAnchor anchor() {
        return anchor;
    }

    /** Asks the run to stop (Ctrl-C); {@link #awaitFinished} waits for logs and summary. */
    public void requestStop(String reason) {
        stop.stop(reason, false);
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
                stop.stopOutOfMemory("thread ", t.getName(), counters.active.now(), counters.usersStarted, e.getMessage());
            } else {
                stop.stop("thread " + t.getName() + " failed: " + e, true);
            }
        } catch (OutOfMemoryError again) {
            stop.stop(RunFinisher.OUT_OF_MEMORY, true);
        }
    }

    /** A user (closed) or session (hybrid) that failed with an exception. */
    private void onUserFailed(String who, Throwable e) {
        if (outOfMemory(e)) {
            HeapReserve.release();
            stop.stopOutOfMemory("", who, counters.active.now(), counters.usersStarted, e.getMessage());
        } else {
            stop.stop(who + " failed: " + e, true);
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
            stop.stop(RunFinisher.OUT_OF_MEMORY, true);
            Summary.writeMinimal(dir, stop.reason() + "; the full summary could not be built (out of memory)", config.seed(),
                    config.execution().backend().label(), counters.usersStarted, -1, -1, health);
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
            return java.net.InetAddress.getByName(java.net.URI.create(config.target()).getHost()).isLoopbackAddress();
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }

    private Summary runGuarded() throws IOException {
        SessionArrivals arrivals = config.arrivals() == Arrivals.HYBRID ? HybridDispatch.arrivals(config) : null; // bad files fail first
        String arrivalsText = arrivals != null ? arrivals.describe() : config.users() + " emulated users, sessions back to back";
        org.rubis.client.process.ResourcePlan plan = org.rubis.client.process.ResourcePlan.of(config);
        int sources = plan.check(config.embedded(), config.execution().sourceAddresses(), loopbackTarget(), config.execution().backend());
        if (sources != config.execution().sourceAddresses()) {
            out.println("Source addresses: 127.0.0.1.." + org.rubis.client.backend.SourceAddresses.last(sources) + " (" + sources + "): "
                    + plan.portRule());
            config = config.withSourceAddresses(sources);
        }
        Files.createDirectories(dir);
        Target target = Target.start(config, dir, out);
        RunFinisher finisher = new RunFinisher(config, dir, out, stop, counters);
        finisher.add("embedded server", target);
        WarmupReport warmup = warmUp(target.base());
        RunStats stats = new RunStats();
        RunLog log = new RunLog(dir, stats::accept, stats::accept, config.execution().model() == org.rubis.client.config.ExecutionModel.PLATFORM_THREADS
                ? RunLog.Producers.MANY : RunLog.Producers.FEW);
        finisher.add("request log", log);
        ClientHealth health = new ClientHealth(dir, counters.active::now, stats::liveRequests);
        this.health = health;
        finisher.add("client health", health);
        if (target.serverPid() > 0) {
            health.watchServer(target.serverPid());
        }
        RunClock clock = new RunClock(config, shard.startAt()); // replaced after the fixed-cost window; the summary's if setup fails
        this.anchor = clock.anchor();
        long runStartEpochNs = clock.anchorEpochNs();
        stats.runPhase(clock.epochNs(clock.upEndNano()), clock.runSeconds());
        Backend backend = null;
        try {
            backend = Backends.create(config.execution(), target.base());
            finisher.add("backend", backend);
            // The fixed cost: the client idle (samplers, log writer, backend up; no request) before t = 0,
            // so that the summary prints it apart from the CPU per request. The run's clock starts after it.
            health.fixedCost(FixedCost.measure(calibrationWindowNs(), deadline -> stop.awaitUntil(deadline, Long.MAX_VALUE)));
            clock = new RunClock(config, shard.startAt());
            this.anchor = clock.anchor();
            runStartEpochNs = clock.anchorEpochNs();
            stats.runPhase(clock.epochNs(clock.upEndNano()), clock.runSeconds());
            Recorder recorder = new Recorder(clock, log, stats, new TargetWatch(stop, target.base()), backend.name());
            SessionContext ctx = new SessionContext(clock, stop, backend, recorder, counters.active);
            SessionExecutor executor = SessionExecutor.of(ctx, config.execution().threads(), this::onUserFailed);
            finisher.add("sessions", executor);
            RequestGenerator generator = new RequestGenerator(config.workload());
            for (RunObserver o : observers) {
                o.clock(clock);
                o.beforeRun(target.base(), dir);
            }
            if (shard.startAt() != null) {
                out.println(String.format(Locale.ROOT, "waiting until %s (%.1f s)", shard.startAt(), (clock.startNano() - System.nanoTime()) / 1e9));
                stop.awaitUntil(clock.startNano(), Long.MAX_VALUE);
                long now = System.nanoTime();
                if (!stop.stopped() && now >= clock.endNano()) {
                    stop.stop(String.format(Locale.ROOT, "this process was ready %.1f s after the start instant %s, after the end of the run: nothing "
                            + "was measured; give a start instant further ahead", (now - clock.startNano()) / 1e9, shard.startAt()), true);
                }
            }
            runStartEpochNs = clock.epochNs(System.nanoTime());
            if (config.progress()) {
                finisher.add("progress", new Progress(out, clock, stats, counters.active));
            }
            out.println(String.format(Locale.ROOT, "Run: %s arrivals, backend %s (%s), seed %d, %s s up ramp + %s s run + %s s down ramp -> %s",
                    config.arrivals().label(), backend.name(), config.execution().model().label(), config.seed(), seconds(config.upRampMs()),
                    seconds(config.runMs()), seconds(config.downRampMs()), dir));
            if (!stop.stopped()) { // else Ctrl-C while waiting for the start instant: nothing is sent
                HybridDispatch hybrid = arrivals == null ? null : new HybridDispatch(config, shard, clock, stop, counters, recorder, generator, arrivals);
                CountDownLatch done = hybrid == null
                        ? new ClosedDispatch(config, shard, clock, stop, counters, generator).start(executor)
                        : hybrid.start(executor);
                awaitEnd(clock, health, done, hybrid);
            }
            boolean early = stop.stopped(); // Ctrl-C or a fatal error before the end of the run
            stop.stop("complete", false);
            if (early) {
                backend.abortInFlight();     // hung requests end now, logged as aborted
            }
            long graceNs = TimeUnit.MILLISECONDS.toNanos(endWaitMs >= 0 ? endWaitMs
                    : config.execution().requestTimeoutMs() + config.execution().connectTimeoutMs() + 2000L);
            // Sessions that outlast a share of the wait get their threads dumped into the run directory (EndOfRunWatch).
            EndOfRunWatch watch = new EndOfRunWatch(dir, counters.active::now, graceNs, System.err);
            observers.add(watch);
            try (watch) {
                watch.start();
                executor.drain(System.nanoTime() + graceNs);
            }
            giveUpStuckSessions(backend);
            for (RunObserver o : observers) {
                o.afterRun(dir);
            }
        } catch (InterruptedException e) {
            stop.stop("interrupted", false);
            Thread.currentThread().interrupt();
        } catch (OutOfMemoryError e) {
            HeapReserve.release();
            stop.stop("out of memory: " + e.getMessage(), true);
        } catch (Exception e) {
            stop.stop("run hook failed: " + e, true);
        } finally {
            giveUpStuckSessions(backend);
            finisher.cleanup();
        }
        summary = finisher.summary(clock, shard, runStartEpochNs, stats, health, log, backend == null ? config.execution().backend().label() : backend.name(),
                arrivalsText, observers, warmup);
        return summary;
    }

    /** One second of idleness; a shard with a start instant only has until a second before it. */
    private long calibrationWindowNs() {
        if (shard.startAt() == null) {
            return FixedCost.WINDOW_NS;
        }
        long left = RunClock.epochNs(shard.startAt()) - RunClock.epochNs(java.time.Instant.now()) - 1_000_000_000L;
        return Math.max(0, Math.min(FixedCost.WINDOW_NS, left));
    }

    /**
     * The JIT warm-up (docs/ARCHITECTURE.md): before the health log, the clock and any request of the
     * run, so that neither its time nor its CPU is part of the run; ends before a shard's start instant.
     * Over TLS when the target is HTTPS, with the run's resumption (the client's, and the embedded server's).
     */
    private WarmupReport warmUp(String targetBase) {
        long deadline = Long.MAX_VALUE;
        if (shard.startAt() != null) {
            long left = java.time.Duration.between(java.time.Instant.now(), shard.startAt()).toNanos() - TimeUnit.SECONDS.toNanos(1);
            deadline = System.nanoTime() + Math.max(0, left);
        }
        List<WarmupLoad.Factory> loads = new ArrayList<>();
        for (RunObserver o : observers) {
            loads.add(o::warmupLoad);
        }
        JitWarmup warmup = new JitWarmup(config.execution(), config.workload(), config.measurement().jitWarmup(), out).bindAddress(warmupStubAddress)
                .cancelledBy(stop::stopped);
        if (ClientTls.isHttps(targetBase)) {
            warmup.overTls(config.execution().tlsResumption() && (!config.embedded() || config.server().tlsResumption()));
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
            if (done.getCount() == 0 && (hybrid == null || hybrid.allEnded())) {
                break;
            }
            // Wake at the next phase boundary (marked exactly for the run-phase CPU) or every 250 ms to see whether all
            // users have finished: 4 wake-ups a second instead of 50 (part of the idle cost at low rates).
            long now = System.nanoTime();
            long boundary = now < clock.upEndNano() ? clock.upEndNano() : now < clock.runEndNano() ? clock.runEndNano() : clock.endNano();
            stop.awaitUntil(Math.min(boundary, now + 250_000_000L), Long.MAX_VALUE);
        }
        markPhases(clock, health);
        health.markRunEnd();
    }

    private static void markPhases(RunClock clock, ClientHealth health) {
        org.rubis.format.Phase phase = clock.phase(System.nanoTime());
        if (phase != org.rubis.format.Phase.UP) {
            health.markRunStart();
        }
        if (phase == org.rubis.format.Phase.DOWN) {
            health.markRunEnd();
        }
    }

    /** The run ran out of heap so badly that only a minimal summary could be written. */
    public static final class RunOutOfMemory extends RuntimeException {
        public RunOutOfMemory(Path dir) {
            super("the client ran out of memory (heap); logs are complete, " + dir.resolve("summary.json") + " holds the essentials", null, false, false);
        }
    }

    /** Session ids are deterministic: exposed for tests and analysis. */
    public static long closedSessionId(int user, long k) {
        return ClosedDispatch.sessionId(user, k);
    }

    /** Milliseconds as seconds, as given: 1500 is "1.5", 30000 is "30" (the banner once said "1 s" for 1.5 s). */
    static String seconds(long ms) {
        return java.math.BigDecimal.valueOf(ms, 3).stripTrailingZeros().toPlainString();
    }
}
