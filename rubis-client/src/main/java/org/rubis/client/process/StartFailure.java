package org.rubis.client.process;

import java.util.List;

/**
 * The line of a failed child's log that says why it failed. The last line is rarely it: the JVM ends a bad option
 * with "Error: A fatal exception has occurred. Program will exit." after the option's own line, an exception ends
 * with stack frames, and its root cause is the last "Caused by:". So: the program's own one-line error if it printed
 * one, else the root cause of an exception, else the first line that is not the JVM's boilerplate, a warning or a
 * stack frame.
 */
final class StartFailure {

    private static final List<String> BOILERPLATE = List.of(
            "Error: Could not create the Java Virtual Machine.",
            "Error: A fatal exception has occurred. Program will exit.",
            "Error occurred during initialization of VM");

    private StartFailure() {}

    /** The cause among {@code lines} (a log), or "(no output)"; {@code own} is the prefix of the program's own error lines. */
    static String cause(List<String> lines, String own) {
        List<String> useful = lines.stream()
                .map(String::strip)
                .filter(l -> !l.isEmpty()
                        && !BOILERPLATE.contains(l)
                        && !l.startsWith("at ")
                        && !l.matches("\\.\\.\\. \\d+ more")
                        && !l.contains("warning:")
                        && !l.startsWith("WARNING:"))
                .toList();
        for (String l : useful) {
            if (l.startsWith(own)) {
                return l;
            }
        }
        for (int i = useful.size() - 1; i >= 0; i--) {
            if (useful.get(i).startsWith("Caused by: ")) {
                return useful.get(i).substring("Caused by: ".length());
            }
        }
        return useful.isEmpty() ? lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1) : useful.get(0);
    }
}
