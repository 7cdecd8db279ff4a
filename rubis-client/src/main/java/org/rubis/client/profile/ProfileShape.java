package org.rubis.client.profile;

import java.util.Locale;

/**
 * What a load profile does between two points. {@link #STEP}: the value holds until the next point (the default: a
 * flat interval is what the stationarity check can judge, and the rate schedules before profiles were steps);
 * {@link #RAMP}: the value changes linearly from one point's to the next's, as k6's stages and Gatling's
 * {@code rampConcurrentUsers} do.
 */
public enum ProfileShape {
    STEP,
    RAMP;

    /** As written in a profile file's {@code shape} line and on the command line. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The shape a label names, or null. */
    public static ProfileShape parse(String text) {
        for (ProfileShape s : values()) {
            if (s.label().equals(text.strip().toLowerCase(Locale.ROOT))) {
                return s;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return label();
    }
}
