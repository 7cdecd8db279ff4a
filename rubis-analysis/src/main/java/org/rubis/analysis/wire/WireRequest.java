package org.rubis.analysis.wire;

/**
 * One HTTP request/response exchange as the wire saw it. Instants are the capture's kernel timestamps
 * (epoch ns); only their differences are compared with the client's durations, never the instants
 * themselves with another clock.
 */
public final class WireRequest {
    /** The connection that carried it. */
    public final WireConnection connection;
    /** 0-based index on its connection. */
    public final int index;
    /** First packet of the request (its first transmission). */
    public final long requestNs;

    public String method = "";
    /** Request target as read from the first client segment; may be cut by the snap length ({@link #pathComplete}). */
    public String path = "";

    public boolean pathComplete;
    public long requestBytes;
    /** First and last server payload packet of the response; 0 when no response came. */
    public long firstByteNs;

    public long lastByteNs;
    public long responseBytes;
    /** Status code from the first server segment; 0 when none or unreadable. */
    public int status;
    /** Retransmitted segments (either direction) while this exchange was open. */
    public int retransmissions;

    WireRequest(WireConnection connection, int index, long requestNs) {
        this.connection = connection;
        this.index = index;
        this.requestNs = requestNs;
    }

    public boolean answered() {
        return firstByteNs != 0;
    }

    /** First request packet to first response packet, ns; -1 without a response. */
    public long ttfbNs() {
        return answered() ? firstByteNs - requestNs : -1;
    }

    /** First request packet to last response packet, ns; -1 without a response. */
    public long responseNs() {
        return answered() ? lastByteNs - requestNs : -1;
    }
}
