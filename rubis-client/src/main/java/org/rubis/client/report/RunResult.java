package org.rubis.client.report;

import java.nio.file.Path;
import java.util.List;
import org.rubis.client.config.ExecutionModel;
import org.rubis.client.config.ShardPlan;
import org.rubis.format.run.StopCause;

/**
 * What the engine knows at the end of a run, handed to {@link Summary} in one piece: how it ended,
 * what was started, what was logged, and the run's time line.
 *
 * @param dir             the run directory
 * @param backend         backend name as logged in requests.csv
 * @param execution       threads or event loops
 * @param stop            why the run stopped: {@link StopCause#END}, or what stopped it early (null: it was never
 *                        stopped)
 * @param invalid         the run did not measure what it claims (out of memory, unreachable target...), by its first
 *                        stop or a later one
 * @param arrivals        the arrival process in words
 * @param startEpochNs    the run's start (epoch ns)
 * @param runSeconds      seconds of the measured phase actually run (less than planned when stopped early)
 * @param logged          request records written
 * @param lost            records lost (log writer failure)
 * @param shard           which part of the workload this process ran, and from which instant
 * @param anchorEpochNs   the wall clock read together with the run's nanoTime origin
 * @param runStartEpochNs when the run began on this process's anchored clock (after the wait for the start instant)
 * @param anchorBracketNs the anchor's uncertainty: the nanoTime bracket around its wall-clock reading (ns)
 * @param intervals       with a load profile, each interval's planned and achieved load (this process's share); else
 *                        empty
 * @param intervalStartsEpochNs the profile's intervals' starts on the run's clock (epoch ns), then the run phase's end
 */
public record RunResult(
        Path dir,
        String backend,
        ExecutionModel execution,
        StopCause stop,
        boolean invalid,
        String arrivals,
        long sessionsStarted,
        long sessionsDelayed,
        long sessionsDropped,
        int usersStarted,
        long peakActive,
        long logged,
        long lost,
        long startEpochNs,
        double runSeconds,
        ShardPlan shard,
        long anchorEpochNs,
        long runStartEpochNs,
        long anchorBracketNs,
        List<IntervalLoad> intervals,
        long[] intervalStartsEpochNs) {

    /** Whether the run reached the end of its planned phases and nothing made it invalid since. */
    public boolean complete() {
        return stop != null && stop.kind() == StopCause.Kind.END && !invalid;
    }

    /** Whether the target answered, then stopped accepting connections. */
    public boolean targetDied() {
        return stop != null && stop.kind() == StopCause.Kind.TARGET_DIED;
    }

    /** The stop reason in words, null when the run was never stopped. */
    public String stopReason() {
        return stop == null ? null : stop.reason();
    }
}
