package org.rubis.client.cli;

import org.rubis.client.config.Durations;

/** Test access to the duration parser run's duration options go through (their {@code Flag.Form.MILLIS}). */
public final class RunCommandAccess {
    private RunCommandAccess() {}

    public static Long millis(String option, String text) {
        return text == null ? null : Durations.millis(option, text);
    }
}
