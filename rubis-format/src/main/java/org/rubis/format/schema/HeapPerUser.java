package org.rubis.format.schema;

import java.util.List;

/**
 * summary.json {@code heap_per_user}: the live heap an emulated user costs ({@code run --heap-per-user}).
 */
public record HeapPerUser(
        long users,
        long liveBytesBeforeRun,
        long liveBytesWithUsers,
        long liveBytesAfterSessions,
        long bytesPerUser,
        long statisticsBytesGrown,
        List<TopClass> topClasses,
        String notMeasured) {}
