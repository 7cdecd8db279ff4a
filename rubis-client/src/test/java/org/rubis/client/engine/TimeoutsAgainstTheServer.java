package org.rubis.client.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.rubis.format.run.RunFiles;

/**
 * Which of a run's read timeouts the embedded server's own log explains. A request that times out against a server
 * that hangs some requests is right to do so when the server hung it, or when the server read or answered it after
 * the client's deadline (a loaded host starves the in-process server: it then reads requests seconds after they were
 * sent), or when the server never read it (as many timeouts as the client sent requests beyond the lines the server
 * wrote: the server closed with them unread, or the client's reset of a timed-out connection discarded them). Anything else (a request written on a connection the server hung, a request charged with a timeout the server
 * had answered in time) is the client's defect. The server's lines of the requests a client line names are found by
 * path and time, one server line for one client line (a maximum matching: every Home request has the same path).
 */
final class TimeoutsAgainstTheServer {

    /** The clocks' disagreement allowed: client and server anchor their epochs separately, in one JVM. */
    private static final long CLOCK_NS = 5_000_000L;

    private record ClientLine(String line, String path, long send, long response, boolean timedOut) {}

    private record ServerLine(String connection, String path, long arrival, long completion, boolean hang) {}

    private record Connection(String id, long open, long close) {}

    private final List<ClientLine> client = new ArrayList<>();
    private final List<ServerLine> server = new ArrayList<>();
    private final List<Connection> connections = new ArrayList<>();
    private final long timeoutNs;
    private final long neverRead;

    /**
     * @param run       the run directory (requests.csv)
     * @param truth     the server's directory (requests.csv, connections.csv)
     * @param timeoutMs the client's request timeout
     */
    TimeoutsAgainstTheServer(Path run, Path truth, long timeoutMs) throws IOException {
        this.timeoutNs = timeoutMs * 1_000_000L;
        List<String> lines = Files.readAllLines(run.resolve(RunFiles.REQUESTS));
        List<String> h = Arrays.asList(lines.get(0).split(","));
        for (String l : lines.subList(1, lines.size())) {
            String[] f = l.split(",", -1);
            String error = f[h.indexOf("error")];
            if (error.isEmpty() || error.equals("read-timeout")) { // an aborted request may have reached it or not
                client.add(new ClientLine(
                        l,
                        f[h.indexOf("path")],
                        Long.parseLong(f[h.indexOf("send_epoch_ns")]),
                        Long.parseLong(f[h.indexOf("response_ns")]),
                        !error.isEmpty()));
            }
        }
        List<String> s = Files.readAllLines(truth.resolve(RunFiles.SERVER_REQUESTS));
        List<String> sh = Arrays.asList(s.get(0).split(","));
        for (String l : s.subList(1, s.size())) {
            String[] f = l.split(",", -1);
            server.add(new ServerLine(
                    f[sh.indexOf("connection_id")],
                    f[sh.indexOf("path")],
                    Long.parseLong(f[sh.indexOf("arrival_epoch_ns")]),
                    Long.parseLong(f[sh.indexOf("completion_epoch_ns")]),
                    f[sh.indexOf("fault")].equals("hang")));
        }
        List<String> c = Files.readAllLines(truth.resolve(RunFiles.SERVER_CONNECTIONS));
        List<String> ch = Arrays.asList(c.get(0).split(","));
        for (String l : c.subList(1, c.size())) {
            String[] f = l.split(",", -1);
            connections.add(new Connection(
                    f[ch.indexOf("connection_id")],
                    Long.parseLong(f[ch.indexOf("open_epoch_ns")]),
                    Long.parseLong(f[ch.indexOf("close_epoch_ns")])));
        }
        // requests the client sent (aborted ones too) beyond the lines the server wrote: requests it never read
        this.neverRead = Math.max(0, lines.size() - 1 - server.size());
    }

    /** Whether server line {@code s} can be client line {@code c}'s request, as the client logged its outcome. */
    private boolean canBe(ClientLine c, ServerLine s) {
        if (!c.path.equals(s.path) || s.arrival < c.send - CLOCK_NS) {
            return false;
        }
        if (!c.timedOut) { // read before the reply was complete, and answered
            return !s.hang && s.arrival <= c.send + c.response + CLOCK_NS;
        }
        long deadline = c.send + timeoutNs - CLOCK_NS;
        return s.hang || s.arrival >= deadline || s.completion >= deadline;
    }

    /**
     * The client's lines (replies and read timeouts) the server's log cannot account for, beyond the timeouts of
     * requests the server never read: empty when every reply is a request the server read in time and every timeout
     * one it hung, answered late or never read.
     */
    List<String> unexplained() {
        int[] owner = new int[server.size()];
        Arrays.fill(owner, -1);
        List<ClientLine> unmatched = new ArrayList<>();
        // replies first: a later augmenting path never unmatches a line, so a reply loses its server line to no
        // timeout (a timeout sent early can take any later line of its path)
        for (boolean timeouts : new boolean[] {false, true}) {
            for (int i = 0; i < client.size(); i++) {
                if (client.get(i).timedOut == timeouts && !augment(i, owner, new boolean[server.size()])) {
                    unmatched.add(client.get(i));
                }
            }
        }
        long timeoutsUnread = unmatched.stream().filter(ClientLine::timedOut).count();
        List<String> out = new ArrayList<>();
        for (ClientLine c : unmatched) {
            if (!c.timedOut || timeoutsUnread > neverRead) {
                out.add(c.line);
            }
        }
        return out;
    }

    /** Kuhn's augmenting path from client line {@code i}. */
    private boolean augment(int i, int[] owner, boolean[] seen) {
        for (int j = 0; j < server.size(); j++) {
            if (!seen[j] && canBe(client.get(i), server.get(j))) {
                seen[j] = true;
                if (owner[j] < 0 || augment(owner[j], owner, seen)) {
                    owner[j] = i;
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The server's lines read on a connection after the request it hung there: a client that reuses a connection whose
     * request timed out writes its next request behind the hung one, and the server reads it. The connection is the
     * server's (its id while open: an id names the next connection from the same port too).
     */
    List<String> readAfterAHang() {
        List<String> out = new ArrayList<>();
        for (ServerLine hang : server) {
            if (!hang.hang) {
                continue;
            }
            long close = connections.stream()
                    .filter(c -> c.id.equals(hang.connection) && c.open <= hang.arrival && hang.arrival <= c.close)
                    .mapToLong(Connection::close)
                    .findFirst()
                    .orElse(Long.MAX_VALUE);
            for (ServerLine s : server) {
                if (s != hang
                        && s.connection.equals(hang.connection)
                        && s.arrival >= hang.arrival
                        && s.arrival <= close) {
                    out.add(s.connection + " " + s.path + " read after the hang at " + hang.arrival);
                }
            }
        }
        return out;
    }

    /** The server's lines that were hangs. */
    long hangs() {
        return server.stream().filter(ServerLine::hang).count();
    }

    /** What the join saw, for an assertion's message. */
    String describe() {
        return client.size() + " client lines ("
                + client.stream().filter(ClientLine::timedOut).count()
                + " read timeouts), " + server.size() + " server lines (" + hangs() + " hangs), " + neverRead
                + " requests the server never read";
    }
}
