package org.rubis.client.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.rubis.client.arrival.DeterministicArrivals;
import org.rubis.client.arrival.ExponentialArrivals;
import org.rubis.client.arrival.FileArrivals;
import org.rubis.client.arrival.ProfileArrivals;
import org.rubis.client.arrival.SessionArrivals;
import org.rubis.client.config.CapPolicy;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.Interarrival;
import org.rubis.client.config.ShardPlan;
import org.rubis.client.profile.LoadProfile;
import org.rubis.client.report.IntervalLoad;
import org.rubis.client.report.RunStats;
import org.rubis.client.workload.RequestGenerator;
import org.rubis.client.workload.SessionRandom;
import org.rubis.client.workload.UserSession;
import org.rubis.format.run.StopCause.Kind;

/**
 * Hybrid mode: sessions start at their scheduled instants, against the clock, never after
 * completions; an optional cap delays or drops arrivals while too many sessions run. A shard walks
 * the whole global arrival sequence and starts the arrivals it owns ({@link ShardPlan#owns}), with
 * its share of the cap ({@link ShardPlan#capShare}).
 */
final class HybridDispatch {

    private final ClientConfig config;
    private final RunClock clock;
    private final StopSignal stop;
    private final RunCounters counters;
    private final Recorder recorder;
    private final RequestGenerator generator;
    private final SessionArrivals arrivals;
    private final ShardPlan shard;

    /** Bad arrival files fail here, before anything is started. */
    HybridDispatch(
            ClientConfig config,
            ShardPlan shard,
            RunClock clock,
            StopSignal stop,
            RunCounters counters,
            Recorder recorder,
            RequestGenerator generator,
            SessionArrivals arrivals) {
        this.config = config;
        this.clock = clock;
        this.stop = stop;
        this.counters = counters;
        this.recorder = recorder;
        this.generator = generator;
        this.arrivals = arrivals;
        this.shard = shard;
    }

    /** The arrival process the configuration names (a load profile's rate, with one). */
    static SessionArrivals arrivals(ClientConfig config) {
        ClientConfig.ArrivalSettings a = config.arrival();
        long seed = SessionRandom.mix(config.seed() ^ 0xA5A5A5A5L);
        boolean exponential = a.distribution() == Interarrival.EXPONENTIAL;
        if (a.interarrivalFile() != null) {
            return new FileArrivals(a.interarrivalFile());
        }
        if (config.profile() != null) {
            return new ProfileArrivals(config.profile(), config.upRampMs() * 1_000_000L, exponential, seed);
        }
        return exponential
                ? new ExponentialArrivals(a.sessionRate(), seed)
                : new DeterministicArrivals(a.sessionRate());
    }

    /** Starts the arrivals thread; the latch opens when arrivals are exhausted or the run is over. */
    CountDownLatch start(SessionExecutor executor) {
        CountDownLatch done = new CountDownLatch(1);
        Thread.ofPlatform().name("arrivals").daemon(true).start(() -> {
            try {
                dispatch(executor);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (OutOfMemoryError e) {
                RunGuard.release();
                stop.stop(
                        Kind.OUT_OF_MEMORY,
                        "could not start a session (" + counters.active.now() + " sessions active): " + e.getMessage());
            } finally {
                done.countDown();
            }
        });
        return done;
    }

    /** True when every started session has ended. */
    boolean allEnded() {
        return counters.hybridEnded.get() == counters.sessionsStarted.get();
    }

    private void dispatch(SessionExecutor executor) throws InterruptedException {
        int cap = shard.capShare(config.arrival().maxConcurrentSessions());
        Semaphore permits = cap > 0 ? new Semaphore(cap) : null;
        boolean drop = config.arrival().capPolicy() == CapPolicy.DROP;
        Runnable release = () -> {
            counters.hybridEnded.incrementAndGet();
            if (permits != null) {
                permits.release();
            }
        };
        OwnedArrivals owned = new OwnedArrivals(arrivals, shard);
        while (!stop.stopped()) {
            if (!owned.advance()) {
                break;
            }
            long id = owned.id();
            long offset = owned.offset();
            long intended = clock.startNano() + offset;
            if (!stop.awaitUntil(intended, clock.endNano())) {
                break;
            }
            if (permits != null && !permits.tryAcquire()) {
                if (drop) {
                    counters.sessionsDropped.incrementAndGet();
                    recorder.dropped(id, intended);
                    continue;
                }
                counters.sessionsDelayed.incrementAndGet();
                while (!permits.tryAcquire(20, TimeUnit.MILLISECONDS)) {
                    if (stop.stopped() || System.nanoTime() >= clock.endNano()) {
                        return;
                    }
                }
            }
            counters.sessionsStarted.incrementAndGet();
            long sid = id;
            UserSession s = new UserSession(Population.mixAt(config, clock, intended), generator, sid, config.seed());
            executor.start(
                    "session-" + sid,
                    -1,
                    intended,
                    (k, at) -> k == 0 ? new SessionExecutor.Start(s, at, null) : null,
                    release);
        }
    }

    /**
     * Each interval of the load profile: the rate planned for this process (its share of the arrivals, one in N for a
     * shard of N) and the sessions that began per second, up to {@code untilNano} (the end, or the stop).
     */
    static List<IntervalLoad> figures(
            ClientConfig config, ShardPlan shard, RunClock clock, RunStats stats, long untilNano) {
        LoadProfile p = config.profile();
        List<IntervalLoad> out = new ArrayList<>();
        for (int i = 0; i < p.intervals(); i++) {
            long s = clock.intervalStartNano(i);
            long e = Math.min(clock.intervalEndNano(i), untilNano);
            double seconds = Math.max(0, e - s) / 1e9;
            double share = 1.0 / shard.count();
            double begun = stats.totals().interval(i).sessionsBegun();
            out.add(new IntervalLoad(
                    p.startValue(i) * share,
                    p.endValue(i) * share,
                    p.meanValue(i) * share,
                    seconds > 0 ? begun / seconds : Double.NaN,
                    Double.NaN,
                    -1,
                    Double.NaN,
                    seconds));
        }
        return out;
    }
}
