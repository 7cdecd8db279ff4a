package org.rubis.format.schema;

import java.util.List;

/**
 * summary.json {@code end_of_run_stall}: sessions still active well into the end-of-run wait.
 */
public record EndOfRunStall(
        double afterS,
        long activeSessions,
        double busyCores,
        long threads,
        List<String> files,
        long activeSessionsWhenTheWaitEnded) {}
