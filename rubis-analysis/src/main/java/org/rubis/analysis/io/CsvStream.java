package org.rubis.analysis.io;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Streams a CSV file with a header row, one record per line, checking that the header has the
 * columns the caller needs. Our logs never put a line break inside a field, so a line is a record;
 * that lets one garbled line (an unterminated quote, a wrong number of fields, a number that is
 * not one) be skipped and counted while the rest is read — a CSV library that lets a quote run on
 * to the end of the file would lose everything after it. A line that is not UTF-8 or longer than
 * {@link LogLines#MAX_LINE} bytes is such a line too: it is skipped and counted, not read whole
 * ({@link LogLines}). A malformed last line without its line
 * break is a run killed mid-write: {@link #truncated()}. An empty file (killed before its header
 * reached the disk) reads as no rows: {@link #empty()}.
 */
public final class CsvStream {

    /** One record with typed, checked access by column name. */
    public static final class Row {
        private final String[] fields;
        private final Map<String, Integer> header;
        private final String file;
        private final long line;

        Row(String[] fields, Map<String, Integer> header, String file, long line) {
            this.fields = fields;
            this.header = header;
            this.file = file;
            this.line = line;
        }

        /** Whether the file has {@code column} (a column added later is absent in older runs). */
        public boolean has(String column) {
            return header.containsKey(column);
        }

        public String get(String column) {
            Integer i = header.get(column);
            if (i == null) {
                throw new AnalysisException(file + ":1: the header lacks column " + column);
            }
            return fields[i];
        }

        public long getLong(String column) {
            String v = get(column);
            try {
                return Long.parseLong(v);
            } catch (NumberFormatException e) {
                throw new AnalysisException(
                        file + ":" + line + ": column " + column + " = \"" + v + "\" is not a whole number");
            }
        }

        public int getInt(String column) {
            long v = getLong(column);
            if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                throw new AnalysisException(file + ":" + line + ": column " + column + " = " + v + " is out of range");
            }
            return (int) v;
        }

        public double getDouble(String column) {
            String v = get(column);
            try {
                return Double.parseDouble(v);
            } catch (NumberFormatException e) {
                throw new AnalysisException(
                        file + ":" + line + ": column " + column + " = \"" + v + "\" is not a number");
            }
        }

        /** The line number in the file (the header is line 1). */
        public long line() {
            return line;
        }

        /** The fields in header order, as read. */
        public List<String> values() {
            return List.of(fields);
        }

        /** The file this row came from. */
        public String file() {
            return file;
        }
    }

    private final Path path;
    private boolean truncated;
    private boolean empty;
    private long badLines;
    private long firstBadLine;
    private long notUtf8;
    private long tooLong;

    public CsvStream(Path path) {
        this.path = path;
    }

    /** Reads every row, after checking that the header has {@code required} columns. */
    public void forEach(List<String> required, Consumer<Row> consumer) {
        forEach(required, List.of(), consumer);
    }

    /**
     * Reads every row whose {@code numeric} columns are whole numbers; other malformed lines are
     * skipped and counted ({@link #badLines()}).
     */
    public void forEach(List<String> required, List<String> numeric, Consumer<Row> consumer) {
        try (Cursor c = open(required, numeric)) {
            for (Row r; (r = c.next()) != null; ) {
                consumer.accept(r);
            }
        } catch (IOException e) {
            throw new AnalysisException(path + ": cannot read: " + e.getMessage());
        }
    }

    /** A pull-style reader over the same checks, for merging two files in step. */
    public final class Cursor implements AutoCloseable {
        private final LogLines reader;
        private final Map<String, Integer> header = new HashMap<>();
        private List<String> columns = List.of();
        private final int[] numeric;
        private final boolean endsWithNewline;
        private final String name = path.toString();
        private long lineNo = 1;
        private String pending;
        private LogLines.Kind pendingKind;

        Cursor(List<String> required, List<String> numericColumns) throws IOException {
            if (!Files.isRegularFile(path)) {
                throw new AnalysisException(path + ": file not found");
            }
            endsWithNewline = endsWithNewline(path);
            reader = new LogLines(Files.newInputStream(path));
            String head = reader.next();
            if (head != null && reader.kind() != LogLines.Kind.OK) {
                throw new AnalysisException(path + ":1: the header is "
                        + (reader.kind() == LogLines.Kind.TOO_LONG ? "longer than 1 MiB" : "not UTF-8")
                        + "; expected a rubis-client log with columns " + String.join(",", required));
            }
            if (head == null || head.isBlank()) {
                empty = true;
                numeric = new int[0];
                return;
            }
            if (head.startsWith("\uFEFF")) {
                head = head.substring(1);
            }
            String[] cols = split(head);
            if (cols == null) {
                throw new AnalysisException(
                        path + ":1: the header is not a CSV line; expected a rubis-client log with columns "
                                + String.join(",", required));
            }
            for (int i = 0; i < cols.length; i++) {
                header.putIfAbsent(cols[i], i);
            }
            columns = List.of(cols);
            for (String col : required) {
                if (!header.containsKey(col)) {
                    throw new AnalysisException(path + ":1: the header lacks column " + col
                            + "; expected a rubis-client log with columns " + String.join(",", required));
                }
            }
            numeric = numericColumns.stream()
                    .filter(header::containsKey)
                    .mapToInt(header::get)
                    .toArray();
            pending = reader.next();
            pendingKind = reader.kind();
        }

        /** The header's column names, in file order (empty for an empty file). */
        public List<String> header() {
            return columns;
        }

        /** The next complete row, or null at the end; malformed lines are skipped and counted. */
        public Row next() {
            try {
                while (pending != null) {
                    String line = pending;
                    LogLines.Kind kind = pendingKind;
                    lineNo++;
                    pending = reader.next();
                    pendingKind = reader.kind();
                    String[] f = kind == LogLines.Kind.OK ? split(line) : null;
                    if (f != null && f.length == columns.size() && numbersIn(f)) {
                        return new Row(f, header, name, lineNo);
                    }
                    if (pending == null && !endsWithNewline) {
                        truncated = true; // the last line of a killed run
                        return null;
                    }
                    if (line.isEmpty() && kind == LogLines.Kind.OK) {
                        continue;
                    }
                    if (badLines++ == 0) {
                        firstBadLine = lineNo;
                    }
                    if (kind == LogLines.Kind.NOT_UTF8) {
                        notUtf8++;
                    } else if (kind == LogLines.Kind.TOO_LONG) {
                        tooLong++;
                    }
                }
                return null;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private boolean numbersIn(String[] f) {
            for (int i : numeric) {
                if (!isLong(f[i])) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public void close() throws IOException {
            reader.close();
        }
    }

    public Cursor open(List<String> required) {
        return open(required, List.of());
    }

    public Cursor open(List<String> required, List<String> numeric) {
        try {
            return new Cursor(required, numeric);
        } catch (IOException | UncheckedIOException e) {
            throw new AnalysisException(path + ": cannot read: " + e.getMessage());
        }
    }

    /** The fields of one RFC 4180 line, or null when its quoting is malformed. */
    static String[] split(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder f = new StringBuilder();
        int i = 0;
        int n = line.length();
        while (true) {
            f.setLength(0);
            if (i < n && line.charAt(i) == '"') {
                i++;
                while (true) {
                    if (i >= n) {
                        return null; // unterminated quote
                    }
                    char c = line.charAt(i++);
                    if (c == '"') {
                        if (i < n && line.charAt(i) == '"') {
                            f.append('"');
                            i++;
                        } else {
                            break;
                        }
                    } else {
                        f.append(c);
                    }
                }
                if (i < n && line.charAt(i) != ',') {
                    return null; // text after a closing quote
                }
            } else {
                int comma = line.indexOf(',', i);
                int end = comma < 0 ? n : comma;
                String field = line.substring(i, end);
                if (field.indexOf('"') >= 0) {
                    return null; // a quote inside an unquoted field
                }
                f.append(field);
                i = end;
            }
            out.add(f.toString());
            if (i >= n) {
                return out.toArray(new String[0]);
            }
            i++; // the comma
        }
    }

    private static boolean isLong(String s) {
        int n = s.length();
        if (n == 0 || n > 20) {
            return false;
        }
        int i = s.charAt(0) == '-' ? 1 : 0;
        if (i == n) {
            return false;
        }
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        if (n >= 19) {
            try {
                Long.parseLong(s);
            } catch (NumberFormatException e) {
                return false;
            }
        }
        return true;
    }

    private static boolean endsWithNewline(Path p) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "r")) {
            long len = f.length();
            if (len == 0) {
                return true;
            }
            f.seek(len - 1);
            return f.read() == '\n';
        }
    }

    /** True when the last line was incomplete and skipped. */
    public boolean truncated() {
        return truncated;
    }

    /** True when the file had not even a header (a run killed before it reached the disk). */
    public boolean empty() {
        return empty;
    }

    /**
     * Counts a row the reader found malformed by a rule of its own (e.g. an unknown phase) as a skipped line, like the
     * lines this class rejects itself: the caller then ignores the row.
     */
    public void reject(Row r) {
        if (badLines++ == 0 || r.line() < firstBadLine) {
            firstBadLine = r.line();
        }
    }

    /** Malformed lines skipped (not counting a truncated last line). */
    public long badLines() {
        return badLines;
    }

    /** Line number of the first malformed line skipped, 0 when none. */
    public long firstBadLine() {
        return firstBadLine;
    }

    /**
     * The notes a reader of this file owes its user: skipped lines, an incomplete last line, an
     * empty file. {@code name} is how the file is called in the note, e.g. {@code requests.csv}.
     */
    public List<String> notes(String name) {
        List<String> n = new ArrayList<>();
        if (empty) {
            n.add(name + " is empty (the run was killed before its header was written): ignored");
        }
        if (badLines > 0) {
            String kinds = (notUtf8 > 0 ? ", " + notUtf8 + " not UTF-8" : "")
                    + (tooLong > 0 ? ", " + tooLong + " longer than 1 MiB (not read)" : "");
            n.add(name + ": " + badLines + " malformed line" + (badLines == 1 ? "" : "s") + " skipped (first at line "
                    + firstBadLine + kinds + "); the other lines were analysed");
        }
        if (truncated) {
            n.add(name + " ends with an incomplete line (the run was killed): it was skipped");
        }
        return n;
    }
}
