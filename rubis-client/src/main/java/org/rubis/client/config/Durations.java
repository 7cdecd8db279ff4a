package org.rubis.client.config;

import org.rubis.client.input.ConfigException;
import org.rubis.client.input.DurationText;

/**
 * The one parser of the durations users type ({@code --duration 60s}, {@code bench scale --ramp-up 2m}):
 * run and the experiment commands accept the same forms and reject the same mistakes.
 */
public final class Durations {

    private Durations() {}

    /** "90", "90s", "2m", "500ms", "1h" to milliseconds; anything else is a one-line error naming {@code option}. */
    public static long millis(String option, String text) {
        double ms = DurationText.millis(text);
        if (Double.isNaN(ms)) {
            throw new ConfigException(option + " " + text + ": not a duration; expected e.g. 60s, 2m, 500ms or 1h");
        }
        if (!Limits.durationFits(ms)) {
            throw new ConfigException(
                    option + " " + text + ": longer than the maximum of 30 days; expected e.g. 60s, 2m, 500ms or 1h");
        }
        return Math.round(ms);
    }
}
