package org.rubis.client.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rubis.client.backend.SourceAddresses;
import org.rubis.client.config.Arrivals;
import org.rubis.client.config.BackendKind;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.Keys;
import org.rubis.client.config.TestConfig;
import org.rubis.client.input.ConfigException;

/**
 * The connections a run's plan counts come from each backend's connection policy (its {@code BackendKind}): one per
 * session for dedicated and netty, the pool's bound for pooled, unknown (0) for legacy's JDK cache; with hybrid
 * arrivals the cap on concurrent sessions bounds the sessions that have their own connection. The ports plan of a
 * large run (18,000 connections, a range of 28,232 ports): its refusal states the rule, and on a loopback target the
 * backends that spread connections over source addresses get as many as they need instead.
 */
class ResourcePlanTest {

    @ParameterizedTest(name = "{0}, {1}: {2}")
    @CsvSource({
        "LEGACY, CLOSED, 0", "POOLED, CLOSED, 4", "DEDICATED, CLOSED, 10", "NETTY, CLOSED, 10",
        "LEGACY, HYBRID, 0", "POOLED, HYBRID, 0", "DEDICATED, HYBRID, 6", "NETTY, HYBRID, 6"
    })
    void connectionsHeldFollowTheBackendsPolicy(BackendKind backend, Arrivals arrivals, int connections) {
        TestConfig c = TestConfig.packaged()
                .set(Keys.BACKEND, backend)
                .set(Keys.POOL_MAX, 4)
                .set(Keys.USERS, 10)
                .set(Keys.ARRIVALS, arrivals);
        if (arrivals == Arrivals.HYBRID) {
            c.set(Keys.MAX_CONCURRENT_SESSIONS, 6);
        }
        assertEquals(connections, ResourcePlan.connections(c.load()));
    }

    private static final ResourcePlan ISSUE = new ResourcePlan(18_000, 1_000_000, 28_232);

    @Test
    void onLoopbackDedicatedAndNettyGetTheSourceAddressesTheyNeed() {
        assertEquals(2, ISSUE.check(true, 1, true, BackendKind.NETTY));
        assertEquals(2, ISSUE.check(true, 1, true, BackendKind.DEDICATED));
        assertEquals(3, ISSUE.check(true, 3, true, BackendKind.NETTY), "more than needed, as configured");
        assertEquals(
                1, new ResourcePlan(2_000, 1_000_000, 28_232).check(true, 1, true, BackendKind.NETTY), "one suffices");
        assertEquals(6, new ResourcePlan(100_000, 1_000_000, 28_232).check(true, 1, true, BackendKind.DEDICATED));
        assertEquals("127.0.0.2", SourceAddresses.last(2));
        assertEquals("127.0.1.44", SourceAddresses.last(300));
    }

    @Test
    void aRefusalStatesTheRule() {
        String rule =
                "18000 connections need about 27000 ephemeral ports (1.5 per connection, counting those in TIME_WAIT), more than the "
                        + "25408 a plan may take of one source address's 28232 (90 % of net.ipv4.ip_local_port_range)";
        assertEquals(
                rule
                        + ": widen net.ipv4.ip_local_port_range or use at most 16939 connections (source addresses are spread on a loopback "
                        + "target only)",
                assertThrows(ConfigException.class, () -> ISSUE.check(false, 1, false, BackendKind.NETTY))
                        .getMessage());
        assertEquals(
                rule
                        + ": the pooled backend cannot spread its connections over more source addresses; use at most 16939 connections "
                        + "(--pool-max, --users), or dedicated or netty with their own source addresses",
                assertThrows(ConfigException.class, () -> ISSUE.check(true, 1, true, BackendKind.POOLED))
                        .getMessage());
    }

    @Test
    void theChosenCountReachesTheBackendsConfiguration() {
        ClientConfig c =
                TestConfig.packaged().set(Keys.BACKEND, BackendKind.NETTY).load();
        ClientConfig more = c.withSourceAddresses(2);
        assertEquals(2, more.execution().sourceAddresses());
        assertEquals(c.withSourceAddresses(1).withSourceAddresses(2), more);
        assertEquals(c.execution().withSourceAddresses(2), more.execution());
        assertEquals(
                new SourceAddresses(2, "127.0.0.1").count(), more.execution().sourceAddresses());
    }
}
