package org.rubis.server.http;

import org.rubis.format.io.Tls;

/**
 * Network settings shared by the server models.
 *
 * @param keepAliveMs          idle time after which a keep-alive connection is closed (0: never)
 * @param maxKeepAliveRequests requests after which the server closes a connection (0: unlimited)
 * @param initialWorkers       prefork: workers started at once (Apache's StartServers)
 * @param maxWorkers           prefork: upper bound of the pool (Apache's MaxClients)
 * @param minSpareWorkers      prefork: spawn more when fewer workers than this are idle
 * @param spawnDelayMs         prefork: interval between spawn rounds
 * @param backlog              accept queue length
 * @param eventThreads         event: number of event-loop threads (0: one per core)
 * @param tls                  HTTPS settings, or null for plain HTTP
 */
public record ServerSettings(
        String host,
        int port,
        int keepAliveMs,
        int maxKeepAliveRequests,
        int initialWorkers,
        int maxWorkers,
        int minSpareWorkers,
        int spawnDelayMs,
        int backlog,
        int eventThreads,
        Tls tls) {}
