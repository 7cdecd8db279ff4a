package org.rubis.analysis.wire;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The uncertainty of the epoch anchors behind a run's client instants: each process maps its
 * System.nanoTime() to the wall clock through one anchor read inside a nanoTime bracket, and the
 * bracket's width bounds the anchor's error. The send/receive split of client minus wire compares
 * those instants with the capture's, so each side is off by up to half the bracket (their sum, a
 * difference of durations, is exact). -1: not known (a run written before anchors were recorded).
 *
 * @param clientNs the run clock's bracket (summary.json {@code clock.anchor_bracket_ns})
 * @param probeNs  the reference probe's bracket
 */
public record AnchorBrackets(long clientNs, long probeNs) {

    public static final AnchorBrackets UNKNOWN = new AnchorBrackets(-1, -1);
    /** Above this the split's sides carry a note: half of it is a visible share of a 50 us error. */
    public static final long NOTE_ABOVE_NS = 5_000;

    /** The brackets recorded in a run's summary.json (null or missing keys: unknown). */
    public static AnchorBrackets fromSummary(JsonNode summary) {
        if (summary == null) {
            return UNKNOWN;
        }
        long client = summary.path("clock").path("anchor_bracket_ns").asLong(-1);
        long probe = summary.path("wire_check")
                .path("anchor_bracket_ns")
                .path("probe")
                .asLong(summary.path("probe").path("anchor_bracket_ns").asLong(-1));
        return new AnchorBrackets(client, probe);
    }
}
