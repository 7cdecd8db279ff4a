package org.rubis.client.workload;

/**
 * Everything a session needs to walk the transition table and build its requests; immutable and
 * shared by all sessions of a run.
 *
 * @param oneBasedIds draw category and region ids as 1..n (the database's ids) instead of the
 *                    original's 0..n-1, which makes about one category search in twenty match nothing
 */
public record WorkloadModel(
        TransitionTable table,
        TransitionMode mode,
        TransitionSampler sampler,
        ThinkTime thinkTime,
        UrlLayout layout,
        WorkloadData data,
        DatabasePolicy policy,
        int itemsPerPage,
        int maxTransitions,
        boolean oneBasedIds) {

    public static WorkloadModel of(TransitionTable table, TransitionMode mode, boolean tpcwThinkTime, UrlLayout layout,
                                   WorkloadData data, DatabasePolicy policy, int itemsPerPage, int maxTransitions,
                                   boolean oneBasedIds) {
        return new WorkloadModel(table, mode, new TransitionSampler(table, mode), new ThinkTime(tpcwThinkTime, table),
                layout, data, policy, itemsPerPage, maxTransitions, oneBasedIds);
    }
}
