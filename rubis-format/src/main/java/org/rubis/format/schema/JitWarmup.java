package org.rubis.format.schema;

import java.util.Map;

/**
 * summary.json {@code jit_warmup}: the JIT warm-up before the run (docs/JIT-WARMUP.md).
 */
public record JitWarmup(
        String setting,
        String status,
        String backend,
        long requests,
        long errors,
        Map<String, Long> otherRequests,
        double seconds,
        long compilationMs) {}
