package org.rubis.client.config;

import java.util.Locale;

/**
 * How an emulated user leaves when a load profile lowers the number of users (closed arrivals). {@link #END_OF_SESSION}
 * (the default): it finishes the session it is in, as a user of a real site does, and does not start another (a user
 * thinking between two sessions leaves at once); the population then reaches the profile's number within one
 * session's length. {@link #NEXT_THINK}: it leaves at its next think time, cutting its session there (end reason
 * {@code left}): the population follows the profile within one request, at the cost of unfinished sessions.
 */
public enum LeavePolicy {
    END_OF_SESSION,
    NEXT_THINK;

    /** As written on the command line and in the summary. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    @Override
    public String toString() {
        return label();
    }
}
