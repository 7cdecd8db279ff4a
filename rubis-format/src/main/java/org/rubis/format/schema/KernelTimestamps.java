package org.rubis.format.schema;

/**
 * summary.json {@code kernel_timestamps}: the kernel backend's stamps and the client's cost around them.
 */
public record KernelTimestamps(
        String publishedClock,
        long requestsKernelTimes,
        long requestsUserTimes,
        long requestsWithoutTxStamp,
        KernelAnchor anchor,
        long reads,
        long readsWithoutRxStamp,
        long costsBelowZero,
        Quantiles clientSendCostUs,
        Quantiles clientReceiveCostUs) {}
