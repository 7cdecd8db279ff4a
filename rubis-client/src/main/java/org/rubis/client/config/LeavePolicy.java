package org.rubis.client.config;

import java.util.Locale;

/**
 * How an emulated user leaves when a load profile lowers the number of users (closed arrivals). {@link #GRACEFUL} (the
 * default): it finishes the session it is in if that ends within the grace ({@link LeaveRule#graceMs}, 30 s unless
 * given), as a user of a real site does, else it leaves at its first think time after the grace; a user thinking
 * between two sessions leaves at once. The population then reaches the profile's number within the grace and one
 * request, as k6's {@code gracefulRampDown} stops its virtual users. {@link #END_OF_SESSION}: it always finishes its
 * session, so the population lags the profile by up to one session's length (minutes with RUBiS's sessions).
 * {@link #NEXT_THINK}: it leaves at its next think time, cutting its session there (end reason {@code left}): the
 * population follows the profile within one request, at the cost of unfinished sessions.
 */
public enum LeavePolicy {
    GRACEFUL,
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
