package org.rubis.client.arrival;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rubis.client.config.Limits;
import org.rubis.client.input.ConfigException;

/**
 * Inter-arrival times from a file, one value in milliseconds per line (decimals allowed; blank
 * lines and {@code #} comments skipped). The first session starts after the first value, so the
 * intended start instants are the cumulative sums of the file.
 */
public final class FileArrivals implements SessionArrivals {

    private final Path file;
    private final long[] offsetsNs;
    private int i;

    public FileArrivals(Path file) {
        this.file = file;
        List<Long> offsets = new ArrayList<>();
        double sumMs = 0;
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int n = 0;
            while ((line = r.readLine()) != null) {
                n++;
                String s = line.strip();
                if (s.isEmpty() || s.startsWith("#")) {
                    continue;
                }
                double ms;
                try {
                    ms = Double.parseDouble(s);
                } catch (NumberFormatException e) {
                    throw new ConfigException(file + ":" + n + ": \"" + abbreviate(s)
                            + "\" is not a number; expected one inter-arrival time in milliseconds per line");
                }
                if (!(ms >= 0) || Double.isInfinite(ms)) {
                    throw new ConfigException(file + ":" + n + ": " + s
                            + " is negative or not finite; expected an inter-arrival time >= 0 ms");
                }
                sumMs += ms;
                if (!Limits.durationFits(sumMs)) {
                    throw new ConfigException(file + ":" + n + ": " + abbreviate(s)
                            + " ms brings the arrivals past 30 days; expected inter-arrival times"
                            + " in milliseconds that sum to at most 30 days");
                }
                offsets.add(Math.round(sumMs * 1e6));
            }
        } catch (IOException e) {
            throw new ConfigException(file + ": cannot read the inter-arrival file: " + e.getMessage());
        }
        if (offsets.isEmpty()) {
            throw new ConfigException(file + ": no inter-arrival times; expected one value in milliseconds per line");
        }
        offsetsNs = offsets.stream().mapToLong(Long::longValue).toArray();
    }

    @Override
    public long next() {
        return i < offsetsNs.length ? offsetsNs[i++] : -1;
    }

    public int size() {
        return offsetsNs.length;
    }

    @Override
    public String describe() {
        return "inter-arrival file " + file + " (" + offsetsNs.length + " sessions over "
                + offsetsNs[offsetsNs.length - 1] / 1_000_000 + " ms)";
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
