package org.rubis.client.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ConfigLoader;
import org.rubis.client.config.GivenOption;
import picocli.CommandLine.Option;

/** The options every command shares: the properties file and {@code -Dkey=value} overrides. */
public class ConfigOptions {

    @Option(
            names = {"-p", "--properties"},
            paramLabel = "FILE",
            description = "rubis.properties to load (default: the packaged rubis-properties/rubis.properties)")
    Path properties;

    @Option(
            names = "-D",
            paramLabel = "key=value",
            showDefaultValue = picocli.CommandLine.Help.Visibility.NEVER,
            description = "Override any key of the properties file, e.g. -Dworkload_number_of_clients_per_node=50")
    Map<String, String> defines = new LinkedHashMap<>();

    /** Loads the configuration with {@code -D} overrides and then {@code named} (named options win). */
    ClientConfig load(Map<String, String> named) {
        return load(named, Map.of());
    }

    /** As {@link #load(Map)}; {@code options} names the option behind each of {@code named}'s keys, for errors. */
    ClientConfig load(Map<String, String> named, Map<String, GivenOption> options) {
        Map<String, String> all = new LinkedHashMap<>(defines);
        all.putAll(named);
        return ConfigLoader.load(properties, all, options);
    }
}
