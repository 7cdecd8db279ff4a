package org.rubis.lab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rubis.client.input.ConfigException;
import org.rubis.client.process.ClientCommandLine;

/**
 * bench accuracy's list items: BACKEND[+busy-poll][+no-warmup]; the warm-up is on unless +no-warmup, whatever the
 * environment says.
 */
class AccuracyListTest {

    private static List<String> args(String item) {
        return AccuracyBench.Item.parse(item)
                .applyTo(ClientCommandLine.run())
                .out(Path.of("d"))
                .runArguments();
    }

    @Test
    void modifiersBecomeRunOptions() {
        assertEquals(
                List.of("run", "--child", "--backend", "netty", "--jit-warmup", "auto", "--out", "d"), args("netty"));
        assertEquals(
                List.of("run", "--child", "--backend", "pooled", "--jit-warmup", "off", "--out", "d"),
                args("pooled+no-warmup"));
        assertEquals(
                List.of("run", "--child", "--backend", "netty", "--jit-warmup", "off", "--busy-poll", "--out", "d"),
                args("netty+busy-poll+no-warmup"));
    }

    @Test
    void anUnknownModifierOrBackendIsOneLine() {
        ConfigException e = assertThrows(ConfigException.class, () -> AccuracyBench.Item.parse("netty+cold"));
        assertTrue(
                e.getMessage().startsWith("bench accuracy --list netty+cold: unknown modifier +cold; expected"),
                e.getMessage());
        e = assertThrows(ConfigException.class, () -> AccuracyBench.Item.parse("nety"));
        assertTrue(
                e.getMessage().startsWith("bench accuracy --list nety: unknown backend nety; expected"),
                e.getMessage());
    }
}
