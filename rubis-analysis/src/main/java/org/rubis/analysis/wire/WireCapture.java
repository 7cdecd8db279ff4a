package org.rubis.analysis.wire;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;

/**
 * Everything a pcap file says about HTTP/1.1 traffic: its TCP connections, the exchanges each carried, and
 * how many connections and requests were open over time. Works on our own capture or any tcpdump/Wireshark
 * classic pcap file.
 */
public final class WireCapture {
    public final Path file;
    public final PcapReader.Result read;
    public final List<WireConnection> connections;
    /** Every request, in order of its first packet. */
    public final List<WireRequest> requests;

    public final long firstNs;
    public final long lastNs;
    /** Per second since the first packet: the most connections open at once in that second (every second up to {@link #MAX_FILLED_SECONDS}; beyond, only seconds with an open or close). */
    public final TreeMap<Long, Integer> openConnectionsPerSecond = new TreeMap<>();
    /** Per second since the first packet: the most requests in flight (first request packet to last response packet). */
    public final TreeMap<Long, Integer> requestsInFlightPerSecond = new TreeMap<>();

    public int maxOpenConnections;
    /** Longest capture (seconds) whose per-second maps are filled for every second; longer ones keep only the seconds with events. */
    static final long MAX_FILLED_SECONDS = 86_400;

    public int maxRequestsInFlight;

    private WireCapture(Path file, PcapReader.Result read, TcpReconstruction tcp) {
        this.file = file;
        this.read = read;
        this.connections = List.copyOf(tcp.connections());
        List<WireRequest> all = new ArrayList<>();
        for (WireConnection c : connections) {
            all.addAll(c.requests);
        }
        all.sort(Comparator.comparingLong(r -> r.requestNs));
        this.requests = List.copyOf(all);
        this.firstNs = tcp.firstNs();
        this.lastNs = tcp.lastNs();
        List<long[]> conn = new ArrayList<>();
        for (WireConnection c : connections) {
            conn.add(new long[] {c.openNs, c.closed() ? c.closeNs : lastNs});
        }
        maxOpenConnections = sweep(conn, openConnectionsPerSecond);
        List<long[]> req = new ArrayList<>();
        for (WireRequest r : requests) {
            req.add(new long[] {r.requestNs, r.answered() ? r.lastByteNs : r.requestNs});
        }
        maxRequestsInFlight = sweep(req, requestsInFlightPerSecond);
    }

    /** Reads and reconstructs a pcap file. Throws AnalysisException (one line) for a missing or non-pcap file. */
    public static WireCapture read(Path pcap) {
        TcpReconstruction tcp = new TcpReconstruction();
        PcapReader.Result r = PcapReader.read(pcap, tcp);
        return new WireCapture(pcap, r, tcp);
    }

    /** Retransmitted segments over all connections. */
    public long retransmissions() {
        return connections.stream().mapToLong(c -> c.retransmissions).sum();
    }

    /** Holes in the sequence space: packets the capture missed (dropped, or before it started). */
    public long gaps() {
        return connections.stream().mapToLong(c -> c.gaps).sum();
    }

    /** Interval sweep: the maximum overlap overall, and per second into {@code perSecond}. */
    private int sweep(List<long[]> intervals, TreeMap<Long, Integer> perSecond) {
        List<long[]> events = new ArrayList<>(intervals.size() * 2);
        for (long[] i : intervals) {
            events.add(new long[] {i[0], 1});
            events.add(new long[] {Math.max(i[0], i[1]), -1});
        }
        // at equal instants, opens before closes: an exchange that ends as the next begins counts as overlapping
        events.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> -e[1]));
        int now = 0;
        int max = 0;
        for (long[] e : events) {
            now += (int) e[1];
            max = Math.max(max, now);
            long second = (e[0] - firstNs) / 1_000_000_000L;
            perSecond.merge(second, now, Math::max);
        }
        // seconds with no event keep the level of the last event before them (when the capture spans at most a day:
        // timestamps
        // years apart, from a bad clock or a corrupt file, would otherwise make one entry per second; the map then
        // stays sparse)
        if (!perSecond.isEmpty() && perSecond.lastKey() <= MAX_FILLED_SECONDS) {
            int level = 0;
            long lastSecond = perSecond.lastKey();
            TreeMap<Long, Integer> endLevel = new TreeMap<>();
            now = 0;
            for (long[] e : events) {
                now += (int) e[1];
                endLevel.put((e[0] - firstNs) / 1_000_000_000L, now);
            }
            for (long s = 0; s <= lastSecond; s++) {
                Integer seen = perSecond.get(s);
                if (seen == null) {
                    perSecond.put(s, level);
                }
                Integer end = endLevel.get(s);
                if (end != null) {
                    level = end;
                }
            }
        }
        return max;
    }
}
