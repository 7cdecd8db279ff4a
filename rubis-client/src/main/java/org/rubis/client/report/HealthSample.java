package org.rubis.client.report;

/**
 * One second of the client's own figures, as the client-health sampler took them: what a live view shows beside the
 * requests (client CPU, heap, file descriptors, garbage collection). Cumulative figures are totals since the JVM
 * started; the live view takes their differences.
 *
 * @param epochMs        when it was taken
 * @param cpuCores       the process's CPU over the last second, in cores
 * @param cpuSeconds     the process's CPU since it started
 * @param heapUsedBytes  the heap in use
 * @param heapMaxBytes   the heap's limit
 * @param threads        live threads
 * @param activeSessions sessions in progress
 * @param openFiles      open file descriptors (-1 when unknown)
 * @param gc             the collectors' totals since the JVM started
 */
public record HealthSample(
        long epochMs,
        double cpuCores,
        double cpuSeconds,
        long heapUsedBytes,
        long heapMaxBytes,
        int threads,
        long activeSessions,
        long openFiles,
        GcTotals gc) {}
