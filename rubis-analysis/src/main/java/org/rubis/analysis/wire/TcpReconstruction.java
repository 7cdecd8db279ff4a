package org.rubis.analysis.wire;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Rebuilds TCP connections and their HTTP/1.1 exchanges from segments in capture order.
 *
 * <p>Connections: a SYN (without ACK) opens one; a SYN with a new initial sequence number on a four-tuple
 * already seen is a new connection (the client reused the port), a SYN with the same one is a
 * retransmitted SYN. Segments of a four-tuple never opened in the capture start a connection whose client
 * is guessed (the side that sends an HTTP method, else the higher port). Close: the first FIN or RST and who
 * sent it; the close instant is the RST or the second FIN.
 *
 * <p>Retransmissions: per direction the highest sequence number seen so far; a segment whose payload lies
 * wholly below it is a retransmission and is counted, never treated as new data (a partial overlap
 * contributes only its new bytes). Sequence numbers are relative to the first one seen, so a direction
 * may carry up to 4 GB.
 *
 * <p>HTTP/1.1 without pipelining (what every rubis-client backend does): a request starts at the first new
 * client payload after the previous response began (or the first on the connection); the response is every
 * new server payload byte until the next request or the close. Method and path come from the first client
 * segment, the status from the first server segment.
 */
public final class TcpReconstruction implements Consumer<TcpSegment> {
    private static final String[] METHODS = {
        "GET ", "POST ", "HEAD ", "PUT ", "DELETE ", "OPTIONS ", "PATCH ", "CONNECT ", "TRACE "
    };

    private static final class Direction {
        boolean started;
        long base;
        long next; // relative end of the highest byte seen

        long rel(long seq) {
            return (seq - base) & 0xffffffffL;
        }
    }

    private static final class State {
        final WireConnection c;
        final Direction fromClient = new Direction();
        final Direction fromServer = new Direction();
        long clientIsn = -1;
        long finClientNs;
        long finServerNs;
        WireRequest current;

        State(WireConnection c) {
            this.c = c;
        }
    }

    private final Map<String, State> byTuple = new HashMap<>();
    private final List<WireConnection> connections = new ArrayList<>();
    private int nextId;
    /** Told of each request as its first packet is seen (the live join). */
    private final Consumer<WireRequest> newRequests;

    public TcpReconstruction() {
        this(r -> {});
    }

    TcpReconstruction(Consumer<WireRequest> newRequests) {
        this.newRequests = newRequests;
    }

    private long firstNs = Long.MAX_VALUE;
    private long lastNs;

    @Override
    public void accept(TcpSegment s) {
        firstNs = Math.min(firstNs, s.epochNs());
        lastNs = Math.max(lastNs, s.epochNs());
        String a = s.source();
        String b = s.destination();
        String key = a.compareTo(b) < 0 ? a + "|" + b : b + "|" + a;
        State st = byTuple.get(key);
        boolean pureSyn = s.syn() && !s.ackFlag();
        if (pureSyn && (st == null || !(a.equals(st.c.client) && s.seq() == st.clientIsn))) {
            st = open(key, a, b, true, s.epochNs());
            st.clientIsn = s.seq();
        } else if (st == null) {
            boolean srcIsClient =
                    looksLikeRequest(s.payload()) || (!looksLikeResponse(s.payload()) && s.srcPort() > s.dstPort());
            st = srcIsClient ? open(key, a, b, false, s.epochNs()) : open(key, b, a, false, s.epochNs());
        }
        segment(st, s, a.equals(st.c.client));
    }

    private State open(String key, String client, String server, boolean syn, long ns) {
        WireConnection c = new WireConnection(nextId++, client, server, syn, ns);
        connections.add(c);
        State st = new State(c);
        byTuple.put(key, st);
        return st;
    }

    private void segment(State st, TcpSegment s, boolean fromClient) {
        WireConnection c = st.c;
        c.packets++;
        Direction d = fromClient ? st.fromClient : st.fromServer;
        if (!d.started) {
            d.started = true;
            d.base = s.syn() ? (s.seq() + 1) & 0xffffffffL : s.seq();
            d.next = 0;
        } else if (s.syn() && s.payloadLength() == 0) {
            c.retransmissions++; // a repeated SYN or SYN-ACK
        }
        int len = s.payloadLength();
        if (len > 0) {
            long start = d.rel(s.syn() ? s.seq() + 1 : s.seq());
            long end = start + len;
            if (start > 0x80000000L) {
                start -= 0x100000000L; // before the base: an old segment
                end -= 0x100000000L;
            }
            if (end <= d.next) {
                c.retransmissions++;
                if (st.current != null) {
                    st.current.retransmissions++;
                }
            } else {
                long fresh = end - Math.max(start, d.next);
                if (start > d.next) {
                    c.gaps++;
                }
                boolean partial = start < d.next;
                if (partial) {
                    c.retransmissions++;
                }
                d.next = end;
                if (fromClient) {
                    clientData(st, s, fresh, partial);
                } else {
                    serverData(st, s, fresh);
                }
            }
        }
        if (s.fin()) {
            if (fromClient && st.finClientNs == 0) {
                st.finClientNs = s.epochNs();
            } else if (!fromClient && st.finServerNs == 0) {
                st.finServerNs = s.epochNs();
            }
            if (c.closeKind == WireConnection.CloseKind.OPEN) {
                c.closeKind = fromClient ? WireConnection.CloseKind.FIN_CLIENT : WireConnection.CloseKind.FIN_SERVER;
                c.closeNs = s.epochNs();
            }
            if (st.finClientNs != 0 && st.finServerNs != 0) {
                c.closeNs = Math.max(st.finClientNs, st.finServerNs);
            }
        }
        if (s.rst()) {
            if (c.closeKind == WireConnection.CloseKind.OPEN) {
                c.closeKind = fromClient ? WireConnection.CloseKind.RST_CLIENT : WireConnection.CloseKind.RST_SERVER;
            }
            if (c.closeNs == 0 || st.finClientNs == 0 || st.finServerNs == 0) {
                c.closeNs = s.epochNs();
            }
        }
    }

    private void clientData(State st, TcpSegment s, long fresh, boolean partial) {
        WireRequest r = st.current;
        if (r == null || r.answered()) {
            r = new WireRequest(st.c, st.c.requests.size(), s.epochNs());
            st.c.requests.add(r);
            st.current = r;
            if (!partial) {
                requestLine(r, s.payload());
            }
            newRequests.accept(r);
        }
        r.requestBytes += fresh;
    }

    private static void serverData(State st, TcpSegment s, long fresh) {
        WireRequest r = st.current;
        if (r == null) {
            return; // server bytes before any request (not HTTP/1.1 request/response): ignored
        }
        if (!r.answered()) {
            r.firstByteNs = s.epochNs();
            r.status = status(s.payload());
        }
        r.lastByteNs = s.epochNs();
        r.responseBytes += fresh;
    }

    static void requestLine(WireRequest r, byte[] p) {
        String line = firstLine(p);
        int sp = line.indexOf(' ');
        if (sp <= 0) {
            return;
        }
        r.method = line.substring(0, sp);
        int sp2 = line.indexOf(' ', sp + 1);
        r.pathComplete = sp2 > 0;
        r.path = sp2 > 0 ? line.substring(sp + 1, sp2) : line.substring(sp + 1);
    }

    static int status(byte[] p) {
        String line = firstLine(p);
        if (!line.startsWith("HTTP/") || line.length() < 12) {
            return 0;
        }
        try {
            return Integer.parseInt(line.substring(9, 12));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String firstLine(byte[] p) {
        int end = 0;
        while (end < p.length && p[end] != '\r' && p[end] != '\n') {
            end++;
        }
        return new String(p, 0, end, StandardCharsets.ISO_8859_1);
    }

    private static boolean looksLikeRequest(byte[] p) {
        String head = new String(p, 0, Math.min(p.length, 8), StandardCharsets.ISO_8859_1);
        for (String m : METHODS) {
            if (head.startsWith(m)) {
                return true;
            }
        }
        return false;
    }

    private static boolean looksLikeResponse(byte[] p) {
        return p.length >= 5 && new String(p, 0, 5, StandardCharsets.ISO_8859_1).equals("HTTP/");
    }

    /**
     * Forgets the connections closed before {@code epochNs} (a live capture of hours keeps only what is open): they
     * are no longer in {@link #connections()}, and a late segment of one starts a connection of its own.
     */
    void forgetClosedBefore(long epochNs) {
        byTuple.values().removeIf(st -> st.c.closed() && st.c.closeNs < epochNs);
        connections.removeIf(c -> c.closed() && c.closeNs < epochNs);
    }

    /** The connections in order of their first packet. */
    public List<WireConnection> connections() {
        return connections;
    }

    public long firstNs() {
        return firstNs == Long.MAX_VALUE ? 0 : firstNs;
    }

    public long lastNs() {
        return lastNs;
    }
}
