package org.rubis.format.schema;

import java.util.Map;

/**
 * {@code wire_check.connections}: connections as the capture, the client and the server count them.
 */
public record WireConnections(
        long wire,
        long wireWithRequests,
        long wireMaxOpen,
        long clientOpened,
        long clientDistinct,
        long server,
        Map<String, Long> closeKinds) {}
