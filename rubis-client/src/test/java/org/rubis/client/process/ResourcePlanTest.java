package org.rubis.client.process;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rubis.client.config.ConfigLoader;

/**
 * The connections a run's plan counts come from each backend's connection policy (its {@code BackendKind}): one per
 * session for dedicated and netty, the pool's bound for pooled, unknown (0) for legacy's JDK cache; with hybrid
 * arrivals the cap on concurrent sessions bounds the sessions that have their own connection.
 */
class ResourcePlanTest {

    @ParameterizedTest(name = "{0}, {1}: {2}")
    @CsvSource({
            "legacy, closed, 0", "pooled, closed, 4", "dedicated, closed, 10", "netty, closed, 10",
            "legacy, hybrid, 0", "pooled, hybrid, 0", "dedicated, hybrid, 6", "netty, hybrid, 6"})
    void connectionsHeldFollowTheBackendsPolicy(String backend, String arrivals, int connections) {
        Map<String, String> p = new HashMap<>(Map.of("client_backend", backend, "client_pool_max", "4",
                "workload_number_of_clients_per_node", "10", "workload_arrivals", arrivals));
        if (arrivals.equals("hybrid")) {
            p.put("workload_max_concurrent_sessions", "6");
        }
        assertEquals(connections, ResourcePlan.connections(ConfigLoader.load((Path) null, p)));
    }
}
