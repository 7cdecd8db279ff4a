package org.rubis.format.schema;

/**
 * summary.json {@code probe}: the reference probe's own figures when there was no capture.
 */
public record Probe(
        long requests,
        long errors,
        double ratePerS,
        String mode,
        String path,
        long anchorBracketNs,
        double responseP50Us,
        double responseP99Us) {}
