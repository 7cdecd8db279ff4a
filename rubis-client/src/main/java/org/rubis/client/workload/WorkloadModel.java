package org.rubis.client.workload;

/**
 * Everything a session needs to walk the transition table and build its requests; immutable and
 * shared by all sessions of a run.
 *
 * @param oneBasedIds draw category and region ids as 1..n (the database's ids) instead of the
 *                    original's 0..n-1, which makes about one category search in twenty match nothing
 * @param errorPagesWithoutThink consecutive ERROR pages that restart at Home at once, as the original; after more,
 *                    the restart waits a think time (a target whose every page says ERROR would be hammered)
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
        boolean oneBasedIds,
        int errorPagesWithoutThink) {

    /** The default of {@code workload_max_error_pages_without_think}. */
    public static final int ERROR_PAGES_WITHOUT_THINK = 3;

    public static WorkloadModel of(
            TransitionTable table,
            TransitionMode mode,
            boolean tpcwThinkTime,
            UrlLayout layout,
            WorkloadData data,
            DatabasePolicy policy,
            int itemsPerPage,
            int maxTransitions,
            boolean oneBasedIds,
            int errorPagesWithoutThink) {
        return new WorkloadModel(
                table,
                mode,
                new TransitionSampler(table, mode),
                new ThinkTime(tpcwThinkTime, table),
                layout,
                data,
                policy,
                itemsPerPage,
                maxTransitions,
                oneBasedIds,
                errorPagesWithoutThink);
    }

    /** This workload with another transition table (a load profile's mix): the same think times, URLs and data. */
    public WorkloadModel withTable(TransitionTable other) {
        return new WorkloadModel(
                other,
                mode,
                new TransitionSampler(other, mode),
                new ThinkTime(thinkTime.isTpcw(), other),
                layout,
                data,
                policy,
                itemsPerPage,
                maxTransitions,
                oneBasedIds,
                errorPagesWithoutThink);
    }
}
