package org.rubis.client.preflight;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * What the pre-flight found, one line per check: {@code ok}, {@code info} (the keep-alive behaviour, a fact about
 * the server rather than a fault) or {@code PROBLEM}. A script reads {@link #problems()}; a user reads the lines.
 */
public final class PreflightReport {

    /** One check's line. */
    public record Line(Kind kind, String check, String text) {
        @Override
        public String toString() {
            return String.format("  %-8s %-11s %s", kind.word, check + ":", text);
        }
    }

    /** A check passed, states a fact, or found a problem. */
    public enum Kind {
        OK("ok"),
        INFO("info"),
        PROBLEM("PROBLEM");

        private final String word;

        Kind(String word) {
            this.word = word;
        }
    }

    private final String target;
    private final List<Line> lines = new ArrayList<>();

    PreflightReport(String target) {
        this.target = target;
    }

    void ok(String check, String text) {
        lines.add(new Line(Kind.OK, check, text));
    }

    void info(String check, String text) {
        lines.add(new Line(Kind.INFO, check, text));
    }

    void problem(String check, String text) {
        lines.add(new Line(Kind.PROBLEM, check, text));
    }

    public List<Line> lines() {
        return List.copyOf(lines);
    }

    /** The problems' lines, "check: text" each. */
    public List<String> problems() {
        return lines.stream()
                .filter(l -> l.kind() == Kind.PROBLEM)
                .map(l -> l.check() + ": " + l.text())
                .toList();
    }

    /** The keep-alive line's text, or "" when the probe did not get that far. */
    public String keepAlive() {
        return lines.stream()
                .filter(l -> l.check().equals("keep-alive"))
                .map(Line::text)
                .findFirst()
                .orElse("");
    }

    /** Prints the heading, the lines and the count of problems. */
    public void print(PrintWriter out) {
        out.println("Pre-flight of " + target + ":");
        lines.forEach(out::println);
        int n = problems().size();
        out.println(n == 0 ? "Pre-flight: OK" : "Pre-flight: " + n + (n == 1 ? " problem" : " problems"));
        out.flush();
    }
}
