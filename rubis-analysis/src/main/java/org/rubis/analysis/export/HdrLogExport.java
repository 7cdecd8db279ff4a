package org.rubis.analysis.export;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.rubis.analysis.io.CsvStream;
import org.rubis.analysis.io.RunDirectory;
import org.rubis.format.Columns;

/**
 * Writes a run's response times as an HdrHistogram interval log ({@code response-times.hlog}), so the
 * HdrHistogram tools (HistogramLogProcessor, HistogramLogAnalyzer) read our runs like any other: one
 * interval per second of send time, one tag per phase ({@code up}, {@code run}, {@code down}), values in
 * nanoseconds ({@code response_ns}), requests that ended with an error left out. Built from requests.csv,
 * so it works on any run directory, old ones included; memory grows with seconds, not requests.
 */
public final class HdrLogExport {

    /** Significant digits of every interval histogram. */
    static final int DIGITS = 3;

    private final RunDirectory run;

    public HdrLogExport(RunDirectory run) {
        this.run = run;
    }

    /** Writes the log; returns the number of requests recorded. */
    public long write(Path out) throws IOException {
        // second index -> phase -> histogram; the log is in completion order, so intervals are assembled first.
        TreeMap<Long, Map<String, Histogram>> seconds = new TreeMap<>();
        long[] recorded = {0};
        new CsvStream(run.requests()).forEach(Columns.REQUESTS_REQUIRED, r -> {
            if (!r.get("error").isEmpty()) {
                return;
            }
            long send = r.getLong("send_epoch_ns");
            Histogram h = seconds.computeIfAbsent(Math.floorDiv(send, 1_000_000_000L), s -> new TreeMap<>())
                    .computeIfAbsent(r.get("phase"), p -> {
                        Histogram n = new Histogram(DIGITS);
                        n.setTag(p);
                        return n;
                    });
            h.recordValue(Math.max(0, r.getLong("response_ns")));
            recorded[0]++;
        });
        try (PrintStream ps = new PrintStream(Files.newOutputStream(out), false, StandardCharsets.US_ASCII)) {
            HistogramLogWriter w = new HistogramLogWriter(ps);
            w.outputComment("response times (ns) of " + run.dir().toAbsolutePath()
                    + ", one interval per second of send time, tag = phase");
            w.outputLogFormatVersion();
            if (!seconds.isEmpty()) {
                long startMs = seconds.firstKey() * 1000;
                w.outputStartTime(startMs);
                w.setBaseTime(startMs);
            }
            w.outputLegend();
            for (Map.Entry<Long, Map<String, Histogram>> e : seconds.entrySet()) {
                for (Histogram h : e.getValue().values()) {
                    h.setStartTimeStamp(e.getKey() * 1000);
                    h.setEndTimeStamp(e.getKey() * 1000 + 1000);
                    w.outputIntervalHistogram(h);
                }
            }
        }
        return recorded[0];
    }
}
