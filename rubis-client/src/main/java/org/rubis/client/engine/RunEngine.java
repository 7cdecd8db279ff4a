package org.rubis.client.engine;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
import org.rubis.client.log.SessionRecord;
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

    private Summary runInternal() throws IOException {
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
        Backend backend = Backends.create(config.execution(), base);
        RunClock clock = new RunClock(config);
        TargetWatch watch = new TargetWatch(stop, base);
        SessionRunner runner = new SessionRunner(clock, stop, backend, log, stats, watch, active);
        RequestGenerator generator = new RequestGenerator(config.workload());
        Progress progress = config.progress() ? new Progress(out, clock, stats, active) : null;
        List<Thread> threads = new ArrayList<>();
        out.println(String.format(Locale.ROOT, "Run: %s arrivals, backend %s (%s threads), seed %d, %d s up ramp + %d s run + %d s down ramp -> %s",
                config.arrivals().label(), backend.name(), config.execution().threads(), config.seed(), config.upRampMs() / 1000,
                config.runMs() / 1000, config.downRampMs() / 1000, dir));
        try {
            if (arrivals == null) {
                startClosed(clock, runner, generator, threads);
            } else {
                runHybrid(clock, runner, generator, arrivals, threads);
            }
            // Wait for the end of the run (or a stop), then for users to finish their request in flight.
            stop.awaitUntil(clock.endNano(), Long.MAX_VALUE);
            stop.stop("complete", false);
            long grace = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.execution().requestTimeoutMs() + config.execution().connectTimeoutMs() + 2000L);
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
            stop.stop("out of memory: " + e.getMessage(), true);
        } finally {
            if (progress != null) {
                progress.close();
            }
            backend.close();
            health.close();
            log.close();
            if (server != null) {
                out.println("Stopping the embedded server...");
                server.close();
            }
        }
        summary = new Summary(config, dir, clock, stats, health, backend.name(), stop.reason(), stop.invalid(),
                arrivalsText, sessionsStarted.get(), sessionsDelayed.get(), sessionsDropped.get(), usersStarted, active.peak(),
                log.written());
        summary.write();
        return summary;
    }

    private void startClosed(RunClock clock, SessionRunner runner, RequestGenerator generator, List<Thread> threads) {
        for (int u = 0; u < config.users() && !stop.stopped(); u++) {
            final int user = u;
            try {
                threads.add(newThread("user-" + u, () -> closedUser(user, clock, runner, generator)));
                usersStarted = u + 1;
            } catch (OutOfMemoryError e) {
                stop.stop("could not create the thread of emulated user " + (u + 1) + " of " + config.users() + ": " + e.getMessage()
                        + "; " + u + " users were running", true);
            }
        }
    }

    private void closedUser(int user, RunClock clock, SessionRunner runner, RequestGenerator generator) {
        Reply reply = new Reply();
        // Think times apply from the first request: each user arrives after one think time of its
        // own (scaled by the up-ramp factor), not all at once (the original's start-up burst).
        java.util.SplittableRandom arrival = new java.util.SplittableRandom(SessionRandom.mix(config.seed() ^ SessionRandom.mix(user + 1L)));
        long next = clock.startNano() + clock.scaleThink(config.workload().thinkTime().nanos(0, arrival), clock.startNano());
        try {
            for (long k = 0; !stop.stopped(); k++) {
                UserSession s = new UserSession(config.workload(), generator, user * SESSIONS_PER_USER + k, config.seed());
                sessionsStarted.incrementAndGet();
                next = runner.run(s, user, next, reply);
                if (next == SessionRunner.ABORTED) {
                    break;
                }
            }
        } catch (OutOfMemoryError e) {
            stop.stop("out of memory in emulated user " + user + " (" + usersStarted + " users active): " + e.getMessage(), true);
        } catch (RuntimeException e) {
            stop.stop("emulated user " + user + " failed: " + e, true);
        }
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

    private void runHybrid(RunClock clock, SessionRunner runner, RequestGenerator generator, SessionArrivals arrivals, List<Thread> threads)
            throws InterruptedException {
        int cap = config.arrival().maxConcurrentSessions();
        Semaphore permits = cap > 0 ? new Semaphore(cap) : null;
        boolean drop = config.arrival().capPolicy().equals("drop");
        for (long id = 0; !stop.stopped(); ) {
            long offset = arrivals.next();
            if (offset < 0) {
                break;
            }
            long intended = clock.startNano() + offset;
            if (!stop.awaitUntil(intended, clock.endNano())) {
                break;
            }
            final long sid = id++;
            if (permits != null && !permits.tryAcquire()) {
                if (drop) {
                    sessionsDropped.incrementAndGet();
                    runner.logDropped(sid, intended);
                    continue;
                }
                sessionsDelayed.incrementAndGet();
                while (!permits.tryAcquire(50, TimeUnit.MILLISECONDS)) {
                    if (stop.stopped() || System.nanoTime() >= clock.endNano()) {
                        return;
                    }
                }
            }
            try {
                threads.add(newThread("session-" + sid, () -> {
                    try {
                        UserSession s = new UserSession(config.workload(), generator, sid, config.seed());
                        runner.run(s, -1, intended, new Reply());
                    } catch (OutOfMemoryError e) {
                        stop.stop("out of memory in session " + sid + " (" + active.now() + " sessions active): " + e.getMessage(), true);
                    } finally {
                        if (permits != null) {
                            permits.release();
                        }
                    }
                }));
                sessionsStarted.incrementAndGet();
            } catch (OutOfMemoryError e) {
                stop.stop("could not create a thread for session " + sid + " (" + active.now() + " sessions active): " + e.getMessage(), true);
            }
            if (threads.size() > 10_000) {
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

    /** Session ids are deterministic: exposed for tests and analysis. */
    public static long closedSessionId(int user, long k) {
        return user * SESSIONS_PER_USER + k;
    }

    static SessionRecord dropped(long id, long intendedEpochNs) {
        return new SessionRecord(id, -1, "", intendedEpochNs, 0, 0, 0, 0, "dropped");
    }
}
