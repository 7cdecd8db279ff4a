package org.rubis.client.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rubis.format.run.Columns;
import org.rubis.format.run.RunFiles;

/**
 * The client's health within one stretch of the run (an interval of a load profile), from the logs the health
 * monitor wrote once a second (client-health.csv) and at each collection (client-gc.csv), read back once they are
 * closed: the verdict's indicators for that stretch. A sample counts in the stretch its instant falls in.
 */
final class IntervalHealth {

    /** Means over the samples of a stretch (NaN when it has none or the column is empty), and its longest GC pause. */
    record Figures(
            double cpuCores,
            double otherCores,
            double stealCores,
            double procsRunning,
            double serverCores,
            long gcMaxPauseMs,
            int samples) {}

    private final List<double[]> samples = new ArrayList<>();
    private final List<long[]> pauses = new ArrayList<>();

    private static final int EPOCH = Columns.CLIENT_HEALTH.indexOf("epoch_ms");
    private static final int CPU = Columns.CLIENT_HEALTH.indexOf("cpu_cores");
    private static final int OTHER = Columns.CLIENT_HEALTH.indexOf("host_other_cpu_cores");
    private static final int STEAL = Columns.CLIENT_HEALTH.indexOf("host_steal_cores");
    private static final int PROCS = Columns.CLIENT_HEALTH.indexOf("procs_running");
    private static final int SERVER = Columns.CLIENT_HEALTH.indexOf("server_cpu_cores");

    /** Reads the run directory's logs; a missing or unreadable log leaves its figures unknown. */
    IntervalHealth(Path dir) {
        for (String[] f : rows(RunFiles.clientHealth(dir))) {
            samples.add(new double[] {
                number(f, EPOCH),
                number(f, CPU),
                number(f, OTHER),
                number(f, STEAL),
                number(f, PROCS),
                number(f, SERVER)
            });
        }
        for (String[] f : rows(RunFiles.clientGc(dir))) {
            double end = number(f, 0);
            double ms = number(f, 1);
            if (!Double.isNaN(end) && !Double.isNaN(ms)) {
                pauses.add(new long[] {(long) end, (long) ms});
            }
        }
    }

    /** The figures of the samples taken within [{@code fromEpochNs}, {@code toEpochNs}). */
    Figures within(long fromEpochNs, long toEpochNs) {
        double fromMs = fromEpochNs / 1e6;
        double toMs = toEpochNs / 1e6;
        double[] sum = new double[6];
        int[] n = new int[6];
        int count = 0;
        for (double[] s : samples) {
            if (s[0] >= fromMs && s[0] < toMs) {
                count++;
                for (int i = 1; i < 6; i++) {
                    if (!Double.isNaN(s[i])) {
                        sum[i] += s[i];
                        n[i]++;
                    }
                }
            }
        }
        long gc = 0;
        for (long[] p : pauses) {
            if (p[0] >= fromMs && p[0] < toMs) {
                gc = Math.max(gc, p[1]);
            }
        }
        return new Figures(
                mean(sum, n, 1), mean(sum, n, 2), mean(sum, n, 3), mean(sum, n, 4), mean(sum, n, 5), gc, count);
    }

    private static double mean(double[] sum, int[] n, int i) {
        return n[i] == 0 ? Double.NaN : sum[i] / n[i];
    }

    private static List<String[]> rows(Path file) {
        List<String[]> out = new ArrayList<>();
        if (!Files.isRegularFile(file)) {
            return out;
        }
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (int i = 1; i < lines.size(); i++) {
                out.add(lines.get(i).split(",", -1));
            }
        } catch (IOException | RuntimeException e) {
            // unknown: the figures stay NaN
        }
        return out;
    }

    private static double number(String[] f, int i) {
        if (i < 0 || i >= f.length || f[i].isEmpty()) {
            return Double.NaN;
        }
        try {
            double v = Double.parseDouble(f[i]);
            return v < 0 ? Double.NaN : v;
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }
}
