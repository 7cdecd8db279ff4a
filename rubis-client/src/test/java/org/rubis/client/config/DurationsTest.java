package org.rubis.client.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.rubis.client.input.ConfigException;

class DurationsTest {

    @Test
    void theFormsRunAndTheBenchesAccept() {
        assertEquals(90_000, Durations.millis("--duration", "90"));
        assertEquals(90_000, Durations.millis("--duration", "90s"));
        assertEquals(120_000, Durations.millis("--duration", "2m"));
        assertEquals(500, Durations.millis("--duration", "500ms"));
        assertEquals(3_600_000, Durations.millis("--duration", "1h"));
        assertEquals(1_500, Durations.millis("--duration", " 1.5S "));
    }

    @Test
    void aMistakeIsOneLineNamingTheOption() {
        assertEquals(
                "--ramp-up 2x: not a duration; expected e.g. 60s, 2m, 500ms or 1h",
                assertThrows(ConfigException.class, () -> Durations.millis("--ramp-up", "2x"))
                        .getMessage());
        assertEquals(
                "--duration -5s: not a duration; expected e.g. 60s, 2m, 500ms or 1h",
                assertThrows(ConfigException.class, () -> Durations.millis("--duration", "-5s"))
                        .getMessage());
        assertEquals(
                "--duration 31d: not a duration; expected e.g. 60s, 2m, 500ms or 1h",
                assertThrows(ConfigException.class, () -> Durations.millis("--duration", "31d"))
                        .getMessage());
        assertEquals(
                "--duration 800h: longer than the maximum of 30 days; expected e.g. 60s, 2m, 500ms or 1h",
                assertThrows(ConfigException.class, () -> Durations.millis("--duration", "800h"))
                        .getMessage());
    }
}
