package org.rubis.client.profile;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.rubis.client.input.ConfigException;
import org.rubis.client.input.Source;

/**
 * A time series of load, {@code time,value} per line (a request-rate trace, users per minute...), read to drive a
 * profile: times in any unit (they are rescaled), strictly increasing and evenly spaced (a gap, a step more than
 * twice the series' median, is refused: a trace with missing samples would read as a fall to the next value), values
 * numbers of 0 or more. A first line that is not numbers is a header; {@code #} comments and blank lines are skipped.
 */
public final class TimeSeries {

    private final double[] times;
    private final double[] values;

    private TimeSeries(double[] times, double[] values) {
        this.times = times;
        this.values = values;
    }

    /** Reads {@code source}; every mistake is one line naming the file and line. */
    public static TimeSeries read(Source source) {
        List<String> lines = source.readLines();
        List<double[]> rows = new ArrayList<>();
        List<Integer> lineNumbers = new ArrayList<>();
        boolean first = true;
        for (int n = 1; n <= lines.size(); n++) {
            String raw = lines.get(n - 1);
            int hash = raw.indexOf('#');
            String text = (hash >= 0 ? raw.substring(0, hash) : raw).strip();
            if (text.isEmpty()) {
                continue;
            }
            String where = source.displayName() + ":" + n;
            String[] f = text.split("\\s*[,;\\t]\\s*|\\s+");
            if (f.length != 2) {
                throw new ConfigException(where + ": \"" + ProfileFile.abbreviate(text) + "\" has " + f.length
                        + " fields; expected 'time,value', e.g. 60,1250");
            }
            double t;
            double v;
            try {
                t = Double.parseDouble(f[0]);
                v = Double.parseDouble(f[1]);
            } catch (NumberFormatException e) {
                if (first) {
                    first = false;
                    continue; // a header
                }
                throw new ConfigException(where + ": \"" + ProfileFile.abbreviate(text)
                        + "\" is not two numbers; expected " + "'time,value', e.g. 60,1250");
            }
            first = false;
            if (!Double.isFinite(t) || !Double.isFinite(v) || v < 0) {
                throw new ConfigException(where + ": \"" + ProfileFile.abbreviate(text)
                        + "\": expected a finite time and a value of 0 " + "or more");
            }
            if (!rows.isEmpty() && t <= rows.get(rows.size() - 1)[0]) {
                throw new ConfigException(where + ": time " + f[0] + " is not after the previous line's ("
                        + lineNumbers.get(lineNumbers.size() - 1) + "); sort the series by time");
            }
            rows.add(new double[] {t, v});
            lineNumbers.add(n);
        }
        if (rows.size() < 2) {
            throw new ConfigException(
                    source.displayName() + ": " + rows.size() + " samples; expected at least two lines 'time,value'");
        }
        double median = medianStep(source, rows, lineNumbers);
        double lastStep = median;
        double[] t = new double[rows.size()];
        double[] v = new double[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            t[i] = rows.get(i)[0];
            v[i] = rows.get(i)[1];
        }
        // The last sample covers a step as the others do: the series spans from its first time to its last plus one
        // step.
        return new TimeSeries(append(t, t[t.length - 1] + lastStep), v);
    }

    /** The series' step (the median gap between samples); a gap of more than twice it is a mistake. */
    private static double medianStep(Source source, List<double[]> rows, List<Integer> lineNumbers) {
        double[] steps = new double[rows.size() - 1];
        for (int i = 1; i < rows.size(); i++) {
            steps[i - 1] = rows.get(i)[0] - rows.get(i - 1)[0];
        }
        double[] sorted = steps.clone();
        Arrays.sort(sorted);
        double median = sorted[sorted.length / 2];
        for (int i = 0; i < steps.length; i++) {
            if (steps[i] > 2 * median) {
                throw new ConfigException(source.displayName() + ":" + lineNumbers.get(i + 1) + ": a gap: "
                        + Profiles.number(steps[i]) + " after the previous sample (line " + lineNumbers.get(i)
                        + "), more than twice the series' step of " + Profiles.number(median)
                        + "; fill the missing samples (the profile would read a gap as a fall)");
            }
        }
        return median;
    }

    private static double[] append(double[] a, double x) {
        double[] b = Arrays.copyOf(a, a.length + 1);
        b[a.length] = x;
        return b;
    }

    /** The largest value. */
    public double max() {
        double m = 0;
        for (double v : values) {
            m = Math.max(m, v);
        }
        return m;
    }

    public int samples() {
        return values.length;
    }

    /** The series' span, in its own time unit (each sample covers up to the next one, the last one step). */
    public double span() {
        return times[times.length - 1] - times[0];
    }

    /**
     * The series' mean over the fraction [{@code from}, {@code to}) of its span (0 to 1), each sample holding until
     * the next: what a request-rate trace averages to over that stretch.
     */
    public double mean(double from, double to) {
        double t0 = times[0] + from * span();
        double t1 = times[0] + to * span();
        // Summed as shares of the largest value, so that values near Double.MAX_VALUE do not overflow the sum.
        double max = max();
        if (max == 0) {
            return 0;
        }
        double sum = 0;
        for (int i = 0; i < values.length; i++) {
            double a = Math.max(t0, times[i]);
            double b = Math.min(t1, times[i + 1]);
            if (b > a) {
                sum += values[i] / max * ((b - a) / (t1 - t0));
            }
        }
        return t1 > t0 ? Math.min(1, sum) * max : 0;
    }
}
