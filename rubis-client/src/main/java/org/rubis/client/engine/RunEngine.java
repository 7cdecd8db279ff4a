package org.rubis.client.engine;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.rubis.client.arrival.DeterministicArrivals;
import org.rubis.client.arrival.ExponentialArrivals;
import org.rubis.client.arrival.FileArrivals;
import org.rubis.client.arrival.RateSchedule;
import org.rubis.client.arrival.SessionArrivals;
import org.rubis.client.backend.Backend;
import org.rubis.client.backend.Backends;
import org.rubis.client.backend.Reply;
import org.rubis.client.config.Arrivals;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.log.RunLog;
import org.rubis.client.report.ClientHealth;
import org.rubis.client.report.RunStats;
import org.rubis.client.report.Summary;
import org.rubis.client.workload.RequestGenerator;
import org.rubis.client.workload.SessionRandom;
import org.rubis.client.workload.UserSession;

/**
 * One emulation run from start to summary: starts the target (embedded server in its own JVM,
 * or a given URL), drives the closed or hybrid workload, and always leaves complete, flushed logs
 * and a summary, whether the run ends normally, by Ctrl-C, by an error or out of memory.
 */
public final class RunEngine {

    /** Closed mode: session ids are emulated user * this + session number of that user. */
    public static final long SESSIONS_PER_USER = 1_000_000L;

    private final ClientConfig config;
    private final Path dir;
    private final PrintStream out;
    private final StopSignal stop = new StopSignal();
    private final CountDownLatch finished = new CountDownLatch(1);
    private final AtomicLong sessionsStarted = new AtomicLong();
    private final AtomicLong sessionsDelayed = new AtomicLong();
    private final AtomicLong sessionsDropped = new AtomicLong();
    private final AtomicLong hybridEnded = new AtomicLong();
    private final ActiveSessions active = new ActiveSessions();
    private volatile int usersStarted;
    private Summary summary;

    public RunEngine(ClientConfig config, Path dir, PrintStream out) {
        this.config = config;
        this.dir = dir;
        this.out = out;
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

    /** Released on OutOfMemoryError so that logs and summary can still be written. */
    private static volatile byte[] reserve;

    /** An OutOfMemoryError, or an error it caused (a lambda bootstrap that failed for want of heap). */
    static boolean outOfMemory(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof OutOfMemoryError) {
                return true;
            }
        }
        return false;
    }

    private static final String OUT_OF_MEMORY = "out of memory (no heap left even to say where)";

    private void onFatal(Thread t, Throwable e) {
        reserve = null;
        try {
            if (outOfMemory(e)) {
                stop.stop("out of memory in thread " + t.getName() + " (" + active.now() + " sessions active, " + usersStarted
                        + " users started): " + e.getMessage(), true);
            } else {
                stop.stop("thread " + t.getName() + " failed: " + e, true);
            }
        } catch (OutOfMemoryError again) {
            stop.stop(OUT_OF_MEMORY, true);
        }
    }

    /** Runs one cleanup step; a failure (even out of memory) never skips the steps after it. */
    private void cleanup(String what, AutoCloseable step) {
        try {
            step.close();
        } catch (Throwable e) {
            try {
                stop.stop("cleanup of " + what + " failed: " + e, outOfMemory(e));
            } catch (OutOfMemoryError again) {
                stop.stop(OUT_OF_MEMORY, true);
            }
        }
    }

    private Summary runInternal() throws IOException {
        reserve = new byte[(int) Math.min(4L << 20, Runtime.getRuntime().maxMemory() / 64)];
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler(this::onFatal);
        try {
            return runGuarded();
        } catch (OutOfMemoryError e) {
            reserve = null;
            stop.stop(OUT_OF_MEMORY, true);
            Summary.writeMinimal(dir, stop.reason() + "; the full summary could not be built (out of memory)", config.seed(),
                    config.execution().backend(), usersStarted, -1, -1);
            throw new RunOutOfMemory(dir);
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(previous);
            reserve = null;
        }
    }

    private Summary runGuarded() throws IOException {
        // Bad arrival files fail here, before anything is started.
        SessionArrivals arrivals = config.arrivals() == Arrivals.HYBRID ? arrivals() : null;
        String arrivalsText = arrivals != null ? arrivals.describe() : config.users() + " emulated users, sessions back to back";
        Files.createDirectories(dir);
        EmbeddedServerProcess server = null;
        String base = config.target();
        if (config.embedded()) {
            out.println("Starting the embedded RUBiS server (" + config.server().model() + " model) in its own JVM...");
            server = EmbeddedServerProcess.start(config, config.regionsFile(), config.categoriesFile(), dir.resolve("server"));
            base = server.baseUrl();
            out.println("Embedded server ready at " + base + "/PHP/ (pid " + server.pid() + ")");
        }
        RunStats stats = new RunStats();
        RunLog log = new RunLog(dir, stats::accept, stats::accept);
        ClientHealth health = new ClientHealth(dir, active::now, stats::liveRequests);
        RunClock clock = new RunClock(config);
        boolean eventDriven = config.execution().backend().equals(EventLoopDriver.NAME);
        String backendName = eventDriven ? EventLoopDriver.NAME : config.execution().backend();
        Recorder recorder = new Recorder(clock, log, stats, new TargetWatch(stop, base), backendName);
        Backend backend = eventDriven ? null : Backends.create(config.execution(), base);
        EventLoopDriver driver = eventDriven ? new EventLoopDriver(config.execution(), base, clock, stop, recorder, active) : null;
        SessionRunner runner = eventDriven ? null : new SessionRunner(clock, stop, backend, recorder, active);
        RequestGenerator generator = new RequestGenerator(config.workload());
        Progress progress = config.progress() ? new Progress(out, clock, stats, active) : null;
        java.util.Queue<Thread> threads = new java.util.concurrent.ConcurrentLinkedQueue<>();
        out.println(String.format(Locale.ROOT, "Run: %s arrivals, backend %s%s, seed %d, %d s up ramp + %d s run + %d s down ramp -> %s",
                config.arrivals().label(), backendName, eventDriven ? " (event loops)" : " (" + config.execution().threads() + " threads)",
                config.seed(), config.upRampMs() / 1000, config.runMs() / 1000, config.downRampMs() / 1000, dir));
        try {
            CountDownLatch done;
            if (arrivals == null) {
                done = new CountDownLatch(config.users());
                for (int u = 0; u < config.users() && !stop.stopped(); u++) {
                    if (eventDriven) {
                        new EventUser(u, clock, driver, generator, done).next(0, firstArrival(u, clock));
                        usersStarted = u + 1;
                    } else if (!startUserThread(u, clock, runner, generator, done, threads)) {
                        break;
                    }
                }
            } else {
                done = new CountDownLatch(1);
                SessionLauncher launcher = eventDriven
                        ? (sid, intended, release) -> driver.start(new UserSession(config.workload(), generator, sid, config.seed()), -1, intended,
                                next -> release.run())
                        : (sid, intended, release) -> threads.add(newThread("session-" + sid, () -> {
                            try {
                                runner.run(new UserSession(config.workload(), generator, sid, config.seed()), -1, intended, new Reply());
                            } catch (OutOfMemoryError e) {
                                stop.stop("out of memory in session " + sid + " (" + active.now() + " sessions active): " + e.getMessage(), true);
                            } finally {
                                release.run();
                            }
                        }));
                newThread("arrivals", () -> {
                    try {
                        dispatch(clock, arrivals, launcher, recorder, threads);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (OutOfMemoryError e) {
                        stop.stop("could not start a session (" + active.now() + " sessions active): " + e.getMessage(), true);
                    } finally {
                        done.countDown();
                    }
                });
            }
            // Until the end of the run, a stop, or all work done (closed users out of sessions, or
            // hybrid arrivals exhausted and every session finished).
            while (!stop.stopped() && System.nanoTime() < clock.endNano()) {
                markPhases(clock, health);
                if (done.getCount() == 0 && (arrivals == null || hybridEnded.get() == sessionsStarted.get())) {
                    break;
                }
                stop.awaitUntil(Math.min(clock.endNano(), System.nanoTime() + 20_000_000L), Long.MAX_VALUE);
            }
            markPhases(clock, health);
            health.markRunEnd();
            stop.stop("complete", false);
            long grace = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.execution().requestTimeoutMs() + config.execution().connectTimeoutMs() + 2000L);
            if (driver != null) {
                driver.abortWaiting();
                while (driver.live() > 0 && System.nanoTime() < grace) {
                    Thread.sleep(10);
                }
            }
            for (Thread t : threads) {
                long left = grace - System.nanoTime();
                if (left > 0) {
                    t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                }
            }
        } catch (InterruptedException e) {
            stop.stop("interrupted", false);
            Thread.currentThread().interrupt();
        } catch (OutOfMemoryError e) {
            reserve = null;
            stop.stop("out of memory: " + e.getMessage(), true);
        } finally {
            if (progress != null) {
                cleanup("progress", progress);
            }
            if (backend != null) {
                cleanup("backend", backend);
            }
            if (driver != null) {
                cleanup("event loops", driver);
            }
            cleanup("client health", health);
            cleanup("request log", log);
            if (server != null) {
                EmbeddedServerProcess s = server;
                cleanup("embedded server", () -> {
                    out.println("Stopping the embedded server...");
                    s.close();
                });
            }
        }
        if (log.statsIncomplete()) {
            stop.stop("the statistics ran out of heap (the request log is complete)", true);
        }
        try {
            summary = new Summary(config, dir, clock, stats, health, backendName, stop.reason(), stop.invalid(),
                    arrivalsText, sessionsStarted.get(), sessionsDelayed.get(), sessionsDropped.get(), usersStarted, active.peak(),
                    log.written(), log.lost());
            summary.write();
        } catch (OutOfMemoryError | RuntimeException e) {
            // No heap left for the full summary (or statistics left inconsistent by an earlier
            // OutOfMemoryError): write the essentials with almost no allocation.
            if (!stop.invalid()) {
                throw e;
            }
            summary = null;
            Summary.writeMinimal(dir, stop.reason() + "; the full summary could not be built (out of memory)", config.seed(), backendName,
                    usersStarted, log.written(), log.lost());
            throw new RunOutOfMemory(dir);
        }
        return summary;
    }

    private static void markPhases(RunClock clock, ClientHealth health) {
        String phase = clock.phase(System.nanoTime());
        if (!phase.equals("up")) {
            health.markRunStart();
        }
        if (phase.equals("down")) {
            health.markRunEnd();
        }
    }

    /**
     * Think times apply from the first request: each closed-mode user arrives after one think time
     * of its own (scaled by the up-ramp factor), not all at once (the original's start-up burst).
     */
    private long firstArrival(int user, RunClock clock) {
        java.util.SplittableRandom r = new java.util.SplittableRandom(SessionRandom.mix(config.seed() ^ SessionRandom.mix(user + 1L)));
        return clock.startNano() + clock.scaleThink(config.workload().thinkTime().nanos(0, r), clock.startNano());
    }

    private boolean moreSessions(long k) {
        return !stop.stopped() && (config.sessionsPerUser() == 0 || k < config.sessionsPerUser());
    }

    private boolean startUserThread(int u, RunClock clock, SessionRunner runner, RequestGenerator generator, CountDownLatch done, java.util.Queue<Thread> threads) {
        try {
            threads.add(newThread("user-" + u, () -> {
                try {
                    closedUser(u, clock, runner, generator);
                } finally {
                    done.countDown();
                }
            }));
            usersStarted = u + 1;
            return true;
        } catch (OutOfMemoryError e) {
            reserve = null;
            stop.stop("could not create the thread of emulated user " + (u + 1) + " of " + config.users() + ": " + e.getMessage()
                    + "; " + u + " users were running", true);
            return false;
        }
    }

    private void closedUser(int user, RunClock clock, SessionRunner runner, RequestGenerator generator) {
        Reply reply = new Reply();
        long next = firstArrival(user, clock);
        try {
            for (long k = 0; moreSessions(k); k++) {
                UserSession s = new UserSession(config.workload(), generator, closedSessionId(user, k), config.seed());
                sessionsStarted.incrementAndGet();
                next = runner.run(s, user, next, reply);
                if (next == SessionRunner.ABORTED) {
                    break;
                }
            }
        } catch (OutOfMemoryError e) {
            reserve = null;
            stop.stop("out of memory in emulated user " + user + " (" + usersStarted + " users active): " + e.getMessage(), true);
        } catch (RuntimeException | LinkageError e) {
            if (outOfMemory(e)) {
                reserve = null;
                stop.stop("out of memory in emulated user " + user + " (" + usersStarted + " users active): " + e, true);
            } else {
                stop.stop("emulated user " + user + " failed: " + e, true);
            }
        }
    }

    /** A closed-mode user on the event loops: its sessions chained by their end callbacks. */
    private final class EventUser {
        private final int user;
        private final RunClock clock;
        private final EventLoopDriver driver;
        private final RequestGenerator generator;
        private final CountDownLatch done;

        EventUser(int user, RunClock clock, EventLoopDriver driver, RequestGenerator generator, CountDownLatch done) {
            this.user = user;
            this.clock = clock;
            this.driver = driver;
            this.generator = generator;
            this.done = done;
        }

        void next(long k, long at) {
            if (at == SessionRunner.ABORTED || !moreSessions(k)) {
                done.countDown();
                return;
            }
            sessionsStarted.incrementAndGet();
            driver.start(new UserSession(config.workload(), generator, closedSessionId(user, k), config.seed()), user, at, n -> next(k + 1, n));
        }
    }

    /** Starts one hybrid session; {@code release} is called when it ends. */
    @FunctionalInterface
    private interface SessionLauncher {
        void launch(long sessionId, long intendedNano, Runnable release);
    }

    private SessionArrivals arrivals() {
        ClientConfig.ArrivalSettings a = config.arrival();
        long seed = SessionRandom.mix(config.seed() ^ 0xA5A5A5A5L);
        if (a.interarrivalFile() != null) {
            return new FileArrivals(a.interarrivalFile());
        }
        if (a.rateScheduleFile() != null) {
            return new RateSchedule(a.rateScheduleFile(), a.distribution().equals("exponential"), seed);
        }
        return a.distribution().equals("exponential") ? new ExponentialArrivals(a.sessionRate(), seed) : new DeterministicArrivals(a.sessionRate());
    }

    /** Starts sessions at their scheduled instants, against the clock, never after completions. */
    private void dispatch(RunClock clock, SessionArrivals arrivals, SessionLauncher launcher, Recorder recorder, java.util.Queue<Thread> threads)
            throws InterruptedException {
        int cap = config.arrival().maxConcurrentSessions();
        Semaphore permits = cap > 0 ? new Semaphore(cap) : null;
        boolean drop = config.arrival().capPolicy().equals("drop");
        Runnable release = () -> {
            hybridEnded.incrementAndGet();
            if (permits != null) {
                permits.release();
            }
        };
        for (long id = 0; !stop.stopped(); id++) {
            long offset = arrivals.next();
            if (offset < 0) {
                break;
            }
            long intended = clock.startNano() + offset;
            if (!stop.awaitUntil(intended, clock.endNano())) {
                break;
            }
            if (permits != null && !permits.tryAcquire()) {
                if (drop) {
                    sessionsDropped.incrementAndGet();
                    recorder.dropped(id, intended);
                    continue;
                }
                sessionsDelayed.incrementAndGet();
                while (!permits.tryAcquire(20, TimeUnit.MILLISECONDS)) {
                    if (stop.stopped() || System.nanoTime() >= clock.endNano()) {
                        return;
                    }
                }
            }
            sessionsStarted.incrementAndGet();
            launcher.launch(id, intended, release);
            if (id % 1024 == 1023) {
                threads.removeIf(t -> !t.isAlive());
            }
        }
    }

    private Thread newThread(String name, Runnable r) {
        Thread t = config.execution().threads().equals("virtual")
                ? Thread.ofVirtual().name(name).unstarted(r)
                : Thread.ofPlatform().name(name).daemon(true).unstarted(r);
        t.start();
        return t;
    }

    /** The run ran out of heap so badly that only a minimal summary could be written. */
    public static final class RunOutOfMemory extends RuntimeException {
        public RunOutOfMemory(Path dir) {
            super("the client ran out of memory (heap); logs are complete, " + dir.resolve("summary.json") + " holds the essentials", null, false, false);
        }
    }

    /** Session ids are deterministic: exposed for tests and analysis. */
    public static long closedSessionId(int user, long k) {
        return user * SESSIONS_PER_USER + k;
    }

}
