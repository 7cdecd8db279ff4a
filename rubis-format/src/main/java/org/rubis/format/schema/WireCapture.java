package org.rubis.format.schema;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * {@code wire_check.capture}: what the capture itself reported (capture-stats.json).
 */
public record WireCapture(
        long kernelDrops,
        long interfaceDrops,
        long packetsWritten,
        @JsonProperty("interface") String interfaceName) {}
