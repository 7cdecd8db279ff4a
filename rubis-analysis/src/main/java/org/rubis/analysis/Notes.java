package org.rubis.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.rubis.analysis.io.CsvStream;

/**
 * What the readers of a run directory have to say about it, in the order they read: notes, and each file's malformed
 * lines.
 */
final class Notes {

    final List<String> notes = new ArrayList<>();
    /** Per file: {malformed lines skipped, first such line number}; in analysis.json as bad_lines. */
    final Map<String, long[]> badLines = new TreeMap<>();

    void add(String note) {
        notes.add(note);
    }

    /** Notes and bad-line counts of one file read. */
    void account(String name, CsvStream csv) {
        notes.addAll(csv.notes(name));
        if (csv.badLines() > 0) {
            badLines.put(name, new long[] {csv.badLines(), csv.firstBadLine()});
        }
    }
}
