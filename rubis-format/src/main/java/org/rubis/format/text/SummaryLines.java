package org.rubis.format.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.rubis.format.schema.RequestsPerConnection;
import org.rubis.format.schema.ServerStats;

/**
 * How summary.txt lays out long values: wrapped at spaces to {@link #WIDTH} columns under their label, and the
 * verdict split into its clauses, one or more short lines each, so that a terminal shows it whole instead of one
 * line of several hundred characters. Shared by the client's summary and the merged one, so that both read alike.
 */
public final class SummaryLines {

    /** The widest line summary.txt writes outside its tables. */
    public static final int WIDTH = 120;
    /** Where a {@code label: value} line's value starts (the labels are padded to this column). */
    public static final int VALUE_COLUMN = 25;

    /** A clause ends at "; " or at a sentence's end (". " before a capital letter). */
    private static final Pattern CLAUSE_END = Pattern.compile("; |(?<=\\.) (?=[A-Z])");

    private SummaryLines() {}

    /** {@code label: value}, the label padded, the value wrapped under itself; ends with a line break. */
    public static String line(String label, String value) {
        String head = String.format(Locale.ROOT, "%-" + (VALUE_COLUMN - 1) + "s ", label + ":");
        return head + String.join("\n" + " ".repeat(VALUE_COLUMN), wrap(value, WIDTH - VALUE_COLUMN)) + "\n";
    }

    /**
     * A verdict ({@code OK: ...}, {@code SUSPECT: CAUSE: ...; ...}, {@code INVALID: ...}) as {@code verdict:} and its
     * word on the first line, then each clause on its own lines, indented; ends with a line break.
     */
    public static String verdict(String verdict) {
        int colon = verdict.indexOf(": ");
        String word = colon < 0 ? verdict : verdict.substring(0, colon);
        StringBuilder b = new StringBuilder(line("verdict", word));
        if (colon >= 0) {
            for (String clause : CLAUSE_END.split(verdict.substring(colon + 2))) {
                b.append(item(clause));
            }
        }
        return b.toString();
    }

    /**
     * The {@code server ground truth} line's value, from summary.json's {@code server} (the embedded server's
     * stats.json): the emulated users' requests and connections, the reference probe's apart.
     */
    public static String serverTruth(ServerStats s) {
        long probe = s.probeRequests();
        long servers = s.servers() == null ? 1 : s.servers();
        RequestsPerConnection perConnection = s.requestsPerConnection();
        return s.requests() + " requests, "
                + s.connectionsAccepted()
                + " connections accepted, at most "
                + s.maxConcurrentConnections() + " at once"
                + (servers > 1 ? " (the sum of " + servers + " servers' peaks)" : "") + ", "
                + perConnection.mean() + " requests per connection (max "
                + perConnection.max() + ")"
                + (probe == 0
                        ? ""
                        : "; apart: the reference probe's " + probe + " requests on " + s.probeConnections()
                                + " connection(s)");
    }

    /** An item of a list (a warning, a verdict's clause): indented by 2, wrapped under itself by 4. */
    public static String item(String text) {
        List<String> lines = wrap(text, WIDTH - 4);
        StringBuilder b = new StringBuilder("  ").append(lines.get(0)).append('\n');
        lines.subList(1, lines.size()).forEach(l -> b.append("    ").append(l).append('\n'));
        return b.toString();
    }

    /** The text in lines of at most {@code width} characters, broken at spaces (a longer word keeps its own line). */
    public static List<String> wrap(String text, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.strip().split(" +")) {
            if (!line.isEmpty() && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            line.append(line.isEmpty() ? "" : " ").append(word);
        }
        lines.add(line.toString());
        return lines;
    }
}
