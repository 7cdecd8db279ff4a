package org.rubis.format.schema;

/**
 * {@code kernel_timestamps.anchor}: how {@code CLOCK_REALTIME} maps to the run's clock.
 */
public record KernelAnchor(long realtimeMinusNanotimeNs, long uncertaintyNs, long driftAtEndNs) {}
