package org.rubis.client.engine;

import java.util.concurrent.CountDownLatch;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ShardPlan;
import org.rubis.client.workload.RequestGenerator;
import org.rubis.client.workload.UserSession;
import org.rubis.format.run.StopCause.Kind;

/**
 * Closed mode: emulated users, each running sessions back to back until the end or its session count; with a load
 * profile, each while the profile wants it ({@link Population}). A shard runs the users it owns
 * ({@link ShardPlan#owns}); user numbers, session ids and random streams stay global.
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
    private final Population population;

    ClosedDispatch(
            ClientConfig config,
            ShardPlan shard,
            RunClock clock,
            StopSignal stop,
            RunCounters counters,
            RequestGenerator generator,
            Population population) {
        this.shard = shard;
        this.config = config;
        this.clock = clock;
        this.stop = stop;
        this.counters = counters;
        this.generator = generator;
        this.population = population;
    }

    /** Starts every user the run ever wants; the latch opens when all have finished. */
    CountDownLatch start(SessionExecutor executor) {
        int owned = 0;
        for (int u = 0; u < population.users(); u++) {
            owned += shard.owns(u) && population.firstJoin(u) != Long.MAX_VALUE ? 1 : 0;
        }
        CountDownLatch done = new CountDownLatch(owned);
        for (int u = 0; u < population.users() && !stop.stopped(); u++) {
            long join = population.firstJoin(u);
            if (!shard.owns(u) || join == Long.MAX_VALUE) {
                continue;
            }
            Population.User user = new Population.User(population, u, join);
            population.started(user);
            try {
                executor.start(
                        "user-" + u,
                        u,
                        population.firstRequest(u, 0, join),
                        (k, at) -> nextSession(user, k, at),
                        done::countDown);
                counters.usersStarted++;
            } catch (OutOfMemoryError e) {
                RunGuard.release();
                stop.stop(
                        Kind.OUT_OF_MEMORY,
                        "could not create the thread of emulated user " + (u + 1) + " of " + population.users() + ": "
                                + e.getMessage() + "; " + counters.usersStarted + " users were running");
                break;
            }
        }
        return done;
    }

    /**
     * The user's session {@code k}, meant for {@code at}: later when the profile let the user go before then and wants
     * it back; none when the run stopped, the user ran its sessions, or the profile does not want it back before the
     * end.
     */
    private SessionExecutor.Start nextSession(Population.User user, long k, long at) {
        if (stop.stopped() || config.sessionsPerUser() != 0 && k >= config.sessionsPerUser()) {
            return null;
        }
        long start = user.nextStart(at, clock.endNano());
        if (start == Long.MAX_VALUE) {
            return null;
        }
        UserSession s = new UserSession(population.mixAt(start), generator, sessionId(user.u, k), config.seed());
        counters.sessionsStarted.incrementAndGet();
        return new SessionExecutor.Start(s, start, user);
    }

    /** Session ids are deterministic: exposed for tests and analysis. */
    static long sessionId(int user, long k) {
        return user * SESSIONS_PER_USER + k;
    }
}
