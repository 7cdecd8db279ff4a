package org.rubis.analysis.export;

import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.rubis.analysis.io.CsvStream;
import org.rubis.analysis.io.RunDirectory;
import org.rubis.format.run.Columns;

/**
 * Writes a run's response times as an HdrHistogram interval log ({@code response-times.hlog}), so the
 * HdrHistogram tools (HistogramLogProcessor, HistogramLogAnalyzer) read our runs like any other: one
 * interval per second of send time, one tag per phase ({@code up}, {@code run}, {@code down}), values in
 * nanoseconds ({@code response_ns}), requests that ended with an error left out. Built from requests.csv,
 * so it works on any run directory, old ones included. The log is in completion order, so a second is written once
 * the sends have moved {@link #WINDOW_NS} past it: memory holds that window's seconds, not the run's (a histogram of a
 * second is about 150 KB, and a run of 10 million requests has thousands of seconds). A send later than the window
 * (none in a log of ours) is written as an interval of its own second after the others of that time.
 */
public final class HdrLogExport {

    /** Significant digits of every interval histogram. */
    static final int DIGITS = 3;

    /** How far a send may come behind the newest one: well above any response time. */
    static final long WINDOW_NS = 120_000_000_000L;

    private final RunDirectory run;

    public HdrLogExport(RunDirectory run) {
        this.run = run;
    }

    /** Writes the log from requests.csv; returns the number of requests recorded. */
    public long write(Path out) throws IOException {
        try (Pass pass = open(out)) {
            new CsvStream(run.requests()).forEach(Columns.REQUESTS_REQUIRED, pass);
            return pass.recorded;
        }
    }

    /** A log written from the rows it is given (a pass over requests.csv made for more than this log). */
    public Pass open(Path out) throws IOException {
        return new Pass(out);
    }

    /** The rows of one pass over requests.csv, written to the log as their seconds close. */
    public final class Pass implements Consumer<CsvStream.Row>, Closeable {
        private final PrintStream ps;
        private final HistogramLogWriter w;
        /** second -> phase -> histogram: the seconds not yet written. */
        private final TreeMap<Long, Map<String, Histogram>> seconds = new TreeMap<>();

        private long recorded;
        private long newest = Long.MIN_VALUE;
        private boolean started;
        private long lastSecond = Long.MIN_VALUE;
        private String lastPhase;
        private Histogram last;

        private Pass(Path out) throws IOException {
            ps = new PrintStream(Files.newOutputStream(out), false, StandardCharsets.US_ASCII);
            w = new HistogramLogWriter(ps);
            w.outputComment("response times (ns) of " + run.dir().toAbsolutePath()
                    + ", one interval per second of send time, tag = phase");
            w.outputLogFormatVersion();
        }

        /** Records one row of requests.csv. */
        @Override
        public void accept(CsvStream.Row r) {
            if (!r.isEmpty("error")) {
                return;
            }
            long send = r.getLong("send_epoch_ns");
            long second = Math.floorDiv(send, 1_000_000_000L);
            String phase = r.get("phase");
            if (second != lastSecond || !phase.equals(lastPhase) || last == null) {
                last = seconds.computeIfAbsent(second, s -> new TreeMap<>()).computeIfAbsent(phase, p -> {
                    Histogram n = new Histogram(DIGITS);
                    n.setTag(p);
                    return n;
                });
                lastSecond = second;
                lastPhase = phase;
            }
            last.recordValue(Math.max(0, r.getLong("response_ns")));
            recorded++;
            if (send > newest) {
                newest = send;
                writeBefore(Math.floorDiv(newest - WINDOW_NS, 1_000_000_000L));
            }
        }

        /** Writes the seconds before {@code second}. */
        private void writeBefore(long second) {
            while (!seconds.isEmpty() && seconds.firstKey() < second) {
                Map.Entry<Long, Map<String, Histogram>> e = seconds.pollFirstEntry();
                if (e.getKey() == lastSecond) {
                    last = null;
                }
                if (!started) {
                    start(e.getKey() * 1000);
                }
                for (Histogram h : e.getValue().values()) {
                    h.setStartTimeStamp(e.getKey() * 1000);
                    h.setEndTimeStamp(e.getKey() * 1000 + 1000);
                    w.outputIntervalHistogram(h);
                }
            }
        }

        private void start(long startMs) {
            started = true;
            w.outputStartTime(startMs);
            w.setBaseTime(startMs);
            w.outputLegend();
        }

        /** The requests recorded so far. */
        public long recorded() {
            return recorded;
        }

        /** Writes the seconds still open and closes the log. */
        @Override
        public void close() {
            if (seconds.isEmpty() && !started) {
                w.outputLegend();
            }
            writeBefore(Long.MAX_VALUE);
            ps.close();
        }
    }
}
