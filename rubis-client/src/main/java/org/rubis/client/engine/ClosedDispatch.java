package org.rubis.client.engine;

import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ShardPlan;
import org.rubis.client.workload.RequestGenerator;
import org.rubis.client.workload.SessionRandom;
import org.rubis.client.workload.UserSession;
import org.rubis.format.StopCause.Kind;

/**
 * Closed mode: N emulated users, each running sessions back to back until the end or its session
 * count. A shard runs the users it owns ({@link ShardPlan#owns}); user numbers, session ids and
 * random streams stay global.
 */
final class ClosedDispatch {

    /** Session ids are emulated user * this + session number of that user. */
    static final long SESSIONS_PER_USER = 1_000_000L;

    private final ClientConfig config;
    private final RunClock clock;
    private final StopSignal stop;
    private final RunCounters counters;
    private final RequestGenerator generator;
    private final ShardPlan shard;

    ClosedDispatch(ClientConfig config, ShardPlan shard, RunClock clock, StopSignal stop, RunCounters counters, RequestGenerator generator) {
        this.shard = shard;
        this.config = config;
        this.clock = clock;
        this.stop = stop;
        this.counters = counters;
        this.generator = generator;
    }

    /** Starts every user; the latch opens when all have finished. */
    CountDownLatch start(SessionExecutor executor) {
        int owned = 0;
        for (int u = 0; u < config.users(); u++) {
            owned += shard.owns(u) ? 1 : 0;
        }
        CountDownLatch done = new CountDownLatch(owned);
        for (int u = 0; u < config.users() && !stop.stopped(); u++) {
            if (!shard.owns(u)) {
                continue;
            }
            int user = u;
            try {
                executor.start("user-" + u, u, firstArrival(u), k -> nextSession(user, k), done::countDown);
                counters.usersStarted++;
            } catch (OutOfMemoryError e) {
                HeapReserve.release();
                stop.stop(
                        Kind.OUT_OF_MEMORY,
                        "could not create the thread of emulated user " + (u + 1) + " of " + config.users() + ": "
                                + e.getMessage() + "; " + counters.usersStarted + " users were running");
                break;
            }
        }
        return done;
    }

    private UserSession nextSession(int user, long k) {
        if (stop.stopped() || config.sessionsPerUser() != 0 && k >= config.sessionsPerUser()) {
            return null;
        }
        UserSession s = new UserSession(config.workload(), generator, sessionId(user, k), config.seed());
        counters.sessionsStarted.incrementAndGet();
        return s;
    }

    /**
     * Think times apply from the first request, never all users at once (the original's start-up
     * burst). Original ramp mode: every user arrives at the start and sends after one think time
     * of its own, scaled by the up-ramp factor. Stationary mode: user u arrives at (u + 1/2)/N of
     * the up ramp and sends after a think time from there ({@link RunClock#thinkEnd}), so the whole
     * population is thinking or working when the run phase starts.
     */
    private long firstArrival(int user) {
        SplittableRandom r = new SplittableRandom(SessionRandom.mix(config.seed() ^ SessionRandom.mix(user + 1L)));
        long think = config.workload().thinkTime().nanos(0, r);
        if (!clock.stationary()) {
            return clock.startNano() + clock.scaleThink(think, clock.startNano());
        }
        long arrive = clock.startNano() + (long) ((clock.upEndNano() - clock.startNano()) * ((user + 0.5) / config.users()));
        return clock.thinkEnd(think, arrive);
    }

    /** Session ids are deterministic: exposed for tests and analysis. */
    static long sessionId(int user, long k) {
        return user * SESSIONS_PER_USER + k;
    }
}
