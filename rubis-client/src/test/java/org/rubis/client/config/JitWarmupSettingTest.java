package org.rubis.client.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rubis.client.input.ConfigException;
import org.rubis.client.input.Source;

/** client_jit_warmup: auto, off or a count; a bad value is one line naming where it came from (key or environment variable). */
class JitWarmupSettingTest {

    private static Settings settings(Map<String, String> overrides) {
        return new Settings(PropertiesFile.read(Source.classpath(ConfigLoader.DEFAULT_PROPERTIES)), overrides);
    }

    @Test
    void valuesParse() {
        assertEquals(JitWarmupPolicy.AUTO, JitWarmupPolicy.parse("auto"));
        assertEquals(JitWarmupPolicy.OFF, JitWarmupPolicy.parse("OFF"));
        assertEquals(JitWarmupPolicy.OFF, JitWarmupPolicy.parse("0"));
        assertEquals(new JitWarmupPolicy(JitWarmupPolicy.Mode.COUNT, 20000), JitWarmupPolicy.parse(" 20000 "));
        assertEquals(null, JitWarmupPolicy.parse("-5"));
        assertEquals(null, JitWarmupPolicy.parse("fast"));
        assertEquals(null, JitWarmupPolicy.parse(String.valueOf(JitWarmupPolicy.MAX_COUNT + 1L)));
    }

    @Test
    void theKeyWinsOverTheEnvironmentWhichWinsOverAuto() {
        assertEquals(JitWarmupPolicy.AUTO, ConfigLoader.jitWarmup(settings(Map.of()), null));
        assertEquals(JitWarmupPolicy.OFF, ConfigLoader.jitWarmup(settings(Map.of()), "off"));
        assertEquals(
                JitWarmupPolicy.AUTO,
                ConfigLoader.jitWarmup(
                        settings(TestConfig.packaged()
                                .text(Keys.JIT_WARMUP, "auto")
                                .overrides()),
                        "off"));
        assertEquals(
                "500",
                TestConfig.packaged()
                        .text(Keys.JIT_WARMUP, "500")
                        .load()
                        .measurement()
                        .jitWarmup()
                        .label());
    }

    @Test
    void badValuesAreOneLineNamingTheirSource() {
        ConfigException key = assertThrows(
                ConfigException.class,
                () -> TestConfig.packaged().text(Keys.JIT_WARMUP, "fast").load());
        assertTrue(
                key.getMessage()
                        .startsWith(
                                "command line: -Dclient_jit_warmup = \"fast\": not a warm-up setting; expected auto, off or a number"),
                key.getMessage());
        ConfigException env =
                assertThrows(ConfigException.class, () -> ConfigLoader.jitWarmup(settings(Map.of()), "banana"));
        assertTrue(
                env.getMessage()
                        .startsWith("environment variable RUBIS_JIT_WARMUP = \"banana\": not a warm-up setting"),
                env.getMessage());
        assertEquals(1, env.getMessage().lines().count());
    }
}
