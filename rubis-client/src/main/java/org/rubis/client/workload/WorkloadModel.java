package org.rubis.client.workload;

/**
 * Everything a session needs to walk the transition table and build its requests; immutable and
 * shared by all sessions of a run.
 *
 * @param oneBasedIds draw category and region ids as 1..n (the database's ids) instead of the
 *                    original's 0..n-1, which makes about one category search in twenty match nothing
 * @param errorPagesWithoutThink consecutive ERROR pages that restart at Home at once, as the original; after more,
 *                    the restart waits a think time (a target whose every page says ERROR would be hammered)
 * @param writeSalt   the run's salt in what it writes (nicknames, item names, comments): a persistent database keeps
 *                    what earlier runs wrote, and the same seed would register the same nicknames again; the salt
 *                    makes them differ per run while the request sequence still follows the seed ("": none)
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
        int errorPagesWithoutThink,
        String writeSalt) {

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
                errorPagesWithoutThink,
                "");
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
                errorPagesWithoutThink,
                writeSalt);
    }

    /** This workload writing with {@code salt} ({@link #writeSalt()}). */
    public WorkloadModel withWriteSalt(String salt) {
        return new WorkloadModel(
                table,
                mode,
                sampler,
                thinkTime,
                layout,
                data,
                policy,
                itemsPerPage,
                maxTransitions,
                oneBasedIds,
                errorPagesWithoutThink,
                salt);
    }
}
