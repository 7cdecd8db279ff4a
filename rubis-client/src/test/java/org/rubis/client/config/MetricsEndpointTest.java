package org.rubis.client.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rubis.client.input.ConfigException;

/**
 * The live view's settings: off by default, a port 1..65535, an IP address to listen on (loopback unless given), a
 * linger; a bad value is a one-line error naming the option or key and what is expected; none of them changes the
 * configuration's hash (each shard of a run serves its own port).
 */
class MetricsEndpointTest {

    private static ClientConfig load(Map<String, String> overrides, Map<String, GivenOption> options) {
        return ConfigLoader.load(null, overrides, options);
    }

    @Test
    void offByDefaultOnLoopbackWhenOn() {
        MetricsEndpoint off = load(Map.of(), Map.of()).measurement().metrics();
        assertFalse(off.on());
        MetricsEndpoint on = load(Map.of("client_metrics_port", "9400", "client_metrics_linger_ms", "30000"), Map.of())
                .measurement()
                .metrics();
        assertTrue(on.on());
        assertEquals(9400, on.port());
        assertEquals("127.0.0.1", on.address());
        assertEquals(30_000, on.lingerMs());
        assertEquals(
                "0.0.0.0",
                load(Map.of("client_metrics_port", "9400", "client_metrics_address", "0.0.0.0"), Map.of())
                        .measurement()
                        .metrics()
                        .address());
        assertEquals(
                "::1",
                load(Map.of("client_metrics_port", "1", "client_metrics_address", "::1"), Map.of())
                        .measurement()
                        .metrics()
                        .address());
    }

    @Test
    void badValuesAreOneLineErrorsNamingTheOption() {
        Map<String, GivenOption> typed = Map.of("client_metrics_port", new GivenOption("--metrics-port", "70000"));
        ConfigException range =
                assertThrows(ConfigException.class, () -> load(Map.of("client_metrics_port", "70000"), typed));
        assertEquals(
                "--metrics-port 70000: out of range; expected off or a TCP port from 1 to 65535", range.getMessage());
        ConfigException zero =
                assertThrows(ConfigException.class, () -> load(Map.of("client_metrics_port", "0"), Map.of()));
        assertTrue(
                zero.getMessage().startsWith("command line: -Dclient_metrics_port = \"0\": out of range"),
                zero.getMessage());
        ConfigException word =
                assertThrows(ConfigException.class, () -> load(Map.of("client_metrics_port", "http"), Map.of()));
        assertTrue(word.getMessage().contains("not a port"), word.getMessage());
        ConfigException name = assertThrows(
                ConfigException.class,
                () -> load(
                        Map.of("client_metrics_port", "9400", "client_metrics_address", "localhost"),
                        Map.of("client_metrics_address", new GivenOption("--metrics-address", "localhost"))));
        assertTrue(
                name.getMessage()
                        .startsWith("--metrics-address localhost: not an IP address; expected one such as 127.0.0.1"),
                name.getMessage());
        for (String bad : new String[] {"256.1.1.1", "1.2.3", "1.2.3.4 ", "::g", "$(reboot)"}) {
            assertFalse(ConfigLoader.isIpLiteral(bad.strip().equals(bad) ? bad : bad + "x"), bad);
        }
    }

    @Test
    void watchingDoesNotChangeTheConfigurationsHash() {
        String plain = load(Map.of(), Map.of()).configSha256();
        String watched = load(
                        Map.of(
                                "client_metrics_port",
                                "9401",
                                "client_metrics_address",
                                "0.0.0.0",
                                "client_metrics_linger_ms",
                                "5000"),
                        Map.of())
                .configSha256();
        assertEquals(plain, watched);
    }
}
