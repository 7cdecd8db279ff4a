package org.rubis.format.schema;

import java.util.List;
import java.util.Map;

/**
 * summary.json {@code client_health}: the client's own load and the verdict on whether it, the host or the
 * server limited the run.
 */
public record ClientHealth(
        double cpuMeanCores,
        double cpuPeakCores,
        double cpuSeconds,
        long cores,
        double cpuUsPerRequest,
        double runCpuSeconds,
        double runCpuCores,
        double runCpuUsPerRequest,
        Double runSystemCpuSeconds,
        Double runSystemCpuUsPerRequest,
        Map<String, Double> runCpuSecondsByThread,
        Map<String, Double> runCpuUsPerRequestByThread,
        Double fixedCpuCores,
        Double fixedCpuCoresError,
        double fixedCpuWindowS,
        long fixedCpuWindowStartEpochMs,
        long fixedCpuWindowEndEpochMs,
        String fixedCpuMethod,
        Double requestCpuUs,
        Double runRequestCpuUs,
        long gcCount,
        long gcTimeMs,
        long gcPauses,
        long gcPauseTotalMs,
        long gcMaxPauseMs,
        Long gcPausesLogged,
        long gcWindowStartEpochMs,
        long gcWindowEndEpochMs,
        long peakThreads,
        long peakHeapBytes,
        long maxHeapBytes,
        Quantiles sendLatenessMs,
        Quantiles runSendLatenessMs,
        double hostOtherCpuCores,
        double hostOtherCpuPeakCores,
        double hostStealCores,
        double hostProcsRunningMean,
        Double serverCpuCores,
        String serverCpuOf,
        Double wakeupLateP99Ms,
        boolean saturated,
        List<Cause> causes,
        boolean accuracyMeasured,
        String verdict,
        String sumsOverShards,
        List<ShardHealth> shards,
        Quantiles sessionStartLatenessMs) {}
