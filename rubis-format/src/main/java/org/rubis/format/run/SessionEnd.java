package org.rubis.format.run;

import java.util.Locale;

/**
 * How a session ended: sessions.csv's {@code end_reason} column. Every session that began has one
 * line with one of the others; a hybrid session the cap dropped never began and has a line
 * with {@link #DROPPED}. docs/RUN-DIRECTORY.md describes each.
 */
public enum SessionEnd {
    /** The transition table led to its end state. */
    END_OF_SESSION,
    /** The session reached its maximum number of requests. */
    MAX_TRANSITIONS,
    /** The run ended while the session was thinking (or between requests): it was cut, not finished. */
    RUN_ENDED,
    /** The run stopped waiting for the session's request in flight (slower than its timeouts). */
    STUCK,
    /** The arrival cap dropped the session before it began (hybrid arrivals, cap policy drop). */
    DROPPED,
    /**
     * Its emulated user left at a think time: a load profile lowered the users and the leave policy is next-think
     * (docs/WORKLOAD.md, Load profiles). Cut, not finished.
     */
    LEFT;

    private static final SessionEnd[] VALUES = values();

    private final String label = name().toLowerCase(Locale.ROOT);

    /** The value in sessions.csv. */
    public String label() {
        return label;
    }

    /** Whether the session ran to its own end (the summary's {@code sessions_completed}). */
    public boolean completed() {
        return this == END_OF_SESSION || this == MAX_TRANSITIONS;
    }

    /** Whether the session began (all but {@link #DROPPED}). */
    public boolean began() {
        return this != DROPPED;
    }

    @Override
    public String toString() {
        return label;
    }

    /** The end reason a file names, or null when the value is none. */
    public static SessionEnd parse(String label) {
        for (SessionEnd e : VALUES) {
            if (e.label.equals(label)) {
                return e;
            }
        }
        return null;
    }
}
