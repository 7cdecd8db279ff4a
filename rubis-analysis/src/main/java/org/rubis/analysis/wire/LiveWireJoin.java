package org.rubis.analysis.wire;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The wire check while the run goes on: the capture file read as it grows ({@link PcapTail}, {@link TcpReconstruction})
 * and the client's lines as the log writes them, joined endpoint by endpoint by the wire check's own rule
 * ({@link EndpointJoin}), so that a user sees the client's error during the run. It decides only what later data
 * cannot change: a line once every line that could precede it on its connection has come (it completed
 * {@link #SETTLE_NS} before the capture's latest packet), a match once the wire request's response is complete, a
 * client-only line once the wire check's look-ahead is full. {@link #finish} decides the rest as the wire check does,
 * so that the whole run's figures are those of {@code rubis-analysis wire} on the same capture and log.
 *
 * <p>Thread use: {@link #line} from the log writer's thread; {@link #advance} and {@link #finish} from one other.
 */
public final class LiveWireJoin implements AutoCloseable {

    /** A line is decided once the capture has seen 2 s beyond its end (the log writer gathers 200 ms at most). */
    static final long SETTLE_NS = 2_000_000_000L;

    private static final String[] GROUPS = {"all", "new", "reused"};

    private final PcapTail tail;
    private final TcpReconstruction tcp;
    private final ConcurrentLinkedQueue<WireCheck.ClientLine> incoming = new ConcurrentLinkedQueue<>();
    private final Map<String, EndpointJoin> endpoints = new HashMap<>();
    private final Map<String, WireCheck.Group> total = new HashMap<>();
    private Map<String, WireCheck.Group> step = new HashMap<>();
    private long joined;

    public LiveWireJoin(Path pcap) {
        this.tail = new PcapTail(pcap);
        this.tcp = new TcpReconstruction(r -> endpoint(r.connection.client).wire.add(r));
        for (String g : GROUPS) {
            total.put(g, new WireCheck.Group());
        }
    }

    /** A line of requests.csv, as the log writes it (any one thread). */
    public void line(
            String connection,
            long sendEpochNs,
            long ttfbNs,
            long responseNs,
            String path,
            int status,
            boolean newConnection,
            String backend) {
        WireCheck.ClientLine c = new WireCheck.ClientLine();
        c.connection = connection;
        c.send = sendEpochNs;
        c.ttfb = ttfbNs;
        c.response = responseNs;
        c.path = path;
        c.status = status;
        c.newConnection = newConnection;
        c.backend = backend;
        incoming.add(c);
    }

    /** Client minus wire of one group of requests, microseconds (the response time's, as the wire check's table). */
    public record Figures(long count, double p50Us, double p99Us, double meanUs) {
        static Figures of(WireCheck.Group g) {
            DiffStats d = g.response;
            return new Figures(d.count(), d.percentileUs(50), d.percentileUs(99), d.meanUs());
        }
    }

    /** A step's figures (the requests joined in it) and the whole run's so far; groups "all", "new", "reused". */
    public record Step(Map<String, Figures> interval, Map<String, Figures> total, long joined) {}

    /** Reads the capture so far and joins what is decided. */
    public synchronized Step advance() {
        tail.read(tcp);
        long horizon = tcp.lastNs() - SETTLE_NS;
        take();
        long captureNow = tcp.lastNs();
        for (EndpointJoin e : endpoints.values()) {
            int settled = 0;
            while (settled < e.lines.size() && end(e.lines.get(settled)) < horizon) {
                settled++;
            }
            e.advance(settled, false, r -> complete(r, captureNow), this::match);
            e.dropDecided();
        }
        endpoints.values().removeIf(e -> e.lines.isEmpty() && e.wire.isEmpty());
        tcp.forgetClosedBefore(horizon - SETTLE_NS);
        return step();
    }

    /** The capture has stopped and the log is closed: reads the rest and decides everything, as the wire check. */
    public synchronized Step finish() {
        tail.read(tcp);
        take();
        for (EndpointJoin e : endpoints.values()) {
            e.all(this::match);
        }
        endpoints.clear();
        return step();
    }

    private Step step() {
        Map<String, Figures> interval = new HashMap<>();
        Map<String, Figures> all = new HashMap<>();
        for (String g : GROUPS) {
            interval.put(g, Figures.of(step.getOrDefault(g, new WireCheck.Group())));
            all.put(g, Figures.of(total.get(g)));
        }
        step = new HashMap<>();
        return new Step(interval, all, joined);
    }

    /** The lines logged since the last step, each into its endpoint's list in completion order (stable). */
    private void take() {
        for (WireCheck.ClientLine c = incoming.poll(); c != null; c = incoming.poll()) {
            List<WireCheck.ClientLine> lines = endpoint(c.connection).lines;
            int at = lines.size();
            while (at > 0 && end(lines.get(at - 1)) > end(c)) {
                at--;
            }
            lines.add(at, c);
        }
    }

    private EndpointJoin endpoint(String client) {
        return endpoints.computeIfAbsent(client, k -> new EndpointJoin());
    }

    private static long end(WireCheck.ClientLine c) {
        return c.send + c.response;
    }

    /**
     * A wire request whose response can no longer grow: its connection carried a later request or closed, or nothing
     * came for it within the settling time.
     */
    private static boolean complete(WireRequest r, long captureNow) {
        WireConnection c = r.connection;
        return c.closed()
                || r.index < c.requests.size() - 1
                || captureNow - Math.max(r.requestNs, r.lastByteNs) > SETTLE_NS;
    }

    /** The wire check's rule for what a match counts in (a request with a response on both sides). */
    private void match(WireCheck.ClientLine c, WireRequest r) {
        joined++;
        if (!r.answered() || c.status == 0) {
            return;
        }
        String kind = c.newConnection ? "new" : "reused";
        for (String g : new String[] {"all", kind}) {
            total.get(g).add(c, r);
            step.computeIfAbsent(g, k -> new WireCheck.Group()).add(c, r);
        }
    }

    /** Packets read from the capture so far. */
    public long packets() {
        return tail.records();
    }

    @Override
    public void close() {
        tail.close();
    }
}
