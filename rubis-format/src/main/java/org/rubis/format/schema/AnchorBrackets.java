package org.rubis.format.schema;

/**
 * {@code wire_check.anchor_bracket_ns}: the clock anchors' uncertainty, client and probe.
 */
public record AnchorBrackets(long client, Long probe) {}
