package org.rubis.client.arrival;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.rubis.client.input.ConfigException;

/**
 * A piecewise-constant session rate, for flash crowds: lines {@code start_s rate_per_s}, each rate
 * holding until the next line's start (the last one until the end of the run). Within a piece,
 * arrivals are exponential (a non-homogeneous Poisson process) or evenly spaced.
 *
 * <pre>
 * # 10 sessions/s, a flash crowd of 333/s for 4 s at t=20 s, then 10/s again
 * 0   10
 * 20  333
 * 24  10
 * </pre>
 */
public final class RateSchedule implements SessionArrivals {

    private final Path file;
    private final double[] startsNs;
    private final double[] rates;
    private final boolean exponential;
    private final SplittableRandom random;
    private double t;
    private int piece;
    private long k; // deterministic: index within the piece

    public RateSchedule(Path file, boolean exponential, long seed) {
        this.file = file;
        this.exponential = exponential;
        this.random = new SplittableRandom(seed ^ 0x2545F4914F6CDD1DL);
        List<double[]> pieces = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int n = 0;
            double last = -1;
            while ((line = r.readLine()) != null) {
                n++;
                String s = line.strip();
                if (s.isEmpty() || s.startsWith("#")) {
                    continue;
                }
                String[] f = s.split("[\\s,;]+");
                if (f.length != 2) {
                    throw new ConfigException(file + ":" + n + ": \"" + s + "\" has " + f.length + " fields; expected 'start_s rate_per_s', e.g. 20 333");
                }
                double start;
                double rate;
                try {
                    start = Double.parseDouble(f[0]);
                    rate = Double.parseDouble(f[1]);
                } catch (NumberFormatException e) {
                    throw new ConfigException(file + ":" + n + ": \"" + s + "\" is not two numbers; expected 'start_s rate_per_s', e.g. 20 333");
                }
                if (!(start >= 0) || !(rate >= 0) || Double.isInfinite(start) || Double.isInfinite(rate)) {
                    throw new ConfigException(file + ":" + n + ": start and rate must be finite and >= 0");
                }
                if (!org.rubis.client.config.Limits.durationFits(start * 1000) || rate != 0 && (rate < org.rubis.client.config.Limits.MIN_RATE
                        || rate > org.rubis.client.config.Limits.MAX_RATE)) {
                    throw new ConfigException(file + ":" + n + ": \"" + s + "\" is out of range; expected a start from 0 to 30 days (2592000 s)"
                            + " and a rate of 0 or from 1e-06 to 1000000 per second");
                }
                if (start <= last) {
                    throw new ConfigException(file + ":" + n + ": start " + f[0] + " s is not after the previous line's " + last + " s; lines must be in increasing start order");
                }
                last = start;
                pieces.add(new double[] {start * 1e9, rate});
            }
        } catch (IOException e) {
            throw new ConfigException(file + ": cannot read the rate schedule: " + e.getMessage());
        }
        if (pieces.isEmpty()) {
            throw new ConfigException(file + ": empty rate schedule; expected lines 'start_s rate_per_s'");
        }
        startsNs = pieces.stream().mapToDouble(p -> p[0]).toArray();
        rates = pieces.stream().mapToDouble(p -> p[1]).toArray();
        t = startsNs[0];
    }

    private double end(int p) {
        return p + 1 < startsNs.length ? startsNs[p + 1] : Double.POSITIVE_INFINITY;
    }

    @Override
    public long next() {
        while (piece < rates.length) {
            double rate = rates[piece];
            if (rate > 0) {
                double candidate = exponential
                        ? t + -Math.log(1.0 - random.nextDouble()) * 1e9 / rate
                        : startsNs[piece] + k * 1e9 / rate;
                if (candidate < end(piece)) {
                    t = candidate;
                    k++;
                    return (long) candidate;
                }
            }
            if (Double.isInfinite(end(piece))) {
                return -1;
            }
            // Memoryless: restarting the draw at the piece boundary keeps the process exact.
            t = end(piece);
            piece++;
            k = 0;
        }
        return -1;
    }

    @Override
    public String describe() {
        StringBuilder b = new StringBuilder("rate schedule " + file + " (" + (exponential ? "exponential" : "deterministic") + "):");
        for (int i = 0; i < rates.length; i++) {
            b.append(String.format(Locale.ROOT, " %gs:%g/s", startsNs[i] / 1e9, rates[i]));
        }
        return b.toString();
    }
}
