package org.rubis.format.schema;

/**
 * summary.json {@code phases_ms}: the planned length of each phase.
 */
public record PhasesMs(long up, long run, long down) {}
