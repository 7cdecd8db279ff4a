package org.rubis.client.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.LeavePolicy;
import org.rubis.client.config.LeaveRule;
import org.rubis.client.config.ShardPlan;
import org.rubis.client.profile.LoadProfile;
import org.rubis.client.report.IntervalLoad;
import org.rubis.client.workload.SessionRandom;
import org.rubis.client.workload.WorkloadModel;

/**
 * The closed population over the run's time line: which emulated users are wanted when, and when each one actually
 * left. Without a load profile every user is wanted from its arrival in the up ramp to the end. With one, the up ramp
 * brings in the users the profile wants at the start of the run phase, as the stationary start does, and from then on
 * user {@code u} is wanted while the profile's value is above {@code u + 1/2} ({@link LoadProfile#nextChange}): a
 * function of the profile alone, so a shard's users are its share at every point.
 *
 * <p>A user that joins starts as the stationary start does, its first request after a think time from its join
 * instant (no burst of first requests). A user that leaves finishes its session within the grace
 * ({@link LeavePolicy#GRACEFUL}: it leaves when the session ends, or at its first think time after the grace), however
 * long it lasts ({@link LeavePolicy#END_OF_SESSION}), or cuts it at its next think time ({@link LeavePolicy#NEXT_THINK});
 * a user thinking between two sessions leaves at once. Its departure is recorded with the instant the profile let it
 * go: the users above the plan at any instant are the ones between those two instants, which the summary reports per
 * interval.
 *
 * <p>A user that leaves during a think time is in the system, thinking, until it departs: the instant the profile let
 * it go (between sessions, or next-think), or the end of the grace. That think time is recorded cut at the departure
 * ({@link Recorder#cutThink}): the decision to leave depends on the think time drawn (a long one crosses the leave
 * instant), so leaving it out, or counting it whole, would bias the interval's mean think time and Little's law.
 */
final class Population {

    private final ClientConfig config;
    private final RunClock clock;
    private final ShardPlan shard;
    private final LoadProfile profile;
    /** Users wanted at the start of the run phase: the up ramp brings them in. */
    private final int initial;
    /** {user, the instant the profile let it go, the instant it left}, in the order they left. */
    private final List<long[]> departures = new ArrayList<>();

    private final List<User> users = new ArrayList<>();

    Population(ClientConfig config, RunClock clock, ShardPlan shard) {
        this.config = config;
        this.clock = clock;
        this.shard = shard;
        this.profile = config.profile();
        this.initial = profile == null ? config.users() : (int) Math.round(profile.startValue(0));
    }

    /** The users that may ever be wanted: 0 .. this - 1 (the profile's peak). */
    int users() {
        return config.users();
    }

    /**
     * The instant after which a user let go at {@code leaveAt} leaves at its next think time: the end of the grace
     * ({@link LeaveRule#graceNs}), {@link Long#MAX_VALUE} when it always finishes its session.
     */
    long deadline(long leaveAt) {
        long grace = config.leave().graceNs();
        return leaveAt > Long.MAX_VALUE - grace ? Long.MAX_VALUE : leaveAt + grace;
    }

    /** User {@code u}'s first join (nanoTime), or {@link Long#MAX_VALUE} when the profile never wants it. */
    long firstJoin(int u) {
        if (u < initial) {
            if (clock.stationary()) {
                return clock.startNano() + (long) ((clock.upEndNano() - clock.startNano()) * ((u + 0.5) / initial));
            }
            return clock.startNano();
        }
        return fromProfile(profile == null ? Long.MAX_VALUE : profile.nextChange(u, 0, true));
    }

    /** The first instant at or after {@code from} at which user {@code u} is no longer wanted, or {@link Long#MAX_VALUE}. */
    long leave(int u, long from) {
        return profile == null ? Long.MAX_VALUE : fromProfile(profile.nextChange(u, toProfile(from), false));
    }

    /** The first instant at or after {@code from} at which user {@code u} is wanted, or {@link Long#MAX_VALUE}. */
    long join(int u, long from) {
        return profile == null ? Long.MAX_VALUE : fromProfile(profile.nextChange(u, toProfile(from), true));
    }

    /**
     * The instant a user that joins at {@code at} sends its first request: a think time after it, from its own stream
     * ({@code joins}: how many times it joined before; the first join's stream is the one runs without a profile use).
     */
    long firstRequest(int u, int joins, long at) {
        long base = SessionRandom.mix(config.seed() ^ SessionRandom.mix(u + 1L));
        SplittableRandom r = new SplittableRandom(
                joins == 0 ? base : SessionRandom.mix(base ^ SessionRandom.mix(0x9E3779B97F4A7C15L * joins)));
        long think = mixAt(at).thinkTime().nanos(0, r);
        if (!clock.stationary() && joins == 0 && u < initial) {
            return at
                    + clock.scaleThink(
                            think, at); // the original's start: one think time slowed by the up ramp's factor
        }
        return clock.thinkEnd(think, at);
    }

    /** The mix new sessions take at {@code nano}: the profile's in force then, else the run's. */
    WorkloadModel mixAt(long nano) {
        return mixAt(config, clock, nano);
    }

    /** The mix a session starting at {@code nano} takes (closed or hybrid): the profile's in force then, else the run's. */
    static WorkloadModel mixAt(ClientConfig config, RunClock clock, long nano) {
        LoadProfile p = config.profile();
        if (p == null) {
            return config.workload();
        }
        return p.points()
                .get(p.intervalAt(Math.max(0, nano - clock.upEndNano())))
                .mix();
    }

    /** A user that has started (its state, for the summary's count of users still leaving at the end). */
    synchronized void started(User user) {
        users.add(user);
    }

    /** User {@code u}, let go at {@code leftAt} by the profile, left at {@code departed}. */
    synchronized void departed(int u, long leftAt, long departed) {
        departures.add(new long[] {u, leftAt, departed});
    }

    private long fromProfile(long t) {
        return t == Long.MAX_VALUE ? Long.MAX_VALUE : clock.upEndNano() + t;
    }

    private long toProfile(long nano) {
        return Math.max(0, nano - clock.upEndNano());
    }

    /** One emulated user's place in the population: when the profile lets it go next, when its last session ended. */
    static final class User implements SessionStep.Leaving {
        final int u;
        private final Population population;
        /** Joins before the current one. */
        int joins;
        /** When the profile lets it go next (nanoTime), {@link Long#MAX_VALUE} when never. */
        volatile long leaveAt;
        /** The end of its last session (or its join instant before its first). */
        volatile long lastEnd;
        /** The instant it left during its session's think time, until {@link #nextStart} takes it; else MIN_VALUE. */
        private long cutAt = Long.MIN_VALUE;

        User(Population population, int u, long joinedAt) {
            this.population = population;
            this.u = u;
            this.leaveAt = population.leave(u, joinedAt);
            this.lastEnd = joinedAt;
        }

        @Override
        public long leavesDuring(long doneNano, long nextNano) {
            long l = leaveAt;
            while (population.deadline(l) <= nextNano) {
                // Past its deadline by its next request: it leaves at the deadline, or now if that has passed (a reply
                // that came after it), unless the profile wants it back by then (a dip shorter than the grace).
                long cut = Math.max(population.deadline(l), doneNano);
                long back = population.join(u, l);
                if (back > cut) {
                    leaveAt = l;
                    cutAt = cut;
                    return cut;
                }
                l = population.leave(u, back);
            }
            return -1;
        }

        @Override
        public long departsBetweenSessions(long doneNano, long nextNano) {
            long l = leaveAt;
            while (l <= nextNano) {
                long back = population.join(u, l);
                if (back > Math.max(l, doneNano)) {
                    return Math.max(l, doneNano); // as nextStart will record it
                }
                l = population.leave(u, back);
            }
            return -1;
        }

        @Override
        public void sessionEnded(long lastDoneNano) {
            lastEnd = lastDoneNano;
        }

        /**
         * Where the user's next session starts, meant for {@code at}: there when the profile still wants the user then;
         * else the user leaves (now, or at the end of the session it was in) and comes back when the profile wants it
         * again, after a think time; {@link Long#MAX_VALUE} when it never does before {@code end}.
         */
        long nextStart(long at, long end) {
            long start = at;
            while (leaveAt <= start) {
                long departs = Math.max(Math.max(leaveAt, lastEnd), cutAt);
                cutAt = Long.MIN_VALUE;
                long back = population.join(u, leaveAt);
                if (back <= departs) {
                    if (back > leaveAt) {
                        population.departed(u, leaveAt, back); // above the plan until the profile wanted it back
                    }
                    leaveAt = population.leave(u, back); // wanted again before it could go: it stays
                    continue;
                }
                population.departed(u, leaveAt, departs);
                if (back >= end) {
                    leaveAt = Long.MAX_VALUE;
                    return Long.MAX_VALUE;
                }
                joins++;
                lastEnd = back;
                leaveAt = population.leave(u, back);
                start = population.firstRequest(u, joins, back);
            }
            return start;
        }
    }

    /**
     * Each interval's planned and achieved users, this process's share, over the run phase up to {@code untilNano} (the
     * end, or the stop): planned from the profile, achieved adding the users that stayed after it let them go. A user
     * still in the session it was in when the profile let it go is above the plan until the profile wants it back (then
     * it is among the planned users, not counted again as lag) or until {@code untilNano}, each time it is let go.
     */
    synchronized List<IntervalLoad> figures(long untilNano) {
        List<long[]> lags = new ArrayList<>(departures);
        for (User user : users) {
            long l = user.leaveAt;
            while (l < untilNano && l >= clock.upEndNano()) {
                long back = join(user.u, l);
                lags.add(new long[] {user.u, l, Math.min(back, untilNano)});
                l = back >= untilNano ? Long.MAX_VALUE : leave(user.u, back);
            }
        }
        int n = clock.intervals();
        List<IntervalLoad> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long s = clock.intervalStartNano(i);
            long e = Math.min(clock.intervalEndNano(i), untilNano);
            if (e <= s) {
                out.add(new IntervalLoad(planned(s), planned(s), planned(s), Double.NaN, Double.NaN, 0, 0, 0));
                continue;
            }
            double plannedUserNs = wantedUserNs(value(s), value(e - 1), s, e);
            double lagUserNs = 0;
            double lagMaxS = 0;
            List<long[]> events = new ArrayList<>();
            for (long[] d : lags) {
                long a = Math.max(s, d[1]);
                long b = Math.min(e, d[2]);
                if (b > a) {
                    lagUserNs += b - a;
                    events.add(new long[] {a, 1});
                    events.add(new long[] {b, -1});
                }
                if (d[1] >= s && d[1] < e) {
                    lagMaxS = Math.max(lagMaxS, (d[2] - d[1]) / 1e9);
                }
            }
            events.sort((x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]));
            long now = 0;
            long max = 0;
            for (long[] ev : events) {
                now += ev[1];
                max = Math.max(max, now);
            }
            double len = e - s;
            double planned = plannedUserNs / len;
            out.add(new IntervalLoad(
                    planned(s),
                    planned(clock.intervalEndNano(i) - 1),
                    planned,
                    planned + lagUserNs / len,
                    lagUserNs / len,
                    max,
                    lagMaxS,
                    len / 1e9));
        }
        return out;
    }

    /** This process's users wanted at {@code nano} (in the run phase). */
    private double planned(long nano) {
        return owned(wantedBelow(value(nano)));
    }

    private double value(long nano) {
        return profile == null ? config.users() : profile.valueAt(toProfile(nano));
    }

    /** How many users a value wants: user u is wanted while the value is above u + 1/2. */
    private static long wantedBelow(double v) {
        return Math.max(0, (long) Math.ceil(v - 0.5));
    }

    /** This process's users among users 0 .. m - 1. */
    private long owned(long m) {
        int n = shard.count();
        int i = shard.index();
        return m > i ? (m - 1 - i) / n + 1 : 0;
    }

    /**
     * The user-time (ns) this process's users are wanted within [{@code s}, {@code e}), over which the value goes
     * linearly from {@code a} to {@code b}: the users below both ends all along, each user between them from or until
     * its crossing.
     */
    private double wantedUserNs(double a, double b, long s, long e) {
        double len = e - s;
        double lo = Math.min(a, b);
        double hi = Math.max(a, b);
        long always = wantedBelow(lo);
        double total = owned(always) * len;
        for (long u = always; u < wantedBelow(hi); u++) {
            if (shard.owns(u)) {
                double h = u + 0.5;
                total += len * (b > a ? (b - h) / (b - a) : (a - h) / (a - b));
            }
        }
        return total;
    }
}
