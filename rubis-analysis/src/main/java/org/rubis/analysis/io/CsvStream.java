package org.rubis.analysis.io;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.rubis.analysis.AnalysisException;

/**
 * Streams a CSV file with a header row, one record at a time (commons-csv), checking that the
 * header has the columns the caller needs and that every line has as many fields as the header.
 * A short last line (a run killed mid-write) is skipped and reported through {@link #truncated()};
 * a malformed line anywhere else is an error naming the file and line.
 */
public final class CsvStream {

    /** One record with typed, checked access by column name. */
    public static final class Row {
        private final CSVRecord record;
        private final String file;

        Row(CSVRecord record, String file) {
            this.record = record;
            this.file = file;
        }

        public String get(String column) {
            return record.get(column);
        }

        public long getLong(String column) {
            String v = record.get(column);
            try {
                return Long.parseLong(v);
            } catch (NumberFormatException e) {
                throw new AnalysisException(file + ":" + line() + ": column " + column + " = \"" + v + "\" is not a whole number");
            }
        }

        public int getInt(String column) {
            return (int) getLong(column);
        }

        public double getDouble(String column) {
            String v = record.get(column);
            try {
                return Double.parseDouble(v);
            } catch (NumberFormatException e) {
                throw new AnalysisException(file + ":" + line() + ": column " + column + " = \"" + v + "\" is not a number");
            }
        }

        public long line() {
            return record.getRecordNumber() + 1;
        }

        /** The fields in header order, as read. */
        public java.util.List<String> values() {
            return record.toList();
        }

        /** The file this row came from. */
        public String file() {
            return file;
        }
    }

    private final Path path;
    private boolean truncated;
    private long rows;

    public CsvStream(Path path) {
        this.path = path;
    }

    /** Reads every row, after checking that the header has {@code required} columns. */
    public void forEach(List<String> required, Consumer<Row> consumer) {
        if (!Files.isRegularFile(path)) {
            throw new AnalysisException(path + ": file not found");
        }
        CSVFormat format = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).build();
        try (Reader r = Files.newBufferedReader(path, StandardCharsets.UTF_8); CSVParser parser = CSVParser.parse(r, format)) {
            Map<String, Integer> header = parser.getHeaderMap();
            for (String col : required) {
                if (!header.containsKey(col)) {
                    throw new AnalysisException(path + ":1: the header lacks column " + col + "; expected a rubis-client log with columns "
                            + String.join(",", required));
                }
            }
            Iterator<CSVRecord> it = parser.iterator();
            while (hasNext(it)) {
                CSVRecord rec = it.next();
                if (rec.size() != header.size()) {
                    if (!hasNext(it)) {
                        truncated = true; // the last line of a killed run
                        break;
                    }
                    throw new AnalysisException(path + ":" + (rec.getRecordNumber() + 1) + ": " + rec.size() + " fields, expected "
                            + header.size() + " (" + String.join(",", header.keySet()) + ")");
                }
                rows++;
                consumer.accept(new Row(rec, path.toString()));
            }
        } catch (IOException | UncheckedIOException e) {
            throw new AnalysisException(path + ": cannot read: " + e.getMessage());
        } catch (IllegalStateException e) {
            throw new AnalysisException(path + ": malformed CSV: " + e.getMessage());
        }
    }

    /** A pull-style reader over the same checks, for merging two files in step. */
    public final class Cursor implements AutoCloseable {
        private final Reader reader;
        private final CSVParser parser;
        private final Iterator<CSVRecord> it;
        private final int width;

        Cursor(List<String> required) throws IOException {
            if (!Files.isRegularFile(path)) {
                throw new AnalysisException(path + ": file not found");
            }
            reader = Files.newBufferedReader(path, StandardCharsets.UTF_8);
            parser = CSVParser.parse(reader, CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).build());
            for (String col : required) {
                if (!parser.getHeaderMap().containsKey(col)) {
                    throw new AnalysisException(path + ":1: the header lacks column " + col);
                }
            }
            width = parser.getHeaderMap().size();
            it = parser.iterator();
        }

        /** The header's column names, in file order. */
        public List<String> header() {
            return parser.getHeaderNames();
        }

        /** The next complete row, or null at the end (a short last line is skipped). */
        public Row next() {
            while (CsvStream.this.hasNext(it)) {
                CSVRecord rec = it.next();
                if (rec.size() == width) {
                    rows++;
                    return new Row(rec, path.toString());
                }
                if (!CsvStream.this.hasNext(it)) {
                    truncated = true;
                    return null;
                }
                throw new AnalysisException(path + ":" + (rec.getRecordNumber() + 1) + ": " + rec.size() + " fields, expected " + width);
            }
            return null;
        }

        @Override
        public void close() throws IOException {
            parser.close();
            reader.close();
        }
    }

    public Cursor open(List<String> required) {
        try {
            return new Cursor(required);
        } catch (IOException e) {
            throw new AnalysisException(path + ": cannot read: " + e.getMessage());
        }
    }

    private boolean hasNext(Iterator<CSVRecord> it) {
        try {
            return it.hasNext();
        } catch (UncheckedIOException | IllegalStateException e) {
            // A parse failure at the very end is a truncated last line.
            truncated = true;
            return false;
        }
    }

    /** True when the last line was incomplete and skipped. */
    public boolean truncated() {
        return truncated;
    }

    public long rows() {
        return rows;
    }
}
