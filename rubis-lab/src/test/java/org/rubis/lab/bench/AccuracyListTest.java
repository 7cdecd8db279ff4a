package org.rubis.lab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rubis.client.input.ConfigException;

/** bench accuracy's list items: BACKEND[+busy-poll][+no-warmup]; the warm-up is on unless +no-warmup, whatever the environment says. */
class AccuracyListTest {

    @Test
    void modifiersBecomeRunOptions() {
        assertEquals(List.of("--jit-warmup", "auto"), AccuracyBench.modifiers("netty", "netty".split("\\+")));
        assertEquals(List.of("--jit-warmup", "off"), AccuracyBench.modifiers("pooled+no-warmup", "pooled+no-warmup".split("\\+")));
        assertEquals(List.of("--busy-poll", "--jit-warmup", "off"),
                AccuracyBench.modifiers("netty+busy-poll+no-warmup", "netty+busy-poll+no-warmup".split("\\+")));
    }

    @Test
    void anUnknownModifierIsOneLine() {
        ConfigException e = assertThrows(ConfigException.class, () -> AccuracyBench.modifiers("netty+cold", "netty+cold".split("\\+")));
        assertTrue(e.getMessage().startsWith("bench accuracy --list netty+cold: unknown modifier +cold; expected"), e.getMessage());
    }
}
