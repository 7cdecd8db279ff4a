package org.rubis.analysis.io;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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

    /**
     * One record with typed, checked access by column name. Its fields stay the bytes of the line until asked for: a
     * number is parsed from them and a text becomes a String only when read (and a short one repeated down the file,
     * a state or a phase, is one String), so that a pass over ten million lines makes no object per field.
     */
    public static final class Row {
        private final byte[] data;
        /** Field {@code i} is {@code data[bounds[2i]..bounds[2i+1])}, unquoted. */
        private final int[] bounds;

        private final String[] strings;
        private final Map<String, Integer> header;
        private final FieldStrings cache;
        private final String file;
        private final long line;

        Row(byte[] data, int[] bounds, Map<String, Integer> header, FieldStrings cache, String file, long line) {
            this.data = data;
            this.bounds = bounds;
            this.strings = new String[bounds.length / 2];
            this.header = header;
            this.cache = cache;
            this.file = file;
            this.line = line;
        }

        /** Whether the file has {@code column} (a column added later is absent in older runs). */
        public boolean has(String column) {
            return header.containsKey(column);
        }

        private int index(String column) {
            Integer i = header.get(column);
            if (i == null) {
                throw new AnalysisException(file + ":1: the header lacks column " + column);
            }
            return i;
        }

        public String get(String column) {
            return field(index(column));
        }

        private String field(int i) {
            String s = strings[i];
            if (s == null) {
                s = strings[i] = cache.of(data, bounds[2 * i], bounds[2 * i + 1]);
            }
            return s;
        }

        /** Whether {@code column} is empty: no String made. */
        public boolean isEmpty(String column) {
            int i = index(column);
            return bounds[2 * i] == bounds[2 * i + 1];
        }

        public long getLong(String column) {
            int i = index(column);
            int from = bounds[2 * i];
            int to = bounds[2 * i + 1];
            if (isLong(data, from, to)) {
                return parseLong(data, from, to);
            }
            throw new AnalysisException(
                    file + ":" + line + ": column " + column + " = \"" + field(i) + "\" is not a whole number");
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
            String[] all = new String[strings.length];
            for (int i = 0; i < all.length; i++) {
                all[i] = field(i);
            }
            return List.of(all);
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
    private long rejected;
    private long firstRejected;
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
            RowPipe.run(c, consumer);
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
        private final FieldStrings strings = new FieldStrings();
        private boolean pendingLine;

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
            String[] cols = fields(head);
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
            pendingLine = reader.advance();
        }

        /** The header's column names, in file order (empty for an empty file). */
        public List<String> header() {
            return columns;
        }

        /** The next complete row, or null at the end; malformed lines are skipped and counted. */
        public Row next() {
            try {
                while (pendingLine) {
                    LogLines.Kind kind = reader.kind();
                    int len = reader.length();
                    lineNo++;
                    Row row = kind == LogLines.Kind.OK ? row(reader.bytes(), len) : null;
                    pendingLine = reader.advance();
                    if (row != null) {
                        return row;
                    }
                    if (!pendingLine && !endsWithNewline) {
                        truncated = true; // the last line of a killed run
                        return null;
                    }
                    if (len == 0 && kind == LogLines.Kind.OK) {
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

        /** The line as a row, or null when it is malformed (its quoting, its number of fields, a number in it). */
        private Row row(byte[] line, int len) {
            int[] bounds = new int[2 * columns.size()];
            byte[] data = new byte[len];
            if (split(line, len, data, bounds) != columns.size()) {
                return null;
            }
            for (int i : numeric) {
                if (!isLong(data, bounds[2 * i], bounds[2 * i + 1])) {
                    return null;
                }
            }
            return new Row(data, bounds, header, strings, name, lineNo);
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

    /** The fields of one RFC 4180 line (the header), or null when its quoting is malformed. */
    static String[] fields(String line) {
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        int[] bounds = new int[2 * (b.length + 1)];
        byte[] out = new byte[b.length];
        int n = split(b, b.length, out, bounds);
        if (n < 0) {
            return null;
        }
        String[] f = new String[n];
        for (int i = 0; i < n; i++) {
            f[i] = new String(out, bounds[2 * i], bounds[2 * i + 1] - bounds[2 * i], StandardCharsets.UTF_8);
        }
        return f;
    }

    /**
     * Splits one RFC 4180 line of {@code len} bytes into {@code out}, unquoted, each field's start and end in
     * {@code bounds}; returns the number of fields, or -1 when its quoting is malformed or it has more fields than
     * {@code bounds} holds. The bytes are UTF-8, whose multi-byte characters hold no comma or quote byte.
     */
    static int split(byte[] line, int len, byte[] out, int[] bounds) {
        int i = 0;
        int o = 0;
        int fields = 0;
        while (true) {
            if (2 * fields >= bounds.length) {
                return -1;
            }
            bounds[2 * fields] = o;
            if (i < len && line[i] == '"') {
                i++;
                while (true) {
                    if (i >= len) {
                        return -1; // unterminated quote
                    }
                    byte c = line[i++];
                    if (c == '"') {
                        if (i < len && line[i] == '"') {
                            out[o++] = '"';
                            i++;
                        } else {
                            break;
                        }
                    } else {
                        out[o++] = c;
                    }
                }
                if (i < len && line[i] != ',') {
                    return -1; // text after a closing quote
                }
            } else {
                for (; i < len && line[i] != ','; i++) {
                    byte c = line[i];
                    if (c == '"') {
                        return -1; // a quote inside an unquoted field
                    }
                    out[o++] = c;
                }
            }
            bounds[2 * fields++ + 1] = o;
            if (i >= len) {
                return fields;
            }
            i++; // the comma
        }
    }

    /** The digits of {@link Long#MAX_VALUE}; of {@link Long#MIN_VALUE} but the last. */
    private static final byte[] LONG_DIGITS = "9223372036854775807".getBytes(StandardCharsets.US_ASCII);

    /** Whether {@code b[from..to)} is a whole number a long holds (an optional minus sign, then digits). */
    private static boolean isLong(byte[] b, int from, int to) {
        int i = from < to && b[from] == '-' ? from + 1 : from;
        int digits = to - i;
        if (digits == 0 || digits > LONG_DIGITS.length) {
            return false;
        }
        for (int j = i; j < to; j++) {
            if (b[j] < '0' || b[j] > '9') {
                return false;
            }
        }
        if (digits < LONG_DIGITS.length) {
            return true;
        }
        int c = Arrays.compare(b, i, to, LONG_DIGITS, 0, LONG_DIGITS.length);
        return c <= 0
                || (i > from
                        && c == 1
                        && Arrays.equals(b, i, to - 1, LONG_DIGITS, 0, LONG_DIGITS.length - 1)
                        && b[to - 1] == '8');
    }

    /** A whole number checked by {@link #isLong}, summed negative so that {@link Long#MIN_VALUE} fits. */
    private static long parseLong(byte[] b, int from, int to) {
        boolean negative = b[from] == '-';
        long v = 0;
        for (int i = negative ? from + 1 : from; i < to; i++) {
            v = v * 10 - (b[i] - '0');
        }
        return negative ? v : -v;
    }

    private static boolean endsWithNewline(Path p) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "r")) {
            long len = f.length();
            if (len == 0) {
                return true;
            }
            f.seek(len - 1);
            int last = f.read();
            return last == '\n' || last == '\r';
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
        if (rejected++ == 0 || r.line() < firstRejected) {
            firstRejected = r.line(); // apart from the reader's counts: the reader may be on another thread
        }
    }

    /** Malformed lines skipped (not counting a truncated last line). */
    public long badLines() {
        return badLines + rejected;
    }

    /** Line number of the first malformed line skipped, 0 when none. */
    public long firstBadLine() {
        return badLines == 0 ? firstRejected : rejected == 0 ? firstBadLine : Math.min(firstBadLine, firstRejected);
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
        long badLines = badLines();
        long firstBadLine = firstBadLine();
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
