package org.rubis.client.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.rubis.client.config.ConfigLoader;
import org.rubis.client.config.Keys;
import org.rubis.client.config.PropertiesFile;
import org.rubis.client.config.Setting;
import org.rubis.client.config.Settings;
import org.rubis.client.input.Source;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The defaults {@code run --help} shows: the values of the packaged rubis.properties (with the
 * loader's own defaults), taken from the configuration itself so that help and behaviour cannot
 * drift. A properties file given with {@code -p} still wins over them: {@link #keepOnlyGiven}
 * forgets every option the user did not type before the options become overrides.
 */
public final class PackagedDefaults implements IDefaultValueProvider {

    private static volatile Map<String, String> defaults;

    @Override
    public String defaultValue(ArgSpec arg) {
        return arg instanceof OptionSpec o ? defaults().get(o.longestName()) : null;
    }

    /** Resets the options that were not on the command line (their value came from this provider). */
    static void keepOnlyGiven(CommandSpec spec) {
        for (OptionSpec o : spec.options()) {
            if (defaults().containsKey(o.longestName())
                    && !spec.commandLine().getParseResult().hasMatchedOption(o)) {
                o.setValue(null);
            }
        }
    }

    /**
     * Each option's key as the packaged file sets it, else the key's default. --jit-warmup has none here: its default
     * also depends on the environment (RUBIS_JIT_WARMUP), which its description says; the help (and docs/cli/,
     * generated from it) must not show this shell's value.
     */
    private static Map<String, String> defaults() {
        Map<String, String> d = defaults;
        if (d == null) {
            Settings s = new Settings(PropertiesFile.read(Source.classpath(ConfigLoader.DEFAULT_PROPERTIES)), Map.of());
            d = new LinkedHashMap<>();
            for (Setting<?> k : Keys.all()) {
                if (k.option() != null && k.option().showsDefault()) {
                    d.put(k.option().name(), k.option().shown(s.get(k)));
                }
            }
            defaults = d;
        }
        return d;
    }
}
