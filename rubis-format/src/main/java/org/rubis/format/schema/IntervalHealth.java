package org.rubis.format.schema;

import java.util.List;

/**
 * An interval's {@code client_health}: the verdict's rule applied to the interval's samples.
 */
public record IntervalHealth(
        double cpuMeanCores,
        double hostOtherCpuCores,
        Double serverCpuCores,
        long gcMaxPauseMs,
        long samples,
        List<Cause> causes,
        List<String> findings) {}
