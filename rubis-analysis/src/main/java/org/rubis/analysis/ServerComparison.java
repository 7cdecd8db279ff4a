package org.rubis.analysis;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import org.rubis.analysis.io.AnalysisException;
import org.rubis.analysis.io.CsvStream;
import org.rubis.analysis.io.Endpoint;
import org.rubis.analysis.io.RunDirectory;
import org.rubis.format.run.Columns;
import org.rubis.format.run.RunFiles;
import org.rubis.format.stats.LatencyStats;

/**
 * Client-reported versus server-measured times, request by request: on one connection requests are sequential,
 * so the k-th request the client sent on a connection is the k-th the server served on it. The reference probe's
 * requests ({@code run --probe}: {@link RunFiles#PROBE_QUERY}, on its own connection, logged in probe.csv) are not
 * the client's log's: they are counted apart and left out of every other figure.
 *
 * @param matched           requests found in both logs
 * @param clientOnly        client requests the server's log does not have (a failed connect, ...)
 * @param serverOnly        server requests the client's log does not have (the probe's excepted)
 * @param pathMismatches    matched pairs whose paths differ
 * @param clientMeanMs      the matched requests' mean as the client measured them
 * @param serverMeanMs      their mean as the server measured them
 * @param difference        client response minus server service per request, clipped at 0
 * @param negative          pairs where the client's time was the shorter (a clock or matching anomaly)
 * @param serverRequests    requests in the server's log, the probe's excepted
 * @param serverConnections distinct connections in the server's log, the probe's excepted
 * @param probeRequests     the reference probe's requests in the server's log
 */
public record ServerComparison(
        long matched,
        long clientOnly,
        long serverOnly,
        long pathMismatches,
        double clientMeanMs,
        double serverMeanMs,
        LatencyStats difference,
        long negative,
        long serverRequests,
        long serverConnections,
        long probeRequests) {

    /** Mean reported minus mean measured by the server, ms. */
    public double absoluteErrorMs() {
        return clientMeanMs - serverMeanMs;
    }

    /** A server request waiting for its client request. */
    private record Served(long serviceNs, String path) {}

    /**
     * Joins the client's and the server's logs. The two files are read in step (both are in completion order), so
     * memory stays bounded. Null when the server's log is empty.
     */
    static ServerComparison of(RunDirectory d, Notes notes) {
        Join j = new Join();
        CsvStream serverCsv = new CsvStream(d.serverRequests());
        try (CsvStream.Cursor server = serverCsv.open(Columns.SERVER_REQUESTS, RunDirectory.SERVER_REQUEST_NUMERIC)) {
            new CsvStream(d.requests())
                    .forEach(Columns.REQUESTS_REQUIRED, RunDirectory.REQUEST_NUMERIC, row -> j.client(row, server));
            for (CsvStream.Row s = server.next(); s != null; s = server.next()) {
                if (probe(s)) {
                    j.probeRequests++;
                    continue;
                }
                j.serverRequests++;
                j.serverOnly++;
                j.serverConnections.add(s.get("connection_id"));
            }
        } catch (IOException e) {
            throw new AnalysisException(d.serverRequests() + ": cannot read: " + e.getMessage());
        }
        for (ArrayDeque<Served> q : j.pending.values()) {
            j.serverOnly += q.size();
        }
        notes.account("server/requests.csv", serverCsv);
        if (serverCsv.empty()) {
            return null;
        }
        return new ServerComparison(
                j.matched,
                j.clientOnly,
                j.serverOnly,
                j.pathMismatches,
                j.matched == 0 ? 0 : j.clientSum / j.matched / 1e6,
                j.matched == 0 ? 0 : j.serverSum / j.matched / 1e6,
                j.difference,
                j.negative,
                j.serverRequests,
                j.serverConnections.size(),
                j.probeRequests);
    }

    /** A request of the reference probe, by the query it always carries. */
    private static boolean probe(CsvStream.Row server) {
        return server.get("path").contains(RunFiles.PROBE_QUERY);
    }

    /** The join's state while the two logs are read. */
    private static final class Join {
        final Map<String, ArrayDeque<Served>> pending = new HashMap<>();
        final Set<String> serverConnections = new HashSet<>();
        final LatencyStats difference = new LatencyStats();
        long matched;
        long clientOnly;
        long serverOnly;
        long pathMismatches;
        long negative;
        long serverRequests;
        long probeRequests;
        double clientSum;
        double serverSum;
        long lastServerCompletion = Long.MIN_VALUE;
        boolean serverDone;

        /** One client request: the server's log is read up to 2 s past its completion, then it is matched. */
        void client(CsvStream.Row row, CsvStream.Cursor server) {
            String conn = Endpoint.of(row); // the server names a connection by the client's address:port
            long clientDone = row.getLong("send_epoch_ns") + row.getLong("response_ns");
            while (!serverDone && lastServerCompletion <= clientDone + 2_000_000_000L) {
                CsvStream.Row s = server.next();
                if (s == null) {
                    serverDone = true;
                    break;
                }
                lastServerCompletion = s.getLong("completion_epoch_ns");
                if (probe(s)) {
                    probeRequests++;
                    continue;
                }
                serverRequests++;
                serverConnections.add(s.get("connection_id"));
                pending.computeIfAbsent(s.get("connection_id"), k -> new ArrayDeque<>())
                        .add(new Served(s.getLong("service_ns"), s.get("path")));
            }
            ArrayDeque<Served> q = conn.isEmpty() ? null : pending.get(conn);
            Served match = q == null ? null : take(q, row.get("path"));
            if (match == null) {
                clientOnly++;
                return;
            }
            matched++;
            long clientNs = row.getLong("response_ns");
            if (!row.get("path").equals(match.path())) {
                pathMismatches++;
            }
            clientSum += clientNs;
            serverSum += match.serviceNs();
            long diff = clientNs - match.serviceNs();
            if (diff < 0) {
                negative++;
            }
            difference.record(Math.max(0, diff), false);
        }

        /**
         * The server record for a client request on the same connection: normally the oldest; two users
         * handing a shared connection to each other may log in the other order, so a record with the
         * same path a few places later is preferred.
         */
        private static Served take(ArrayDeque<Served> q, String path) {
            int i = 0;
            for (Iterator<Served> it = q.iterator(); it.hasNext() && i < 8; i++) {
                Served e = it.next();
                if (path.equals(e.path())) {
                    it.remove();
                    return e;
                }
            }
            return q.poll();
        }
    }
}
