package org.rubis.client.cli;

/** Test access to RunCommand's package-private duration parser. */
public final class RunCommandAccess {
    private RunCommandAccess() {}

    public static Long millis(String option, String text) {
        return RunCommand.millis(option, text);
    }
}
