package org.rubis.format.run;

import java.util.Locale;

/**
 * The phases of a run, as written in the {@code phase} column of requests.csv and in summary.json:
 * the up ramp (warm-up), the run (the measurement) and the down ramp (cool-down).
 */
public enum Phase {
    UP("Up ramp"),
    RUN("Run (the measurement)"),
    DOWN("Down ramp");

    private static final Phase[] VALUES = values();

    private final String title;
    /** Made once: every request's log line holds it. */
    private final String label;

    Phase(String title) {
        this.title = title;
        this.label = name().toLowerCase(Locale.ROOT);
    }

    /** The value in the files: {@code up}, {@code run}, {@code down}. */
    public String label() {
        return label;
    }

    /** The heading used in reports. */
    public String title() {
        return title;
    }

    @Override
    public String toString() {
        return label();
    }

    /** The phase a file names, or null when the value is not a phase. */
    public static Phase parse(String label) {
        for (Phase p : VALUES) {
            if (p.label().equals(label)) {
                return p;
            }
        }
        return null;
    }
}
