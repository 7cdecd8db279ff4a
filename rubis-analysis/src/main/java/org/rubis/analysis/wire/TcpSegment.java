package org.rubis.analysis.wire;

/**
 * One TCP segment as captured: the kernel's timestamp, the four-tuple, sequence numbers, flags, the
 * payload length from the IP header (true length, even when the snap length cut the bytes) and the
 * payload bytes that were captured.
 */
public record TcpSegment(
        long epochNs,
        String src,
        int srcPort,
        String dst,
        int dstPort,
        long seq,
        long ack,
        int flags,
        int payloadLength,
        byte[] payload) {
    public static final int FIN = 0x01;
    public static final int SYN = 0x02;
    public static final int RST = 0x04;
    public static final int ACK = 0x10;

    public boolean fin() {
        return (flags & FIN) != 0;
    }

    public boolean syn() {
        return (flags & SYN) != 0;
    }

    public boolean rst() {
        return (flags & RST) != 0;
    }

    public boolean ackFlag() {
        return (flags & ACK) != 0;
    }

    public String source() {
        return src + ":" + srcPort;
    }

    public String destination() {
        return dst + ":" + dstPort;
    }
}
