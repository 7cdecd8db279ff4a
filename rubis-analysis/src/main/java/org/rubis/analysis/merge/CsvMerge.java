package org.rubis.analysis.merge;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.ToLongFunction;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.rubis.analysis.io.AnalysisException;
import org.rubis.analysis.io.CsvStream;

/**
 * A streaming k-way merge of the same log from every shard into one file, by a time key, with a
 * {@code shard} column appended. Each input keeps its own order; holding one row per shard, the
 * memory does not grow with the length of the logs.
 */
final class CsvMerge {

    /** Sees every merged row, in output order. */
    interface Listener {
        void row(int shard, CsvStream.Row row);
    }

    /** What the merge wrote. */
    record Result(long rows, List<Path> truncated) {}

    private record Head(long key, int shard, CsvStream.Row row) {}

    private static final CSVFormat OUT =
            CSVFormat.DEFAULT.builder().setRecordSeparator("\n").build();

    private CsvMerge() {}

    /**
     * @param inputs   one file per shard, in shard order
     * @param required columns the key and the listener read
     */
    static Result merge(
            List<Path> inputs, List<String> required, ToLongFunction<CsvStream.Row> key, Path out, Listener listener) {
        List<CsvStream> streams = new ArrayList<>();
        List<CsvStream.Cursor> cursors = new ArrayList<>();
        try {
            List<String> header = null;
            for (Path in : inputs) {
                CsvStream s = new CsvStream(in);
                CsvStream.Cursor c = s.open(required);
                streams.add(s);
                cursors.add(c);
                if (header == null) {
                    header = c.header();
                    if (header.contains("shard")) {
                        throw new AnalysisException(
                                in
                                        + ":1: already has a shard column (a merged log?); pass the shards' own run directories");
                    }
                } else if (!header.equals(c.header())) {
                    throw new AnalysisException(in + ":1: its columns differ from " + inputs.get(0) + " (" + c.header()
                            + " vs " + header + "); merge shards written by the same rubis-client version");
                }
            }
            PriorityQueue<Head> heads = new PriorityQueue<>(
                    (a, b) -> a.key != b.key ? Long.compare(a.key, b.key) : Integer.compare(a.shard, b.shard));
            for (int i = 0; i < cursors.size(); i++) {
                advance(heads, cursors.get(i), i, key);
            }
            Files.createDirectories(out.toAbsolutePath().getParent());
            long rows = 0;
            try (Writer w = Files.newBufferedWriter(out, StandardCharsets.UTF_8);
                    CSVPrinter p = new CSVPrinter(w, OUT)) {
                List<String> outHeader = new ArrayList<>(header);
                outHeader.add("shard");
                p.printRecord(outHeader);
                List<String> line = new ArrayList<>(outHeader.size());
                while (!heads.isEmpty()) {
                    Head h = heads.poll();
                    line.clear();
                    line.addAll(h.row.values());
                    line.add(Integer.toString(h.shard));
                    p.printRecord(line);
                    rows++;
                    listener.row(h.shard, h.row);
                    advance(heads, cursors.get(h.shard), h.shard, key);
                }
            }
            List<Path> truncated = new ArrayList<>();
            for (int i = 0; i < streams.size(); i++) {
                if (streams.get(i).truncated()) {
                    truncated.add(inputs.get(i));
                }
            }
            return new Result(rows, truncated);
        } catch (IOException e) {
            throw new AnalysisException(out + ": cannot write: " + e.getMessage());
        } finally {
            for (CsvStream.Cursor c : cursors) {
                try {
                    c.close();
                } catch (IOException ignored) {
                    // read-only; nothing is lost
                }
            }
        }
    }

    private static void advance(
            PriorityQueue<Head> heads, CsvStream.Cursor c, int shard, ToLongFunction<CsvStream.Row> key) {
        CsvStream.Row r = c.next();
        if (r != null) {
            heads.add(new Head(key.applyAsLong(r), shard, r));
        }
    }
}
