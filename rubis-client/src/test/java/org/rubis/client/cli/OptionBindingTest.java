package org.rubis.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ConfigLoader;
import org.rubis.client.config.GivenOption;
import org.rubis.client.config.Keys;
import org.rubis.client.config.Setting;
import org.rubis.client.input.ConfigException;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/** Run's options bind to the keys of the table ({@link Keys}): the option's parsed value becomes the key's text. */
class OptionBindingTest {

    private static ParseResult parse(String... args) {
        CommandLine cl = new CommandLine(new RunCommand());
        Choices.register(cl);
        return cl.parseArgs(args);
    }

    @Test
    void everyOptionOfTheTableIsAnOptionOfRun() {
        CommandSpec run = new CommandLine(new RunCommand()).getCommandSpec();
        for (Setting<?> k : Keys.all()) {
            if (k.option() != null) {
                assertNotNull(
                        run.findOption(k.option().name()),
                        k.key() + ": run has no " + k.option().name());
            }
        }
    }

    @Test
    void typedOptionsBecomeTheKeysTheirEntriesName() {
        Map<String, GivenOption> given = new LinkedHashMap<>();
        Map<String, String> keys = OptionBinding.bind(
                parse(
                        "--users",
                        "7",
                        "--duration",
                        "2m",
                        "--capture",
                        "--tls-resumption",
                        "off",
                        "--no-progress",
                        "--backend",
                        "NETTY",
                        "--leave",
                        "end-of-session",
                        "--think-scale",
                        "0.5"),
                given);
        assertEquals(
                new TreeMap<>(Map.of(
                        Keys.USERS.key(), "7",
                        Keys.RUN_MS.key(), "120000",
                        Keys.CAPTURE.key(), "yes",
                        Keys.TLS_RESUMPTION.key(), "no",
                        Keys.PROGRESS.key(), "no",
                        Keys.BACKEND.key(), "netty",
                        Keys.PROFILE_LEAVE.key(), "end-of-session",
                        Keys.THINK_SCALE.key(), "0.5")),
                new TreeMap<>(keys));
        assertEquals(new GivenOption("--duration", "2m"), given.get(Keys.RUN_MS.key()));
        assertEquals(new GivenOption("--backend", "NETTY"), given.get(Keys.BACKEND.key()));
        ClientConfig c = ConfigLoader.load(null, keys, given);
        assertEquals(7, c.users());
        assertEquals(120_000, c.runMs());
        assertTrue(c.measurement().capture() && !c.execution().tlsResumption() && !c.progress());
    }

    @Test
    void aBadValueIsOneLineNamingTheOptionAndWhatWasTyped() {
        Map<String, GivenOption> given = new LinkedHashMap<>();
        String m = org.junit.jupiter.api.Assertions.assertThrows(
                        ConfigException.class, () -> OptionBinding.bind(parse("--tls-resumption", "maybe"), given))
                .getMessage();
        assertEquals("--tls-resumption maybe: expected on or off", m);
        Map<String, String> keys = OptionBinding.bind(parse("--duration", "0"), given);
        m = org.junit.jupiter.api.Assertions.assertThrows(
                        ConfigException.class, () -> ConfigLoader.load(null, keys, given))
                .getMessage();
        assertTrue(m.startsWith("--duration 0: too small; expected at least 1 ms"), m);
    }

    /** docs/RUNNING.md, Options and their keys: every pair it names is the table's, and no option of the table is left out. */
    @Test
    void runningMdNamesEachOptionsKeyAsTheTableDoes() throws IOException {
        String doc = Files.readString(Path.of("..", "docs", "RUNNING.md")).replaceAll("\\s+", " ");
        Matcher m = Pattern.compile("`(--[a-z-]+)` `([a-z_]+)`").matcher(doc);
        Map<String, String> named = new LinkedHashMap<>();
        while (m.find()) {
            named.put(m.group(1), m.group(2));
        }
        for (Map.Entry<String, String> e : named.entrySet()) {
            assertEquals(
                    Keys.byOption(e.getKey()).map(Setting::key).orElse("no key"),
                    e.getValue(),
                    "docs/RUNNING.md: " + e.getKey());
        }
        for (Setting<?> k : Keys.all()) {
            if (k.option() != null) {
                assertEquals(
                        k.key(),
                        named.get(k.option().name()),
                        "docs/RUNNING.md misses " + k.option().name());
            }
        }
    }
}
