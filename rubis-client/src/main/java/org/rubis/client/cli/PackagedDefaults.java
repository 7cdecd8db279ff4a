package org.rubis.client.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ConfigLoader;
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

    private static Map<String, String> defaults() {
        Map<String, String> d = defaults;
        if (d == null) {
            ClientConfig c = ConfigLoader.load((Path) null, Map.of());
            d = new LinkedHashMap<>();
            d.put("--target", c.target());
            d.put("--users", String.valueOf(c.users()));
            d.put("--sessions-per-user", String.valueOf(c.sessionsPerUser()));
            d.put("--arrivals", c.arrivals().label());
            d.put("--session-rate", ConfigLoaderFormat.number(c.arrival().sessionRate()));
            d.put("--interarrival", c.arrival().distribution().label());
            d.put("--max-sessions", String.valueOf(c.arrival().maxConcurrentSessions()));
            d.put("--cap-policy", c.arrival().capPolicy().label());
            d.put("--duration", duration(c.runMs()));
            d.put("--ramp-up", duration(c.upRampMs()));
            d.put("--ramp-down", duration(c.downRampMs()));
            d.put("--ramp-mode", c.rampMode().label());
            d.put("--source-addresses", String.valueOf(c.execution().sourceAddresses()));
            d.put("--think-scale", ConfigLoaderFormat.number(c.thinkScale()));
            d.put("--max-transitions", String.valueOf(c.workload().maxTransitions()));
            d.put("--transition-mode", c.workload().mode().toString());
            d.put("--backend", c.execution().backend().label());
            d.put("--pool-max", String.valueOf(c.execution().poolMax()));
            d.put("--threads", c.execution().threads().label());
            d.put("--server-model", c.server().model().label());
            d.put("--tls-resumption", c.execution().tlsResumption() ? "on" : "off");
            // --jit-warmup has none here: its default also depends on the environment (RUBIS_JIT_WARMUP), which
            // its description says; the help (and docs/cli/, generated from it) must not show this shell's value.
            defaults = d;
        }
        return d;
    }

    private static String duration(long ms) {
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }

    /** Numbers as a user would type them (10, not 10.0). */
    private static final class ConfigLoaderFormat {
        static String number(double d) {
            return d == Math.rint(d) && Math.abs(d) < 1e15 ? String.valueOf((long) d) : String.valueOf(d);
        }
    }
}
