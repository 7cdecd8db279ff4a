package org.rubis.format.schema;

/**
 * summary.json {@code clock}: the run's epoch anchor, which the wire check and the merge line other clocks up with.
 */
public record Clock(long anchorEpochNs, long anchorBracketNs, long runStartEpochNs) {}
