package org.rubis.client.input;

import java.util.Locale;

/**
 * The durations users type, on the command line ({@code --duration 90s}) and in files (a load profile's times): a
 * number of seconds, or one with a unit, {@code ms}, {@code s}, {@code m} or {@code h}. Digits only: a Java double
 * literal ({@code 31d}, {@code 1e3}, {@code 0x10}) is not a duration.
 */
public final class DurationText {

    private DurationText() {}

    /** The text as milliseconds (not rounded), or NaN when it is not a duration. */
    public static double millis(String text) {
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
        t = t.strip();
        if (!t.matches("[0-9]+(\\.[0-9]*)?|\\.[0-9]+")) {
            return Double.NaN;
        }
        return Double.parseDouble(t) * factor; // digits: never negative or NaN (too many of them: infinite)
    }
}
