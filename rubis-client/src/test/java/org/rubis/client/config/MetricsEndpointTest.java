package org.rubis.client.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.rubis.client.input.ConfigException;

/**
 * The live view's settings: off by default, a port 1..65535, an IP address to listen on (loopback unless given), a
 * linger; a bad value is a one-line error naming the option or key and what is expected; none of them changes the
 * configuration's hash (each shard of a run serves its own port).
 */
class MetricsEndpointTest {

    @Test
    void offByDefaultOnLoopbackWhenOn() {
        MetricsEndpoint off = TestConfig.packaged().load().measurement().metrics();
        assertFalse(off.on());
        MetricsEndpoint on = TestConfig.packaged()
                .set(Keys.METRICS_PORT, "9400")
                .set(Keys.METRICS_LINGER_MS, 30_000L)
                .load()
                .measurement()
                .metrics();
        assertTrue(on.on());
        assertEquals(9400, on.port());
        assertEquals("127.0.0.1", on.address());
        assertEquals(30_000, on.lingerMs());
        assertEquals(
                "0.0.0.0",
                TestConfig.packaged()
                        .set(Keys.METRICS_PORT, "9400")
                        .set(Keys.METRICS_ADDRESS, "0.0.0.0")
                        .load()
                        .measurement()
                        .metrics()
                        .address());
        assertEquals(
                "::1",
                TestConfig.packaged()
                        .set(Keys.METRICS_PORT, "1")
                        .set(Keys.METRICS_ADDRESS, "::1")
                        .load()
                        .measurement()
                        .metrics()
                        .address());
    }

    /**
     * {@code --metrics-linger} or {@code --metrics-address} without {@code --metrics-port} would be ignored (the view is
     * off): refused in one line naming the option and the fix. A properties file may hold them for runs that give the
     * port: kept quietly when off.
     */
    @Test
    void aLiveViewSettingWithoutItsPortIsRefusedOnTheCommandLine() {
        ConfigException linger = assertThrows(
                ConfigException.class,
                () -> TestConfig.packaged().option(Keys.METRICS_LINGER_MS, "5s").load());
        assertEquals(
                "--metrics-linger 5s: the live view is off; add --metrics-port N (client_metrics_port), or drop it",
                linger.getMessage());
        ConfigException address = assertThrows(
                ConfigException.class,
                () -> TestConfig.packaged()
                        .option(Keys.METRICS_ADDRESS, "0.0.0.0")
                        .load());
        assertEquals(
                "--metrics-address 0.0.0.0: the live view is off; add --metrics-port N (client_metrics_port), or drop it",
                address.getMessage());
        assertTrue(assertThrows(
                        ConfigException.class,
                        () -> TestConfig.packaged()
                                .set(Keys.METRICS_LINGER_MS, 5000L)
                                .load())
                .getMessage()
                .startsWith("command line: -Dclient_metrics_linger_ms = \"5000\": the live view is off"));
    }

    @Test
    void badValuesAreOneLineErrorsNamingTheOption() {
        ConfigException range = assertThrows(
                ConfigException.class,
                () -> TestConfig.packaged().option(Keys.METRICS_PORT, "70000").load());
        assertEquals(
                "--metrics-port 70000: out of range; expected off or a TCP port from 1 to 65535", range.getMessage());
        ConfigException zero = assertThrows(
                ConfigException.class,
                () -> TestConfig.packaged().set(Keys.METRICS_PORT, "0").load());
        assertTrue(
                zero.getMessage().startsWith("command line: -Dclient_metrics_port = \"0\": out of range"),
                zero.getMessage());
        ConfigException word = assertThrows(
                ConfigException.class,
                () -> TestConfig.packaged().set(Keys.METRICS_PORT, "http").load());
        assertTrue(word.getMessage().contains("not a port"), word.getMessage());
        ConfigException name = assertThrows(
                ConfigException.class,
                () -> TestConfig.packaged()
                        .set(Keys.METRICS_PORT, "9400")
                        .option(Keys.METRICS_ADDRESS, "localhost")
                        .load());
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
        String plain = TestConfig.packaged().load().configSha256();
        String watched = TestConfig.packaged()
                .set(Keys.METRICS_PORT, "9401")
                .set(Keys.METRICS_ADDRESS, "0.0.0.0")
                .set(Keys.METRICS_LINGER_MS, 5000L)
                .load()
                .configSha256();
        assertEquals(plain, watched);
    }
}
