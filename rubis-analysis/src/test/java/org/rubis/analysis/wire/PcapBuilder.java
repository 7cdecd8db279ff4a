package org.rubis.analysis.wire;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes classic pcap files of synthetic Ethernet/IPv4/TCP packets, the way libpcap does (little-endian,
 * nanosecond magic), so the analyser is tested against bytes whose every field the test chose. Public, in the
 * test-jar, for rubis-client's tests of the wire check's verdict.
 */
public final class PcapBuilder {
    public static final long T0 = 1_700_000_000_000_000_000L;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final int snap;

    public PcapBuilder(int snap) {
        this.snap = snap;
        ByteBuffer h = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        h.putInt(0xa1b23c4d)
                .putShort((short) 2)
                .putShort((short) 4)
                .putInt(0)
                .putInt(0)
                .putInt(snap)
                .putInt(1);
        out.writeBytes(h.array());
    }

    /** One TCP/IPv4 packet at T0 + {@code atNs}; the payload is cut to the snap length like a real capture. */
    public PcapBuilder packet(
            long atNs, String src, int sport, String dst, int dport, long seq, long ack, int flags, byte[] payload) {
        int ipLen = 20 + 20 + payload.length;
        ByteBuffer f = ByteBuffer.allocate(14 + ipLen).order(ByteOrder.BIG_ENDIAN);
        f.put(new byte[6]).put(new byte[6]).putShort((short) 0x0800);
        f.put((byte) 0x45)
                .put((byte) 0)
                .putShort((short) ipLen)
                .putShort((short) 0)
                .putShort((short) 0x4000)
                .put((byte) 64)
                .put((byte) 6)
                .putShort((short) 0)
                .put(ip(src))
                .put(ip(dst));
        f.putShort((short) sport)
                .putShort((short) dport)
                .putInt((int) seq)
                .putInt((int) ack)
                .put((byte) 0x50)
                .put((byte) flags)
                .putShort((short) 65535)
                .putShort((short) 0)
                .putShort((short) 0);
        f.put(payload);
        byte[] frame = f.array();
        int caplen = Math.min(frame.length, snap);
        long ts = T0 + atNs;
        ByteBuffer r = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        r.putInt((int) (ts / 1_000_000_000L))
                .putInt((int) (ts % 1_000_000_000L))
                .putInt(caplen)
                .putInt(frame.length);
        out.writeBytes(r.array());
        out.write(frame, 0, caplen);
        return this;
    }

    public byte[] bytes() {
        return out.toByteArray();
    }

    public Path write(Path file) throws IOException {
        Files.write(file, bytes());
        return file;
    }

    private static byte[] ip(String dotted) {
        String[] p = dotted.split("\\.");
        return new byte[] {
            (byte) Integer.parseInt(p[0]),
            (byte) Integer.parseInt(p[1]),
            (byte) Integer.parseInt(p[2]),
            (byte) Integer.parseInt(p[3])
        };
    }

    static byte[] text(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** A client (C) talking to a server (S) on one four-tuple, tracking both sequence numbers like a TCP stack. */
    public static final class Conversation {
        static final int FIN = 0x01, SYN = 0x02, RST = 0x04, PSH = 0x08, ACK = 0x10;
        final PcapBuilder pcap;
        final String client;
        final int clientPort;
        final String server;
        final int serverPort;
        long cseq;
        long sseq;

        public Conversation(
                PcapBuilder pcap, String client, int clientPort, String server, int serverPort, long cisn, long sisn) {
            this.pcap = pcap;
            this.client = client;
            this.clientPort = clientPort;
            this.server = server;
            this.serverPort = serverPort;
            this.cseq = cisn;
            this.sseq = sisn;
        }

        public Conversation handshake(long at) {
            pcap.packet(at, client, clientPort, server, serverPort, cseq, 0, SYN, new byte[0]);
            cseq++;
            pcap.packet(at + 10_000, server, serverPort, client, clientPort, sseq, cseq, SYN | ACK, new byte[0]);
            sseq++;
            pcap.packet(at + 20_000, client, clientPort, server, serverPort, cseq, sseq, ACK, new byte[0]);
            return this;
        }

        public Conversation fromClient(long at, String data) {
            byte[] b = text(data);
            pcap.packet(at, client, clientPort, server, serverPort, cseq, sseq, PSH | ACK, b);
            cseq += b.length;
            return this;
        }

        public Conversation fromServer(long at, String data) {
            byte[] b = text(data);
            pcap.packet(at, server, serverPort, client, clientPort, sseq, cseq, PSH | ACK, b);
            sseq += b.length;
            return this;
        }

        /** Sends again the client's last {@code length} bytes (a retransmission). */
        public Conversation clientRetransmit(long at, String data) {
            byte[] b = text(data);
            pcap.packet(at, client, clientPort, server, serverPort, cseq - b.length, sseq, PSH | ACK, b);
            return this;
        }

        public Conversation serverRetransmit(long at, String data) {
            byte[] b = text(data);
            pcap.packet(at, server, serverPort, client, clientPort, sseq - b.length, cseq, PSH | ACK, b);
            return this;
        }

        public Conversation ackFromClient(long at) {
            pcap.packet(at, client, clientPort, server, serverPort, cseq, sseq, ACK, new byte[0]);
            return this;
        }

        public Conversation finFromServer(long at) {
            pcap.packet(at, server, serverPort, client, clientPort, sseq, cseq, FIN | ACK, new byte[0]);
            sseq++;
            pcap.packet(at + 5_000, client, clientPort, server, serverPort, cseq, sseq, FIN | ACK, new byte[0]);
            cseq++;
            pcap.packet(at + 10_000, server, serverPort, client, clientPort, sseq, cseq, ACK, new byte[0]);
            return this;
        }

        public Conversation finFromClient(long at) {
            pcap.packet(at, client, clientPort, server, serverPort, cseq, sseq, FIN | ACK, new byte[0]);
            cseq++;
            pcap.packet(at + 5_000, server, serverPort, client, clientPort, sseq, cseq, FIN | ACK, new byte[0]);
            sseq++;
            pcap.packet(at + 10_000, client, clientPort, server, serverPort, cseq, sseq, ACK, new byte[0]);
            return this;
        }

        public Conversation rstFromClient(long at) {
            pcap.packet(at, client, clientPort, server, serverPort, cseq, 0, RST, new byte[0]);
            return this;
        }
    }

    public static String request(String path) {
        return "GET " + path
                + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: rubis-client\r\nConnection: keep-alive\r\n\r\n";
    }

    public static String responseHead(int status, int length) {
        return "HTTP/1.1 " + status + " OK\r\nContent-Type: text/html\r\nContent-Length: " + length + "\r\n\r\n";
    }

    public static String body(int n, char c) {
        return String.valueOf(c).repeat(n);
    }
}
