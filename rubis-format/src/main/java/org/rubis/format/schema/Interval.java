package org.rubis.format.schema;

/**
 * One of summary.json {@code intervals}: a load profile's interval with its own figures and verdict.
 */
public record Interval(
        long index,
        double fromS,
        double toS,
        long line,
        String mix,
        double thinkScale,
        boolean flat,
        long startEpochNs,
        long endEpochNs,
        double seconds,
        Double usersPlanned,
        Double usersPlannedStart,
        Double usersPlannedEnd,
        Double usersAchieved,
        double usersLagMean,
        long usersLagMax,
        Double lagMaxS,
        long requests,
        long errors,
        double throughputRps,
        double attemptedRps,
        Latency responseTimeMs,
        Quantiles sendLatenessMs,
        IntervalHealth clientHealth,
        StationarityJson stationarity,
        Double ratePlanned,
        Double ratePlannedStart,
        Double ratePlannedEnd,
        Double rateAchieved,
        long sessionsBegun,
        long sessionsDropped) {}
