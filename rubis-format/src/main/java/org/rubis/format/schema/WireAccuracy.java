package org.rubis.format.schema;

/**
 * {@code wire_check.accuracy}: the one accuracy rule's inputs and outcome (docs/WIRE.md).
 */
public record WireAccuracy(
        boolean within,
        double limitUs,
        double wireMedianResponseUs,
        double meanUs,
        double p99Us,
        long requests,
        Cause cause,
        String rule,
        String verdict,
        double floorMeanUs,
        double reusedMeanUs,
        double aboveFloorMeanUs,
        boolean floorExplains) {}
