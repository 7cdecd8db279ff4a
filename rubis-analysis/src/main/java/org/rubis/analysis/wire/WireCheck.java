package org.rubis.analysis.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.rubis.analysis.io.AnalysisException;
import org.rubis.analysis.io.CsvStream;
import org.rubis.analysis.io.Endpoint;
import org.rubis.analysis.io.RunDirectory;
import org.rubis.format.run.Columns;
import org.rubis.format.run.RunFiles;
import org.rubis.format.stats.WireAccuracy;

/**
 * The wire check of a run: every request the capture saw joined to the client's line in requests.csv
 * (same connection, i.e. the client's local address:port, same order on it, same path) and, with the
 * embedded server, to the server's own line; then how far the client's durations are from the wire's
 * (client response_ns against last response packet minus first request packet: exact, whatever the
 * clocks). That difference is then split into the time before the request's first packet (send side:
 * the first request packet minus the client's send mark) and after the response's last packet (receive
 * side: the client's end mark minus the last response packet), which compares the client's anchored
 * epoch instants with the capture's timestamps: each side is as good as the anchors
 * ({@link AnchorBrackets}), their sum is exact. Writes wire.csv and wire-connections.csv.
 */
public final class WireCheck {
    static final String HEADER = Columns.header(Columns.WIRE);

    /** A line of requests.csv. */
    static final class ClientLine {
        /** The connection's local address:port: the capture's name for it, joined with the time of each request. */
        String connection;
        /** requests.csv's connection_id: the connection itself (in probe.csv, its address:port). */
        String id;

        long send;
        long ttfb;
        long response;
        String path;
        boolean newConnection;
        String backend;
        int status;
        WireRequest wire;

        /** The columns requests.csv and probe.csv share (both name them alike). */
        static ClientLine of(CsvStream.Row row) {
            ClientLine c = new ClientLine();
            c.connection = Endpoint.of(row);
            c.id = row.get("connection_id");
            c.send = row.getLong("send_epoch_ns");
            c.ttfb = row.getLong("ttfb_ns");
            c.response = row.getLong("response_ns");
            c.path = row.get("path");
            c.status = row.getInt("status");
            return c;
        }
    }

    /** A line of server/requests.csv. */
    static final class ServerLine {
        long arrival;
        long service;
        String path;
    }

    /**
     * Client-minus-wire statistics of one group of requests (all, new or reused connections), and the
     * response's difference split into its send side and receive side (send + receive = response).
     */
    public static final class Group {
        public final DiffStats ttfb = new DiffStats();
        public final DiffStats response = new DiffStats();
        /** First request packet minus the client's send mark. */
        public final DiffStats send = new DiffStats();
        /** The client's end mark (send + response time) minus the last response packet. */
        public final DiffStats receive = new DiffStats();
        /**
         * Requests that opened their connection inside their own window (its SYN on the capture at or after
         * the send mark): the send mark to the SYN, the client's own work before it connects.
         */
        public final DiffStats beforeSyn = new DiffStats();
        /** The same requests: the SYN to the first request packet (the handshake, and the client's wake-up when it completes). */
        public final DiffStats synToRequest = new DiffStats();

        void add(ClientLine c, WireRequest r) {
            ttfb.add(c.ttfb - r.ttfbNs());
            response.add(c.response - r.responseNs());
            send.add(sendSide(c, r));
            receive.add(receiveSide(c, r));
            long syn = synInWindow(c, r);
            if (syn >= 0) {
                beforeSyn.add(syn - c.send);
                synToRequest.add(r.requestNs - syn);
            }
        }
    }

    /**
     * The SYN of a request that opened its connection inside its own window, or -1: the first request on
     * a connection whose SYN the capture saw at or after the client's send mark (a connection opened
     * ahead, e.g. by netty after the server closed the last one, is not in the request's window).
     */
    static long synInWindow(ClientLine c, WireRequest r) {
        WireConnection conn = r.connection;
        return r.index == 0 && conn.synSeen && conn.openNs >= c.send ? conn.openNs : -1;
    }

    /** The send side of a matched request: our send mark to its first packet on the capture. */
    static long sendSide(ClientLine c, WireRequest r) {
        return r.requestNs - c.send;
    }

    /** The receive side: the response's last packet on the capture to our end mark. */
    static long receiveSide(ClientLine c, WireRequest r) {
        return c.send + c.response - r.lastByteNs;
    }

    public final WireCapture capture;
    public long matched;
    public long clientOnly;
    public long wireOnly;
    public long pathMismatches;
    public long clientRequests;
    public long serverMatched;
    public long serverRequests = -1;
    /** Client-minus-wire, keyed "all", "new", "reused", then "BACKEND/all", "BACKEND/new", "BACKEND/reused". */
    public final Map<String, Group> groups = new TreeMap<>();

    public long clientConnectionsOpened;
    public long clientDistinctConnections;
    public long serverConnections = -1;
    /** capture-stats.json as written by the client, or null. */
    public JsonNode captureStats;

    public final List<String> notes = new ArrayList<>();
    /**
     * The reference probe (probe.csv, run --probe): its client-minus-wire, past its warm-up, is the floor
     * of this host; its requests and connection are kept out of every other figure.
     */
    public final Group probe = new Group();

    public long probeRequests;
    public long probeMatched;
    /** The wire's response times of the matched requests with a response (the accuracy limit's median). */
    public final DiffStats wireResponse = new DiffStats();
    /** The epoch anchors' uncertainty: the split's error bound. */
    public AnchorBrackets anchors = AnchorBrackets.UNKNOWN;

    private final Set<String> probeConnections = new HashSet<>();
    private final Set<WireRequest> probeSet = new HashSet<>();
    /** probe.csv's lines by connection (joined to their wire requests), for wire.csv's probe rows. */
    private Map<String, List<ClientLine>> probeLines = Map.of();

    private WireCheck(WireCapture capture) {
        this.capture = capture;
    }

    /** The default capture of a run directory (RUN_DIR/capture.pcap). */
    public static Path defaultPcap(RunDirectory dir) {
        return dir.dir().resolve(RunFiles.CAPTURE_PCAP);
    }

    /**
     * Runs the check on {@code pcap} (null: RUN_DIR/capture.pcap) and writes wire.csv and wire-connections.csv into the run directory;
     * the anchors' uncertainty comes from the run's summary.json.
     */
    public static WireCheck run(RunDirectory dir, Path pcap) {
        return run(dir, pcap, AnchorBrackets.fromSummary(dir.summary()));
    }

    /** As {@link #run(RunDirectory, Path)}, with the anchors' uncertainty given (the run itself, before summary.json exists). */
    public static WireCheck run(RunDirectory dir, Path pcap, AnchorBrackets anchors) {
        Path file = pcap != null ? pcap : defaultPcap(dir);
        if (!Files.isRegularFile(file)) {
            throw new AnalysisException(
                    file + ": no capture file; capture the run (run --capture) or pass one with --pcap FILE");
        }
        WireCheck w = new WireCheck(WireCapture.read(file));
        w.anchors = anchors;
        w.readCaptureStats(dir.dir().resolve(RunFiles.CAPTURE_STATS));
        if (w.capture.read.truncated()) {
            w.notes.add(file.getFileName() + " is truncated (cut inside a packet record): analysed up to the cut, "
                    + w.capture.read.records() + " packets");
        }
        if (w.capture.gaps() > 0) {
            w.notes.add("the capture misses packets (" + w.capture.gaps()
                    + " holes in TCP sequence numbers): those requests' wire times may be wrong");
        }
        Map<String, List<ClientLine>> client = w.readClient(dir);
        Map<String, List<ClientLine>> probeLines = w.readProbe(dir.dir().resolve(RunFiles.PROBE_CSV));
        w.probeLines = probeLines;
        Map<String, List<ServerLine>> server = dir.hasServer() ? w.readServer(dir) : null;
        Map<WireRequest, Long> serviceByWire = new HashMap<>();
        Map<String, List<WireRequest>> wireByClient = new LinkedHashMap<>();
        for (WireRequest r : w.capture.requests) {
            wireByClient
                    .computeIfAbsent(r.connection.client, k -> new ArrayList<>())
                    .add(r);
        }
        for (Map.Entry<String, List<WireRequest>> e : wireByClient.entrySet()) {
            if (w.probeConnections.contains(e.getKey())) {
                w.joinProbe(probeLines.get(e.getKey()), e.getValue());
                continue;
            }
            List<ClientLine> lines = client.getOrDefault(e.getKey(), List.of());
            w.join(lines, e.getValue());
            if (server != null) {
                w.joinServer(server.getOrDefault(e.getKey(), List.of()), e.getValue(), serviceByWire);
            }
        }
        w.clientOnly = w.clientRequests - w.matched;
        w.countServerConnections(dir);
        try {
            w.write(dir.dir().resolve(RunFiles.WIRE_CSV), client, serviceByWire);
            w.writeConnections(dir.dir().resolve(RunFiles.WIRE_CONNECTIONS_CSV));
        } catch (IOException e) {
            throw new AnalysisException(
                    dir.dir().resolve(RunFiles.WIRE_CSV) + ": cannot write (" + e.getMessage() + ")");
        }
        if (w.clientOnly > 0) {
            w.notes.add(w.clientOnly
                    + " client requests have no request on the wire (failed connects, or missing from the capture)");
        }
        long worst = Math.max(anchors.clientNs(), anchors.probeNs());
        if (worst > AnchorBrackets.NOTE_ABOVE_NS) {
            w.notes.add(String.format(
                    Locale.ROOT,
                    "the epoch anchors are uncertain by up to %.1f us (client %s, probe %s): each side of the "
                            + "send/receive split may be off by half of that (their sum is exact)",
                    worst / 1e3,
                    ns(anchors.clientNs()),
                    ns(anchors.probeNs())));
        }
        return w;
    }

    private void readCaptureStats(Path p) {
        if (!Files.isRegularFile(p)) {
            return;
        }
        try {
            captureStats = new ObjectMapper().readTree(p.toFile());
            long drops = captureStats.path("kernel_drops").asLong(0)
                    + captureStats.path("interface_drops").asLong(0);
            if (drops > 0) {
                notes.add("the capture dropped " + drops + " packets (kernel "
                        + captureStats.path("kernel_drops").asLong() + ", interface "
                        + captureStats.path("interface_drops").asLong() + "): the wire check is incomplete");
            }
        } catch (IOException e) {
            notes.add(p.getFileName() + " is not valid JSON: capture drops unknown");
        }
    }

    /** True when nothing was lost: no drop reported, file not cut, no hole in the TCP streams. */
    public boolean complete() {
        boolean noDrops = captureStats == null
                || captureStats.path("kernel_drops").asLong(0)
                                + captureStats.path("interface_drops").asLong(0)
                        == 0;
        return noDrops && !capture.read.truncated() && capture.gaps() == 0;
    }

    private Map<String, List<ClientLine>> readClient(RunDirectory dir) {
        Map<String, List<ClientLine>> out = new HashMap<>();
        Set<String> ids = new HashSet<>();
        CsvStream csv = new CsvStream(dir.requests());
        csv.forEach(
                List.of(
                        "path",
                        "send_epoch_ns",
                        "ttfb_ns",
                        "response_ns",
                        "status",
                        "connection_id",
                        "new_connection",
                        "backend"),
                row -> {
                    ClientLine c = ClientLine.of(row);
                    c.newConnection = Boolean.parseBoolean(row.get("new_connection"));
                    c.backend = row.get("backend");
                    clientRequests++;
                    if (c.newConnection) {
                        clientConnectionsOpened++;
                    }
                    if (!c.id.isEmpty()) {
                        ids.add(c.id);
                    }
                    out.computeIfAbsent(c.connection, k -> new ArrayList<>()).add(c);
                });
        clientDistinctConnections = ids.size();
        // In completion order: on one HTTP/1.1 connection responses end in wire order, whereas a client may take
        // its send instant before it holds the connection (the legacy backend's keep-alive cache), so send
        // instants can be out of wire order.
        for (List<ClientLine> l : out.values()) {
            l.sort(Comparator.comparingLong(c -> c.send + c.response));
        }
        return out;
    }

    /** probe.csv lines by connection, in completion order (warm-up lines flagged in {@code backend}). */
    private Map<String, List<ClientLine>> readProbe(Path p) {
        Map<String, List<ClientLine>> out = new HashMap<>();
        if (!Files.isRegularFile(p)) {
            return out;
        }
        new CsvStream(p)
                .forEach(
                        List.of("send_epoch_ns", "connection_id", "path", "status", "ttfb_ns", "response_ns", "warmup"),
                        row -> {
                            ClientLine c = ClientLine.of(row);
                            c.backend = Boolean.parseBoolean(row.get("warmup")) ? "warmup" : "probe";
                            if (!c.connection.isEmpty()) {
                                probeConnections.add(c.connection);
                                out.computeIfAbsent(c.connection, k -> new ArrayList<>())
                                        .add(c);
                            }
                            if (!"warmup".equals(c.backend)) {
                                probeRequests++;
                            }
                        });
        for (List<ClientLine> l : out.values()) {
            l.sort(Comparator.comparingLong(c -> c.send + c.response));
        }
        return out;
    }

    private static String ns(long v) {
        return v < 0 ? "unknown" : v + " ns";
    }

    /** The probe's own connection: its lines paired with its wire requests in order; warm-up excluded from the floor. */
    private void joinProbe(List<ClientLine> lines, List<WireRequest> wire) {
        probeSet.addAll(wire);
        int j = 0;
        for (ClientLine c : lines) {
            while (j < wire.size() && !samePath(wire.get(j), c.path)) {
                j++;
            }
            if (j == wire.size()) {
                break;
            }
            WireRequest r = wire.get(j++);
            c.wire = r;
            if (!"warmup".equals(c.backend)) {
                probeMatched++;
                if (r.answered() && c.status != 0) {
                    probe.add(c, r);
                }
            }
        }
    }

    /** True for a server log path or request of the reference probe. */
    static boolean isProbePath(String path) {
        return path.contains(RunFiles.PROBE_QUERY);
    }

    private Map<String, List<ServerLine>> readServer(RunDirectory dir) {
        Map<String, List<ServerLine>> out = new HashMap<>();
        long[] n = {0};
        new CsvStream(dir.serverRequests())
                .forEach(List.of("connection_id", "arrival_epoch_ns", "service_ns", "path"), row -> {
                    ServerLine s = new ServerLine();
                    s.arrival = row.getLong("arrival_epoch_ns");
                    s.service = row.getLong("service_ns");
                    s.path = row.get("path");
                    if (isProbePath(s.path)) {
                        return;
                    }
                    n[0]++;
                    out.computeIfAbsent(row.get("connection_id"), k -> new ArrayList<>())
                            .add(s);
                });
        serverRequests = n[0];
        for (List<ServerLine> l : out.values()) {
            l.sort(Comparator.comparingLong(s -> s.arrival));
        }
        return out;
    }

    private void countServerConnections(RunDirectory dir) {
        Path p = RunFiles.serverConnections(dir.dir());
        if (Files.isRegularFile(p)) {
            long[] n = {0};
            new CsvStream(p).forEach(List.of("connection_id"), row -> {
                if (!probeConnections.contains(row.get("connection_id"))) {
                    n[0]++;
                }
            });
            serverConnections = n[0];
        }
    }

    static boolean samePath(WireRequest w, String path) {
        if (w.path.isEmpty()) {
            return false;
        }
        return w.pathComplete ? w.path.equals(path) : path.startsWith(w.path);
    }

    /** Aligns one connection endpoint's client lines with its wire requests, in time order ({@link EndpointJoin}). */
    private void join(List<ClientLine> lines, List<WireRequest> wire) {
        new EndpointJoin(lines, wire).all(this::match);
        long usedWire = wire.stream().filter(matchedSet::contains).count();
        wireOnly += wire.size() - usedWire;
    }

    private final Set<WireRequest> matchedSet = new HashSet<>();

    private void match(ClientLine c, WireRequest r) {
        c.wire = r;
        matchedSet.add(r);
        matched++;
        if (r.answered()) {
            wireResponse.add(r.responseNs());
        }
        if (!r.answered() || c.status == 0) {
            return;
        }
        String kind = c.newConnection ? "new" : "reused";
        for (String g : new String[] {"all", kind, c.backend + "/all", c.backend + "/" + kind}) {
            groups.computeIfAbsent(g, k -> new Group()).add(c, r);
        }
    }

    private void joinServer(List<ServerLine> lines, List<WireRequest> wire, Map<WireRequest, Long> serviceByWire) {
        int i = 0;
        int j = 0;
        while (i < lines.size() && j < wire.size()) {
            if (samePath(wire.get(j), lines.get(i).path)) {
                serviceByWire.put(wire.get(j), lines.get(i).service);
                serverMatched++;
                i++;
                j++;
            } else {
                j++;
            }
        }
    }

    private void write(Path out, Map<String, List<ClientLine>> client, Map<WireRequest, Long> service)
            throws IOException {
        Map<WireRequest, ClientLine> byWire = new HashMap<>();
        List<ClientLine> unmatched = new ArrayList<>();
        Map<WireRequest, ClientLine> probeByWire = new HashMap<>();
        for (List<ClientLine> l : probeLines.values()) {
            for (ClientLine c : l) {
                if (c.wire != null) {
                    probeByWire.put(c.wire, c);
                }
            }
        }
        for (List<ClientLine> l : client.values()) {
            for (ClientLine c : l) {
                if (c.wire != null) {
                    byWire.put(c.wire, c);
                } else {
                    unmatched.add(c);
                }
            }
        }
        unmatched.sort(Comparator.comparingLong(c -> c.send));
        try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            w.write(HEADER);
            w.write('\n');
            StringBuilder b = new StringBuilder(256);
            for (WireRequest r : capture.requests) {
                ClientLine c = byWire.get(r);
                ClientLine p = c == null ? probeByWire.get(r) : null;
                b.setLength(0);
                wireLine(b, r, c, p, service.get(r));
                b.append('\n');
                w.append(b);
            }
            for (ClientLine c : unmatched) {
                b.setLength(0);
                clientOnlyLine(b, c);
                b.append('\n');
                w.append(b);
            }
        }
    }

    /**
     * The wire.csv line of the captured request {@code r}: the client's line {@code c} matched to it, else the
     * probe's {@code p} (null: a request only the wire saw), and the server's service time {@code s} (null: none).
     */
    private void wireLine(StringBuilder b, WireRequest r, ClientLine c, ClientLine p, Long s) {
        ClientLine named = c != null ? c : p;
        b.append(named == null ? "" : csv(named.id))
                .append(',')
                .append(r.connection.id)
                .append(',')
                .append(r.index)
                .append(',')
                .append(csv(r.method))
                .append(',')
                .append(csv(r.path))
                .append(',')
                .append(r.status)
                .append(',')
                .append(r.requestNs)
                .append(',')
                .append(r.answered() ? r.firstByteNs : "")
                .append(',')
                .append(r.answered() ? r.lastByteNs : "")
                .append(',')
                .append(r.answered() ? r.ttfbNs() : "")
                .append(',')
                .append(r.answered() ? r.responseNs() : "")
                .append(',')
                .append(r.requestBytes)
                .append(',')
                .append(r.responseBytes)
                .append(',')
                .append(r.retransmissions)
                .append(',');
        ClientLine line = c != null ? c : p;
        boolean both = line != null && r.answered() && line.status != 0;
        if (line != null) {
            b.append(c != null ? c.newConnection : r.index == 0)
                    .append(',')
                    .append(c != null ? c.backend : "warmup".equals(p.backend) ? "probe-warmup" : "probe")
                    .append(',')
                    .append(line.send)
                    .append(',')
                    .append(line.ttfb)
                    .append(',')
                    .append(line.response)
                    .append(',');
            b.append(both ? line.ttfb - r.ttfbNs() : "")
                    .append(',')
                    .append(both ? line.response - r.responseNs() : "")
                    .append(',');
        } else {
            b.append(r.index == 0).append(",,,,,,,");
        }
        b.append(s == null ? "" : s)
                .append(',')
                .append(c != null ? "matched" : probeSet.contains(r) ? "probe" : "wire-only")
                .append(',');
        if (both) {
            b.append(sendSide(line, r)).append(',').append(receiveSide(line, r));
        } else {
            b.append(',');
        }
        b.append(',').append(r.connection.client);
    }

    /** The wire.csv line of a client request the capture did not see. */
    private static void clientOnlyLine(StringBuilder b, ClientLine c) {
        b.append(csv(c.id))
                .append(",,,,")
                .append(csv(c.path))
                .append(',')
                .append(c.status)
                .append(",,,,,,,,,")
                .append(c.newConnection)
                .append(',')
                .append(c.backend)
                .append(',')
                .append(c.send)
                .append(',')
                .append(c.ttfb)
                .append(',')
                .append(c.response)
                .append(",,,,client-only,,,")
                .append(csv(c.connection));
    }

    private void writeConnections(Path out) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            w.write(
                    "wire_connection,client,server,syn_seen,open_epoch_ns,close_epoch_ns,close_kind,requests,packets,retransmissions\n");
            for (WireConnection c : capture.connections) {
                w.write(c.id + "," + c.client + "," + c.server + "," + c.synSeen + "," + c.openNs + ","
                        + (c.closed() ? c.closeNs : "") + "," + c.closeKind.label + "," + c.requests.size() + ","
                        + c.packets + "," + c.retransmissions + "\n");
            }
        }
    }

    private static String csv(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    /** Connections opened on the wire (SYN seen, or already open when the capture began), the probe's excepted. */
    public int wireConnections() {
        return (int) capture.connections.stream()
                .filter(c -> !probeConnections.contains(c.client))
                .count();
    }

    /** Connections that carried at least one request, the probe's excepted. */
    public long wireConnectionsWithRequests() {
        return capture.connections.stream()
                .filter(c -> !c.requests.isEmpty() && !probeConnections.contains(c.client))
                .count();
    }

    /** Requests on the wire, the probe's excepted. */
    public long wireRequests() {
        return capture.requests.size() - probeSet.size();
    }

    /** The floor of this host: the probe's response-time client-minus-wire p50 (us), or NaN without a probe. */
    public double floorUs() {
        return probe.response.count() == 0 ? Double.NaN : probe.response.percentileUs(50);
    }

    /** Closes by kind (fin-client, fin-server, rst-client, rst-server, open). */
    public Map<String, Long> closeKinds() {
        Map<String, Long> m = new TreeMap<>();
        for (WireConnection c : capture.connections) {
            m.merge(c.closeKind.label, 1L, Long::sum);
        }
        return m;
    }

    /** Fills the {@code wire} object of analysis.json (keys documented in docs/RUN-DIRECTORY.md). */
    public void toJson(ObjectNode o) {
        o.put("pcap", capture.file.getFileName().toString());
        o.put("complete", complete());
        o.put("packets", capture.read.records());
        o.put("truncated", capture.read.truncated());
        o.put("timestamp_resolution_ns", capture.read.nanosecond() ? 1 : 1000);
        o.put("wire_requests", wireRequests());
        o.put("client_requests", clientRequests);
        o.put("matched", matched);
        o.put("client_only", clientOnly);
        o.put("wire_only", wireOnly);
        if (serverRequests >= 0) {
            o.put("server_requests", serverRequests);
            o.put("server_matched", serverMatched);
        }
        ObjectNode conn = o.putObject("connections");
        conn.put("wire", wireConnections());
        conn.put("wire_with_requests", wireConnectionsWithRequests());
        conn.put("wire_max_open", capture.maxOpenConnections);
        conn.put("client_opened", clientConnectionsOpened);
        conn.put("client_distinct", clientDistinctConnections);
        if (serverConnections >= 0) {
            conn.put("server", serverConnections);
        }
        closeKinds().forEach(conn.putObject("close_kinds")::put);
        o.put("retransmissions", capture.retransmissions());
        o.put("sequence_gaps", capture.gaps());
        o.put("max_requests_in_flight", capture.maxRequestsInFlight);
        if (captureStats != null) {
            ObjectNode cs = o.putObject("capture");
            cs.put("kernel_drops", captureStats.path("kernel_drops").asLong(-1));
            cs.put("interface_drops", captureStats.path("interface_drops").asLong(-1));
            cs.put("packets_written", captureStats.path("packets_written").asLong(-1));
            cs.put("interface", captureStats.path("interface").asText(""));
        }
        ObjectNode g = o.putObject("client_minus_wire_us");
        groups.forEach((name, group) -> group(g.putObject(name), group));
        ObjectNode anchor = o.putObject("anchor_bracket_ns");
        putKnown(anchor, "client", anchors.clientNs());
        putKnown(anchor, "probe", anchors.probeNs());
        WireAccuracy a = accuracy();
        if (a != null) {
            accuracyJson(o.putObject("accuracy"), a);
        }
        if (!probeConnections.isEmpty()) {
            probeJson(o);
        }
        var notesArray = o.putArray("notes");
        notes.forEach(notesArray::add);
    }

    /** The accuracy verdict's figures and its rule. */
    private static void accuracyJson(ObjectNode acc, WireAccuracy a) {
        acc.put("within", a.within());
        acc.put("limit_us", r1(a.limitUs()));
        acc.put("wire_median_response_us", r1(a.wireMedianUs()));
        acc.put("mean_us", r1(a.meanUs()));
        acc.put("p99_us", r1(a.p99Us()));
        acc.put("requests", a.requests());
        if (!a.within()) {
            acc.put("cause", a.cause());
        }
        if (!Double.isNaN(a.aboveFloorMeanUs())) {
            acc.put("floor_mean_us", r1(a.floorMeanUs()));
            acc.put("reused_mean_us", r1(a.reusedMeanUs()));
            acc.put("above_floor_mean_us", r1(a.aboveFloorMeanUs()));
            acc.put("floor_explains", a.floorExplains());
        }
        acc.put(
                "rule",
                String.format(
                        Locale.ROOT,
                        "mean client minus wire (all matched requests) <= max(%.0f us, %.0f %% of the wire's "
                                + "median response time)",
                        WireAccuracy.ABSOLUTE_LIMIT_US,
                        WireAccuracy.RELATIVE_LIMIT * 100));
    }

    /** The reference probe's requests, their client-minus-wire figures and the host's floor they give. */
    private void probeJson(ObjectNode o) {
        ObjectNode p = o.putObject("probe");
        p.put("requests", probeRequests);
        p.put("matched", probeMatched);
        p.put("connections", probeConnections.size());
        group(p.putObject("client_minus_wire_us"), probe);
        if (probe.response.count() > 0) {
            double floor = floorUs();
            o.put("floor_us", r1(floor));
            ObjectNode above = o.putObject("overhead_above_floor_p50_us");
            groups.forEach((name, group) -> {
                if (group.response.count() > 0) {
                    above.put(name, r1(group.response.percentileUs(50) - floor));
                }
            });
        }
    }

    private static void group(ObjectNode n, Group group) {
        stats(n.putObject("ttfb"), group.ttfb);
        stats(n.putObject("response"), group.response);
        stats(n.putObject("send_side"), group.send);
        stats(n.putObject("receive_side"), group.receive);
        if (group.beforeSyn.count() > 0) {
            stats(n.putObject("send_mark_to_syn"), group.beforeSyn);
            stats(n.putObject("syn_to_request"), group.synToRequest);
        }
    }

    private static void putKnown(ObjectNode n, String key, long v) {
        if (v < 0) {
            n.putNull(key);
        } else {
            n.put(key, v);
        }
    }

    /**
     * The run's accuracy by the one rule ({@link WireAccuracy}): every matched request with a response,
     * against the wire's median; null when none was matched.
     */
    public WireAccuracy accuracy() {
        Group all = groups.get("all");
        if (all == null || all.response.count() == 0) {
            return null;
        }
        Group reused = groups.get("reused");
        Group fresh = groups.get("new");
        boolean anyReused = reused != null && reused.response.count() > 0;
        boolean anyNew = fresh != null && fresh.response.count() > 0;
        return new WireAccuracy(
                all.response.meanUs(),
                all.response.percentileUs(50),
                all.response.percentileUs(99),
                all.response.count(),
                wireResponse.count() == 0 ? 0 : wireResponse.percentileUs(50),
                all.send.percentileUs(50),
                all.receive.percentileUs(50),
                anyReused ? reused.response.meanUs() : Double.NaN,
                anyNew ? fresh.response.count() : 0,
                anyNew ? fresh.response.meanUs() : Double.NaN,
                probe.response.count() > 0 ? probe.response.meanUs() : Double.NaN,
                anyNew && fresh.beforeSyn.count() > 0 ? fresh.beforeSyn.meanUs() : Double.NaN,
                anyNew && fresh.beforeSyn.count() > 0 ? fresh.synToRequest.meanUs() : Double.NaN);
    }

    /**
     * The groups the send/receive split is shown for: each backend's reused connections (its steady state;
     * a new connection's send side includes the connect) or, when none was reused, each backend's requests.
     */
    public Map<String, Group> splitGroups() {
        Map<String, Group> m = new LinkedHashMap<>();
        groups.forEach((name, g) -> {
            if (name.endsWith("/reused") && g.response.count() > 0) {
                m.put(name, g);
            }
        });
        if (m.isEmpty()) {
            groups.forEach((name, g) -> {
                if (name.endsWith("/all") && g.response.count() > 0) {
                    m.put(name, g);
                }
            });
        }
        if (probe.response.count() > 0) {
            m.put("probe", probe);
        }
        return m;
    }

    /**
     * "Where the error goes": the send/receive split as text lines (the summary's wire-check section and
     * {@code rubis-analysis wire} print the same), with the anchors' uncertainty that bounds it.
     */
    public List<String> splitLines() {
        List<String> out = new ArrayList<>();
        Map<String, Group> m = splitGroups();
        if (m.isEmpty()) {
            return out;
        }
        out.add(String.format(
                Locale.ROOT,
                "where the error goes (us): send side = first request packet - send mark, receive side = end "
                        + "mark - last response packet; anchors uncertain by client %s, probe %s (each side within half of it, the sum exact)",
                ns(anchors.clientNs()),
                ns(anchors.probeNs())));
        out.add(header("send mean", "receive mean") + String.format(Locale.ROOT, " | %8s", "total p50"));
        m.forEach((name, g) -> out.add(row(name, g.send.count(), g.send, g.receive)
                + String.format(Locale.ROOT, " | %8.1f", g.response.percentileUs(50))));
        Map<String, Group> opened = new LinkedHashMap<>();
        groups.forEach((name, g) -> {
            if (name.endsWith("/new") && g.beforeSyn.count() > 0) {
                opened.put(name, g);
            }
        });
        if (!opened.isEmpty()) {
            out.add(
                    "  requests that opened their connection in their window: their send side = send mark - SYN (the client's own work "
                            + "before it connects) + SYN - first request packet (handshake and wake-up)");
            out.add(header("to SYN mean", "SYN-req mean"));
            opened.forEach((name, g) -> out.add(row(name, g.beforeSyn.count(), g.beforeSyn, g.synToRequest)));
        }
        return out;
    }

    /** The head of a split table: two sides' mean, p50 and p99. */
    private static String header(String first, String second) {
        return String.format(
                Locale.ROOT,
                "  %-24s %7s | %9s %7s %7s | %12s %7s %7s",
                "requests",
                "count",
                first,
                "p50",
                "p99",
                second,
                "p50",
                "p99");
    }

    /** A row of a split table: {@code a}'s and {@code b}'s mean, p50 and p99 (us). */
    private static String row(String name, long count, DiffStats a, DiffStats b) {
        return String.format(
                Locale.ROOT,
                "  %-24s %7d | %9.1f %7.1f %7.1f | %12.1f %7.1f %7.1f",
                name,
                count,
                a.meanUs(),
                a.percentileUs(50),
                a.percentileUs(99),
                b.meanUs(),
                b.percentileUs(50),
                b.percentileUs(99));
    }

    private static void stats(ObjectNode n, DiffStats d) {
        n.put("count", d.count())
                .put("mean", r1(d.meanUs()))
                .put("p50", r1(d.percentileUs(50)))
                .put("p99", r1(d.percentileUs(99)))
                .put("max", r1(d.maxUs()))
                .put("min", r1(d.minUs()));
    }

    private static double r1(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
