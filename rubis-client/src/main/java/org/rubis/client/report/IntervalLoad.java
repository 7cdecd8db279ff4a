package org.rubis.client.report;

/**
 * The load one interval of a load profile planned and the load the run achieved in it, as this process ran its share
 * of the workload (a shard's share of the users or of the rate; the merge adds the shards up).
 *
 * <p>Closed arrivals count users in the system: planned, those the profile wants; achieved, those that were there
 * (thinking or in a session), which is the planned number plus the users still finishing their session after the
 * profile let them go. Hybrid arrivals count sessions started per second.
 *
 * @param plannedStart  the profile's load at the interval's start (users wanted, or sessions per second)
 * @param plannedEnd    at its end (a ramp's other end; a step's same value)
 * @param plannedMean   its mean over the interval
 * @param achievedMean  the load achieved, mean over the interval (closed: users; hybrid: sessions begun per second)
 * @param lagMeanUsers  closed: users above the plan, mean over the interval (NaN for hybrid)
 * @param lagMaxUsers   closed: the most users above the plan at once (-1 for hybrid)
 * @param lagMaxSeconds closed: the longest a user stayed after the profile let it go (NaN for hybrid)
 * @param seconds       the interval's length as run (shorter than planned in a run stopped early)
 */
public record IntervalLoad(
        double plannedStart,
        double plannedEnd,
        double plannedMean,
        double achievedMean,
        double lagMeanUsers,
        long lagMaxUsers,
        double lagMaxSeconds,
        double seconds) {}
