package org.rubis.client.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads a soak run's client-health.csv and says whether heap, file descriptors and threads stay
 * flat: a least-squares slope over the run after its warm-up, and the drift it implies over the
 * measured span compared with the mean. Heap is judged on its floor (the lowest sample of each
 * minute, i.e. after collections), since the raw heap saw-tooths with every GC.
 */
final class SoakTrend {

    /** Growth over the span above this fraction of the mean (and above the absolute floor) is "growing". */
    static final double FLAT_FRACTION = 0.05;

    record Series(String name, String unit, double[] t, double[] v, double absoluteFloor) {
        double slopePerMinute() {
            int n = t.length;
            if (n < 2) {
                return 0;
            }
            double mt = 0, mv = 0;
            for (int i = 0; i < n; i++) {
                mt += t[i];
                mv += v[i];
            }
            mt /= n;
            mv /= n;
            double num = 0, den = 0;
            for (int i = 0; i < n; i++) {
                num += (t[i] - mt) * (v[i] - mv);
                den += (t[i] - mt) * (t[i] - mt);
            }
            return den == 0 ? 0 : num / den * 60;
        }

        double mean() {
            double s = 0;
            for (double x : v) {
                s += x;
            }
            return v.length == 0 ? 0 : s / v.length;
        }

        double spanMinutes() {
            return t.length < 2 ? 0 : (t[t.length - 1] - t[0]) / 60;
        }

        boolean flat() {
            double drift = slopePerMinute() * spanMinutes(); // a falling count is no leak
            return drift <= Math.max(absoluteFloor, FLAT_FRACTION * Math.abs(mean()));
        }

        String line() {
            return String.format(Locale.ROOT, "%-8s mean %12.1f %-4s slope %+10.2f %s/min over %.1f min: %s", name, mean(), unit,
                    slopePerMinute(), unit, spanMinutes(), flat() ? "FLAT" : "GROWING");
        }
    }

    /** The series of the samples from {@code skipSeconds} after the first one on. */
    static List<Series> read(Path healthCsv, double skipSeconds) throws IOException {
        List<String> lines = Files.readAllLines(healthCsv);
        List<String> head = List.of(lines.get(0).split(","));
        int ep = head.indexOf("epoch_ms"), heap = head.indexOf("heap_used_bytes"), thr = head.indexOf("threads"), fd = head.indexOf("open_fds");
        List<double[]> rows = new ArrayList<>();
        long first = -1;
        for (String l : lines.subList(1, lines.size())) {
            String[] f = l.split(",");
            if (f.length != head.size()) {
                continue;
            }
            long e = Long.parseLong(f[ep]);
            first = first < 0 ? e : first;
            double s = (e - first) / 1000.0;
            if (s >= skipSeconds) {
                rows.add(new double[] {s, Double.parseDouble(f[heap]) / (1 << 20), Double.parseDouble(f[thr]), fd < 0 ? -1 : Double.parseDouble(f[fd])});
            }
        }
        // Heap floor: the minimum of each minute.
        List<double[]> floor = new ArrayList<>();
        for (double[] r : rows) {
            int minute = (int) (r[0] / 60);
            if (floor.isEmpty() || (int) (floor.get(floor.size() - 1)[0] / 60) != minute) {
                floor.add(new double[] {minute * 60 + 30, r[1]});
            } else {
                double[] last = floor.get(floor.size() - 1);
                last[1] = Math.min(last[1], r[1]);
            }
        }
        return List.of(
                new Series("heap", "MiB", col(floor, 0), col(floor, 1), 16),
                new Series("fds", "", col(rows, 0), col(rows, 3), 20),
                new Series("threads", "", col(rows, 0), col(rows, 2), 10));
    }

    /** "90", "90s", "2m", "500ms", "1h" in seconds (the run command has validated it already). */
    static double seconds(String d) {
        String t = d.trim().toLowerCase(Locale.ROOT);
        if (t.endsWith("ms")) {
            return Double.parseDouble(t.substring(0, t.length() - 2)) / 1000;
        }
        char u = t.charAt(t.length() - 1);
        double f = u == 'h' ? 3600 : u == 'm' ? 60 : 1;
        return Double.parseDouble(Character.isDigit(u) ? t : t.substring(0, t.length() - 1)) * f;
    }

    private static double[] col(List<double[]> rows, int i) {
        return rows.stream().mapToDouble(r -> r[i]).toArray();
    }
}
