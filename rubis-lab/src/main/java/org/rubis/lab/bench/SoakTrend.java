package org.rubis.lab.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.rubis.analysis.io.CsvStream;
import org.rubis.format.run.RunFiles;

/**
 * Reads a soak run's client-health.csv and client-gc.csv and says whether heap, file descriptors
 * and threads stay flat. The heap is judged on the used heap after collections (client-gc.csv's
 * {@code heap_after_bytes}, the lowest of each minute), since the raw heap saw-tooths with every
 * collection and only what survives collections shows a leak; fds and threads on the median of each
 * minute. A series is GROWING when its least-squares drift over the judged span exceeds both a
 * tolerance (5 % of its mean, or an absolute floor) and three standard errors of that drift, so
 * noise around a flat level is not mistaken for growth. A series of fewer than {@value #MIN_POINTS} points (a
 * run shorter than its warm-up plus three minutes) is NOT JUDGED: a line through no points is not flat.
 */
final class SoakTrend {

    /** Growth over the span above this fraction of the mean (and above the absolute floor) is "growing". */
    static final double FLAT_FRACTION = 0.05;
    /** The drift must also exceed this many standard errors of itself to count as growth. */
    static final double SIGNIFICANCE = 3;
    /** One-minute points a series needs to be judged: a line, and a standard error from its residuals. */
    static final int MIN_POINTS = 3;

    /** The length (up ramp and run phase, s) a run needs for every series to have its points after the warm-up. */
    static double minimumRunSeconds(double skipSeconds) {
        return 60 * (Math.floor(skipSeconds / 60) + MIN_POINTS);
    }

    /** One figure over time: {@code t} in seconds from the first health sample, one point per minute. */
    record Series(String name, String unit, double[] t, double[] v, double absoluteFloor) {
        double slopePerMinute() {
            int n = t.length;
            if (n < 2) {
                return 0;
            }
            double mt = average(t), mv = average(v);
            double num = 0, den = 0;
            for (int i = 0; i < n; i++) {
                num += (t[i] - mt) * (v[i] - mv);
                den += (t[i] - mt) * (t[i] - mt);
            }
            return den == 0 ? 0 : num / den * 60;
        }

        /** The standard error of the slope (per minute), from the residuals around the fitted line. */
        double slopeErrorPerMinute() {
            int n = t.length;
            if (n < 3) {
                return 0;
            }
            double mt = average(t), mv = average(v), b = slopePerMinute() / 60;
            double den = 0, ss = 0;
            for (int i = 0; i < n; i++) {
                den += (t[i] - mt) * (t[i] - mt);
                double r = v[i] - (mv + b * (t[i] - mt));
                ss += r * r;
            }
            return den == 0 ? 0 : Math.sqrt(ss / (n - 2) / den) * 60;
        }

        double mean() {
            return average(v);
        }

        double spanMinutes() {
            return t.length < 2 ? 0 : (t[t.length - 1] - t[0]) / 60;
        }

        /** The growth the fitted line implies over the judged span (a falling figure is no leak). */
        double drift() {
            return slopePerMinute() * spanMinutes();
        }

        double tolerance() {
            return Math.max(absoluteFloor, FLAT_FRACTION * Math.abs(mean()));
        }

        /** Enough points for a slope and its standard error. */
        boolean judged() {
            return t.length >= MIN_POINTS;
        }

        /** Judged and flat: a series of too few points is neither flat nor growing. */
        boolean flat() {
            if (!judged()) {
                return false;
            }
            double drift = drift();
            return drift <= tolerance() || drift <= SIGNIFICANCE * slopeErrorPerMinute() * spanMinutes();
        }

        String line() {
            if (!judged()) {
                return String.format(
                        Locale.ROOT,
                        "%-8s not judged: %d one-minute point%s after the warm-up, need %d",
                        name,
                        t.length,
                        t.length == 1 ? "" : "s",
                        MIN_POINTS);
            }
            return String.format(
                    Locale.ROOT,
                    "%-8s mean %10.1f %-4s slope %+9.2f ± %.2f %s/min over %.1f min (%d points): %s",
                    name,
                    mean(),
                    unit,
                    slopePerMinute(),
                    slopeErrorPerMinute(),
                    unit,
                    spanMinutes(),
                    t.length,
                    flat() ? "FLAT" : "GROWING");
        }
    }

    /** The judged series of one soak run directory, and where its heap figure came from. */
    record Trend(List<Series> series, String heapSource, List<double[]> rows, List<double[]> heapAfter) {
        /** Every series judged and flat. */
        boolean flat() {
            return series.stream().allMatch(Series::flat);
        }

        boolean judged() {
            return series.stream().allMatch(Series::judged);
        }

        /** Seconds from the first health sample to the last: how long the client ran. */
        double seconds() {
            return rows.isEmpty() ? 0 : rows.get(rows.size() - 1)[0];
        }

        /**
         * What was judged, in words: from when on, or why nothing (or not every series) could be: the run ended
         * before the warm-up did, or left too few minutes after it.
         */
        String judgedFrom(double skipSeconds) {
            if (judged()) {
                return String.format(Locale.ROOT, "judged from %.0f s on", skipSeconds);
            }
            if (seconds() <= skipSeconds) {
                return String.format(
                        Locale.ROOT,
                        "NOT JUDGED: the run (%.0f s) is shorter than the warm-up window (%.0f s)",
                        seconds(),
                        skipSeconds);
            }
            return String.format(
                    Locale.ROOT,
                    "NOT JUDGED: the run (%.0f s) leaves %.0f s after the warm-up window (%.0f s), too few for %d"
                            + " one-minute points (that needs samples up to %.0f s)",
                    seconds(),
                    seconds() - skipSeconds,
                    skipSeconds,
                    MIN_POINTS,
                    60 * (Math.floor(skipSeconds / 60) + MIN_POINTS - 1));
        }

        /**
         * One line per window of {@code minutes}: heap after GC (lowest, highest), fds and threads
         * (highest), over the whole run (the warm-up included, marked).
         */
        List<String> windows(int minutes, double skipSeconds) {
            List<String> out = new ArrayList<>();
            out.add(String.format(
                    Locale.ROOT,
                    "%-13s %17s %17s %8s %8s",
                    "window (min)",
                    "heap after GC MiB",
                    "heap used max MiB",
                    "fds max",
                    "threads"));
            double end = rows.isEmpty() ? 0 : rows.get(rows.size() - 1)[0];
            for (int w = 0; w * minutes * 60 <= end; w++) {
                double from = w * minutes * 60.0, to = from + minutes * 60.0;
                double hMin = Double.NaN, hMax = Double.NaN, used = Double.NaN, fds = Double.NaN, thr = Double.NaN;
                for (double[] h : heapAfter) {
                    if (h[0] >= from && h[0] < to) {
                        hMin = Double.isNaN(hMin) ? h[1] : Math.min(hMin, h[1]);
                        hMax = Double.isNaN(hMax) ? h[1] : Math.max(hMax, h[1]);
                    }
                }
                for (double[] r : rows) {
                    if (r[0] >= from && r[0] < to) {
                        used = Double.isNaN(used) ? r[1] : Math.max(used, r[1]);
                        thr = Double.isNaN(thr) ? r[2] : Math.max(thr, r[2]);
                        fds = Double.isNaN(fds) ? r[3] : Math.max(fds, r[3]);
                    }
                }
                String heap = Double.isNaN(hMin) ? "-" : String.format(Locale.ROOT, "%.0f-%.0f", hMin, hMax);
                out.add(String.format(
                        Locale.ROOT,
                        "%-13s %17s %17.0f %8.0f %8.0f",
                        w * minutes + "-" + (w + 1) * minutes + (from < skipSeconds ? "*" : ""),
                        heap,
                        used,
                        fds,
                        thr));
            }
            out.add("(* includes the ramp and warm-up, not judged)");
            return out;
        }
    }

    /** The series of the run in {@code dir} from {@code skipSeconds} after its first health sample on. */
    static Trend read(Path dir, double skipSeconds) throws IOException {
        List<double[]> rows = new ArrayList<>(); // {s, heap used MiB, threads, fds}
        long first = -1;
        try (CsvStream.Cursor c = new CsvStream(RunFiles.clientHealth(dir))
                .open(
                        List.of("epoch_ms", "heap_used_bytes", "threads"),
                        List.of("epoch_ms", "heap_used_bytes", "threads"))) {
            boolean fds = c.header().contains("open_fds"); // came later: older runs lack it
            for (CsvStream.Row r; (r = c.next()) != null; ) { // a torn last line of a killed run is skipped
                long e = r.getLong("epoch_ms");
                first = first < 0 ? e : first;
                String fd = fds ? r.get("open_fds") : "";
                rows.add(new double[] {
                    (e - first) / 1000.0,
                    r.getLong("heap_used_bytes") / (double) (1 << 20),
                    r.getLong("threads"),
                    fd.isEmpty() ? -1 : Double.parseDouble(fd)
                });
            }
        }
        List<double[]> after = heapAfter(RunFiles.clientGc(dir), first);
        List<double[]> judgedRows =
                rows.stream().filter(r -> r[0] >= skipSeconds).toList();
        List<double[]> judgedAfter =
                after.stream().filter(r -> r[0] >= skipSeconds).toList();
        Series heapSeries;
        String source;
        if (perMinute(judgedAfter, 1, true).size() >= 3) {
            heapSeries = series("heap", "MiB", perMinute(judgedAfter, 1, true), 16);
            source = "used heap after each collection (client-gc.csv), lowest of each minute";
        } else {
            heapSeries = series("heap", "MiB", perMinute(judgedRows, 1, true), 16);
            source =
                    "lowest heap sample of each minute (client-health.csv): too few collections recorded their heap-after";
        }
        return new Trend(
                List.of(
                        heapSeries,
                        series("fds", "", perMinute(judgedRows, 3, false), 20),
                        series("threads", "", perMinute(judgedRows, 2, false), 10)),
                source,
                rows,
                after);
    }

    /** {s, heap after MiB} for each collection in client-gc.csv, or none when the column is absent (older runs). */
    private static List<double[]> heapAfter(Path gcCsv, long firstEpochMs) throws IOException {
        List<double[]> out = new ArrayList<>();
        if (!Files.isRegularFile(gcCsv) || firstEpochMs < 0) {
            return out;
        }
        try (CsvStream.Cursor c = new CsvStream(gcCsv).open(List.of("end_epoch_ms"), List.of("end_epoch_ms"))) {
            if (!c.header().contains("heap_after_bytes")) {
                return out;
            }
            for (CsvStream.Row r; (r = c.next()) != null; ) {
                out.add(new double[] {
                    (r.getLong("end_epoch_ms") - firstEpochMs) / 1000.0, r.getDouble("heap_after_bytes") / (1 << 20)
                });
            }
        }
        out.sort(Comparator.comparingDouble(r -> r[0])); // concurrent cycles may end after a later pause
        return out;
    }

    /** One point per minute at its middle: the minimum ({@code min}) or the median of column {@code col}. */
    static List<double[]> perMinute(List<double[]> rows, int col, boolean min) {
        List<double[]> out = new ArrayList<>();
        int i = 0;
        while (i < rows.size()) {
            int minute = (int) Math.floor(rows.get(i)[0] / 60);
            int j = i;
            while (j < rows.size() && (int) Math.floor(rows.get(j)[0] / 60) == minute) {
                j++;
            }
            double[] vs = rows.subList(i, j).stream()
                    .mapToDouble(r -> r[col])
                    .sorted()
                    .toArray();
            out.add(new double[] {minute * 60 + 30, min ? vs[0] : vs[vs.length / 2]});
            i = j;
        }
        return out;
    }

    private static Series series(String name, String unit, List<double[]> points, double floor) {
        return new Series(
                name,
                unit,
                points.stream().mapToDouble(p -> p[0]).toArray(),
                points.stream().mapToDouble(p -> p[1]).toArray(),
                floor);
    }

    private static double average(double[] a) {
        return a.length == 0 ? 0 : Arrays.stream(a).sum() / a.length;
    }
}
