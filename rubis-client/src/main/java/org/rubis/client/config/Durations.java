package org.rubis.client.config;

import java.util.Locale;
import org.rubis.client.input.ConfigException;

/**
 * The one parser of the durations users type ({@code --duration 60s}, {@code bench scale --ramp-up 2m}):
 * run and the experiment commands accept the same forms and reject the same mistakes.
 */
public final class Durations {

    private Durations() {}

    /** "90", "90s", "2m", "500ms", "1h" to milliseconds; anything else is a one-line error naming {@code option}. */
    public static long millis(String option, String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        double factor = 1000;
        if (t.endsWith("ms")) {
            factor = 1;
            t = t.substring(0, t.length() - 2);
        } else if (t.endsWith("s")) {
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("m")) {
            factor = 60_000;
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("h")) {
            factor = 3_600_000;
            t = t.substring(0, t.length() - 1);
        }
        try {
            // Digits only: Double.parseDouble alone would take "31d" (a Java double literal) as 31 s, and "1e3", "0x10".
            if (!t.strip().matches("[0-9]+(\\.[0-9]*)?|\\.[0-9]+")) {
                throw new NumberFormatException();
            }
            double v = Double.parseDouble(t.strip()); // digits: never negative or NaN; too many of them fail the limit below
            if (!Limits.durationFits(v * factor)) {
                throw new ConfigException(option + " " + text + ": longer than the maximum of 30 days; expected e.g. 60s, 2m, 500ms or 1h");
            }
            return Math.round(v * factor);
        } catch (NumberFormatException e) {
            throw new ConfigException(option + " " + text + ": not a duration; expected e.g. 60s, 2m, 500ms or 1h");
        }
    }
}
