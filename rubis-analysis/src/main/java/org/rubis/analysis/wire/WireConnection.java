package org.rubis.analysis.wire;

import java.util.ArrayList;
import java.util.List;

/** One TCP connection: who opened it, how it closed and the exchanges it carried. */
public final class WireConnection {
    /** How the connection ended, as seen on the wire. */
    public enum CloseKind {
        FIN_CLIENT("fin-client"),
        FIN_SERVER("fin-server"),
        RST_CLIENT("rst-client"),
        RST_SERVER("rst-server"),
        OPEN("open");

        public final String label;

        CloseKind(String label) {
            this.label = label;
        }
    }

    /** 0-based, in order of the first packet. */
    public final int id;
    /** {@code address:port} of the side that opened it (sent the SYN): the client's connection_id. */
    public final String client;

    public final String server;
    /** True when the SYN was captured (else the capture started mid-connection and the sides were guessed). */
    public final boolean synSeen;

    public final long openNs;
    public long closeNs;
    public CloseKind closeKind = CloseKind.OPEN;
    public long packets;
    public long retransmissions;
    /** Payload bytes that arrived beyond a hole in the sequence space: packets missing from the capture. */
    public long gaps;

    public final List<WireRequest> requests = new ArrayList<>();

    WireConnection(int id, String client, String server, boolean synSeen, long openNs) {
        this.id = id;
        this.client = client;
        this.server = server;
        this.synSeen = synSeen;
        this.openNs = openNs;
    }

    public boolean closed() {
        return closeKind != CloseKind.OPEN;
    }
}
