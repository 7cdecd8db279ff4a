package org.rubis.lab.reproduce;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.rubis.analysis.io.CsvStream;
import org.rubis.format.run.RunFiles;

/**
 * The connections a server accepted during a run, from its own connections.csv (open and close
 * instants, requests carried): how many were open at each instant, and how many requests each carried.
 */
final class ConnectionTimeline {

    final long[] opens;
    final long[] closes;
    final Map<Integer, Long> requestsPerConnection = new TreeMap<>();
    int maxRequests;

    private ConnectionTimeline(long[] opens, long[] closes) {
        this.opens = opens;
        this.closes = closes;
    }

    /** Reads RUN_DIR/server/connections.csv; connections that carried no request (probes) are left out. */
    static ConnectionTimeline read(Path runDir) {
        Path f = RunFiles.serverConnections(runDir);
        List<long[]> spans = new ArrayList<>();
        Map<Integer, Long> perConn = new TreeMap<>();
        if (Files.isRegularFile(f)) {
            new CsvStream(f).forEach(List.of("open_epoch_ns", "close_epoch_ns", "requests"), row -> {
                int requests = row.getInt("requests");
                if (requests == 0) {
                    return;
                }
                spans.add(new long[] {row.getLong("open_epoch_ns"), row.getLong("close_epoch_ns")});
                perConn.merge(requests, 1L, Long::sum);
            });
        }
        ConnectionTimeline t = new ConnectionTimeline(
                spans.stream().mapToLong(s -> s[0]).sorted().toArray(),
                spans.stream().mapToLong(s -> s[1]).sorted().toArray());
        t.requestsPerConnection.putAll(perConn);
        t.maxRequests =
                perConn.keySet().stream().mapToInt(Integer::intValue).max().orElse(0);
        return t;
    }

    int connections() {
        return opens.length;
    }

    /** Connections open at {@code t} (epoch ns). */
    int openAt(long t) {
        int opened = upTo(opens, t);
        int closed = upTo(closes, t);
        return opened - closed;
    }

    /** The largest number open at once between {@code from} and {@code to} (epoch ns; exact: evaluated at every open). */
    int maxOpen(long from, long to) {
        int max = openAt(from);
        for (long t : opens) {
            if (t >= from && t <= to) {
                max = Math.max(max, openAt(t));
            }
        }
        return max;
    }

    /** Samples of {seconds since the first open, connections open}, every {@code stepMs}. */
    List<double[]> series(long stepMs) {
        List<double[]> out = new ArrayList<>();
        if (opens.length == 0) {
            return out;
        }
        long t0 = opens[0];
        long end = closes[closes.length - 1];
        for (long t = t0; t <= end; t += stepMs * 1_000_000L) {
            out.add(new double[] {(t - t0) / 1e9, openAt(t)});
        }
        return out;
    }

    private static int upTo(long[] sorted, long t) {
        int i = Arrays.binarySearch(sorted, t);
        if (i < 0) {
            return -i - 1;
        }
        while (i + 1 < sorted.length && sorted[i + 1] == t) {
            i++;
        }
        return i + 1;
    }
}
