package org.rubis.client.config;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A test's configuration, typed by the keys' entries in {@link Keys}: each value is given as the setting's type
 * ({@code set(Keys.USERS, 5)}), so that a test never spells a key by hand nor writes a value the loader would read
 * otherwise. It loads through the loader as a user's {@code -Dkey=value} overrides do.
 */
public final class TestConfig {

    private final Path file;
    private final Map<String, String> overrides = new LinkedHashMap<>();
    private final Map<String, GivenOption> options = new LinkedHashMap<>();

    private TestConfig(Path file) {
        this.file = file;
    }

    /** Over the packaged rubis.properties. */
    public static TestConfig packaged() {
        return new TestConfig(null);
    }

    /** Over the properties file {@code file}. */
    public static TestConfig file(Path file) {
        return new TestConfig(file);
    }

    /** {@code setting} set to {@code value}: yes/no for a switch, the label of a choice. */
    public <T> TestConfig set(Setting<T> setting, T value) {
        return text(setting, value instanceof Boolean b ? (b ? "yes" : "no") : String.valueOf(value));
    }

    /** {@code setting} set to a file. */
    public TestConfig file(Setting<?> setting, Path value) {
        return text(setting, value.toString());
    }

    /** {@code setting} set to {@code text} as a user would type it (a bad value, for the error it gives). */
    public TestConfig text(Setting<?> setting, String text) {
        overrides.put(setting.key(), text);
        return this;
    }

    /**
     * {@code setting} given by its option of run as typed ({@code --metrics-linger 5s}), bound as run binds it: an
     * error about the key then names the option and the text.
     */
    public TestConfig option(Setting<?> setting, String typed) {
        overrides.put(setting.key(), setting.option().property(typed));
        options.put(setting.key(), new GivenOption(setting.option().name(), typed));
        return this;
    }

    /** The overrides, key by key, as the loader takes them. */
    public Map<String, String> overrides() {
        return Map.copyOf(overrides);
    }

    public ClientConfig load() {
        return ConfigLoader.load(file, overrides, options);
    }
}
