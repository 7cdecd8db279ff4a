package org.rubis.client.profile;

import java.util.Locale;

/**
 * What a load profile's values count: emulated users (closed arrivals: the population follows the profile) or
 * sessions started per second (hybrid arrivals: the arrival rate follows it).
 */
public enum ProfileUnit {
    USERS("users", "users"),
    RATE("sessions/s", "sessions per second");

    private final String label;
    private final String words;

    ProfileUnit(String label, String words) {
        this.label = label;
        this.words = words;
    }

    /** As written in a profile file's {@code unit} line. */
    public String label() {
        return label;
    }

    /** In a sentence: "users", "sessions per second". */
    public String words() {
        return words;
    }

    /** The unit a label names ({@code users}, {@code sessions/s}, also {@code rate}), or null. */
    public static ProfileUnit parse(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        return switch (t) {
            case "users" -> USERS;
            case "sessions/s", "rate" -> RATE;
            default -> null;
        };
    }
}
