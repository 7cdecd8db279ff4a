package org.rubis.format.schema;

import java.util.Map;

/**
 * summary.json {@code server}: a copy of the embedded server's {@code server/stats.json} (summed over servers when
 * merged).
 */
public record ServerStats(
        String model,
        long uptimeMs,
        long requests,
        long errorPages,
        long connectionsAccepted,
        long currentConnections,
        long maxConcurrentConnections,
        long probeRequests,
        long probeConnections,
        long tlsFullHandshakes,
        long tlsResumedHandshakes,
        RequestsPerConnection requestsPerConnection,
        Map<String, Long> byInteraction,
        Map<String, Long> faults,
        Long servers) {}
