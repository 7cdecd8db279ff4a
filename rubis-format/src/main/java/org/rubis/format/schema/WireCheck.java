package org.rubis.format.schema;

import java.util.List;
import java.util.Map;

/**
 * summary.json {@code wire_check}: the end-of-run check against the packet capture (docs/WIRE.md).
 */
public record WireCheck(
        String status,
        String pcap,
        boolean complete,
        long packets,
        boolean truncated,
        long timestampResolutionNs,
        long wireRequests,
        long clientRequests,
        long matched,
        long clientOnly,
        long wireOnly,
        long serverRequests,
        long serverMatched,
        WireConnections connections,
        long retransmissions,
        long sequenceGaps,
        long maxRequestsInFlight,
        WireCapture capture,
        Map<String, Map<String, Quantiles>> clientMinusWireUs,
        AnchorBrackets anchorBracketNs,
        WireAccuracy accuracy,
        List<String> notes,
        WireProbe probe,
        double floorUs,
        Map<String, Double> overheadAboveFloorP50Us,
        String reason,
        String publishedTimes) {}
