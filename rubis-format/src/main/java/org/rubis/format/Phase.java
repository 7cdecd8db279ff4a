package org.rubis.format;

import java.util.Locale;

/**
 * The phases of a run, as written in the {@code phase} column of requests.csv and in summary.json:
 * the up ramp (warm-up), the run (the measurement) and the down ramp (cool-down).
 */
public enum Phase {
    UP("Up ramp"),
    RUN("Run (the measurement)"),
    DOWN("Down ramp");

    private final String title;

    Phase(String title) {
        this.title = title;
    }

    /** The value in the files: {@code up}, {@code run}, {@code down}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
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
        for (Phase p : values()) {
            if (p.label().equals(label)) {
                return p;
            }
        }
        return null;
    }
}
