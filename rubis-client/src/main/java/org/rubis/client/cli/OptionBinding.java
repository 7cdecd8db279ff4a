package org.rubis.client.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rubis.client.config.Flag;
import org.rubis.client.config.GivenOption;
import org.rubis.client.config.Keys;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * The options typed on a command line as the keys they set: each option is bound by its entry in {@link Keys}, so an
 * option that sets a key is named there once, beside the key's default and bounds, and none is forgotten here.
 */
final class OptionBinding {

    private OptionBinding() {}

    /**
     * The keys the typed options set (key -> the key's text); {@code given} gets how each valued option was typed,
     * so that an error about its key names the option and the text, not the key.
     */
    static Map<String, String> bind(ParseResult parsed, Map<String, GivenOption> given) {
        Map<String, String> named = new LinkedHashMap<>();
        for (OptionSpec o : parsed.matchedOptions()) {
            Object value = o.getValue();
            Keys.byOption(o.longestName()).filter(k -> value != null).ifPresent(k -> {
                Flag f = k.option();
                named.put(k.key(), f.property(value));
                if (f.form() == Flag.Form.VALUE || f.form() == Flag.Form.MILLIS) {
                    List<String> typed = o.stringValues();
                    given.put(k.key(), new GivenOption(f.name(), typed.isEmpty() ? value.toString() : typed.getLast()));
                }
            });
        }
        return named;
    }
}
