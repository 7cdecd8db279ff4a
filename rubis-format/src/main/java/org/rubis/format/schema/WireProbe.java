package org.rubis.format.schema;

import java.util.Map;

/**
 * {@code wire_check.probe}: the reference probe's requests on the wire.
 */
public record WireProbe(long requests, long matched, long connections, Map<String, Quantiles> clientMinusWireUs) {}
