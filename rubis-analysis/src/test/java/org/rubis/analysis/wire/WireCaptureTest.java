package org.rubis.analysis.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rubis.analysis.wire.PcapBuilder.body;
import static org.rubis.analysis.wire.PcapBuilder.request;
import static org.rubis.analysis.wire.PcapBuilder.responseHead;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.analysis.io.AnalysisException;
import org.rubis.analysis.wire.PcapBuilder.Conversation;

/** The analyser on pcap files the tests write byte by byte, so every expected instant is known exactly. */
class WireCaptureTest {
    static final String C = "127.0.0.1";
    static final String S = "127.0.0.2";
    static final long MS = 1_000_000;

    @TempDir
    Path tmp;

    /** Three requests on one keep-alive connection, the second response in two segments, closed by the server. */
    static PcapBuilder keepAlive(PcapBuilder p) {
        new Conversation(p, C, 40000, S, 8080, 1000, 5000)
                .handshake(0)
                .fromClient(1 * MS, request("/a"))
                .fromServer(3 * MS, responseHead(200, 5) + "hello")
                .ackFromClient(3 * MS + 50_000)
                .fromClient(10 * MS, request("/b?x=1"))
                .fromServer(12 * MS, responseHead(200, 200) + body(100, 'x'))
                .fromServer(14 * MS, body(100, 'y'))
                .ackFromClient(14 * MS + 50_000)
                .fromClient(20 * MS, request("/c"))
                .fromServer(25 * MS, responseHead(404, 3) + "nop")
                .finFromServer(30 * MS);
        return p;
    }

    @Test
    void keepAliveConnectionWithThreeRequestsClosedByTheServer() throws Exception {
        WireCapture w = WireCapture.read(keepAlive(new PcapBuilder(65535)).write(tmp.resolve("k.pcap")));
        assertEquals(1, w.connections.size());
        WireConnection c = w.connections.get(0);
        assertEquals(C + ":40000", c.client);
        assertEquals(S + ":8080", c.server);
        assertTrue(c.synSeen);
        assertEquals(WireConnection.CloseKind.FIN_SERVER, c.closeKind);
        assertEquals(PcapBuilder.T0 + 30 * MS + 5_000, c.closeNs, "closed when the second FIN is seen");
        assertEquals(3, c.requests.size());
        WireRequest b = c.requests.get(1);
        assertEquals("GET", b.method);
        assertEquals("/b?x=1", b.path);
        assertTrue(b.pathComplete);
        assertEquals(200, b.status);
        assertEquals(PcapBuilder.T0 + 10 * MS, b.requestNs);
        assertEquals(2 * MS, b.ttfbNs());
        assertEquals(4 * MS, b.responseNs(), "the response spans both server segments");
        assertEquals(responseHead(200, 200).length() + 200, b.responseBytes);
        assertEquals(404, c.requests.get(2).status);
        assertEquals(5 * MS, c.requests.get(2).responseNs());
        assertEquals(0, w.retransmissions());
        assertEquals(0, w.gaps());
        assertFalse(w.read.truncated());
        assertTrue(w.read.nanosecond());
        assertEquals(1, w.maxOpenConnections);
        assertEquals(1, w.maxRequestsInFlight);
    }

    @Test
    void snapLengthCutsThePathButNotTheByteCounts() throws Exception {
        PcapBuilder p = new PcapBuilder(14 + 40 + 20); // the request line is cut after "GET /very"
        String path = "/very/long/path/that/the/snap/length/cuts";
        new Conversation(p, C, 40001, S, 8080, 1, 1)
                .handshake(0)
                .fromClient(MS, request(path))
                .fromServer(2 * MS, responseHead(200, 1000) + body(1000, 'z'));
        WireCapture w = WireCapture.read(p.write(tmp.resolve("s.pcap")));
        WireRequest r = w.requests.get(0);
        assertFalse(r.pathComplete);
        assertTrue(path.startsWith(r.path) && r.path.length() < path.length(), r.path);
        assertTrue(WireCheck.samePath(r, path));
        assertEquals(responseHead(200, 1000).length() + 1000, r.responseBytes);
        assertEquals(request(path).length(), r.requestBytes);
    }

    @Test
    void resetByTheClientIsAClose() throws Exception {
        PcapBuilder p = new PcapBuilder(65535);
        new Conversation(p, C, 40002, S, 8080, 7, 9)
                .handshake(0)
                .fromClient(MS, request("/x"))
                .fromServer(2 * MS, responseHead(200, 2) + "ok")
                .rstFromClient(3 * MS);
        WireCapture w = WireCapture.read(p.write(tmp.resolve("r.pcap")));
        WireConnection c = w.connections.get(0);
        assertEquals(WireConnection.CloseKind.RST_CLIENT, c.closeKind);
        assertEquals(PcapBuilder.T0 + 3 * MS, c.closeNs);
        assertEquals(1, c.requests.size());
    }

    @Test
    void retransmissionsAreCountedNotDoubleCounted() throws Exception {
        PcapBuilder p = new PcapBuilder(65535);
        String req = request("/r");
        String resp = responseHead(200, 4) + "data";
        new Conversation(p, C, 40003, S, 8080, 100, 200)
                .handshake(0)
                .fromClient(MS, req)
                .clientRetransmit(1 * MS + 200_000, req) // the request again: not a second request
                .fromServer(3 * MS, resp)
                .serverRetransmit(4 * MS, resp) // the response again: not more bytes, not a later last byte
                .fromClient(10 * MS, request("/s"))
                .fromServer(11 * MS, resp);
        WireCapture w = WireCapture.read(p.write(tmp.resolve("t.pcap")));
        assertEquals(2, w.requests.size());
        WireRequest first = w.requests.get(0);
        assertEquals(PcapBuilder.T0 + MS, first.requestNs, "the first transmission marks the request");
        assertEquals(req.length(), first.requestBytes);
        assertEquals(resp.length(), first.responseBytes);
        assertEquals(2 * MS, first.responseNs());
        assertEquals(2, first.retransmissions);
        assertEquals(2, w.retransmissions());
        assertEquals("/s", w.requests.get(1).path);
    }

    @Test
    void aPortReusedByALaterConnectionIsANewConnection() throws Exception {
        PcapBuilder p = new PcapBuilder(65535);
        new Conversation(p, C, 40004, S, 8080, 1000, 2000)
                .handshake(0)
                .fromClient(MS, request("/first"))
                .fromServer(2 * MS, responseHead(200, 1) + "1")
                .finFromClient(3 * MS);
        new Conversation(p, C, 40004, S, 8080, 900_000, 3000)
                .handshake(100 * MS)
                .fromClient(101 * MS, request("/second"))
                .fromServer(103 * MS, responseHead(200, 1) + "2")
                .fromClient(110 * MS, request("/third"))
                .fromServer(111 * MS, responseHead(200, 1) + "3");
        WireCapture w = WireCapture.read(p.write(tmp.resolve("p.pcap")));
        assertEquals(2, w.connections.size());
        assertEquals(WireConnection.CloseKind.FIN_CLIENT, w.connections.get(0).closeKind);
        assertEquals(WireConnection.CloseKind.OPEN, w.connections.get(1).closeKind);
        assertEquals(
                List.of("/first"),
                w.connections.get(0).requests.stream().map(r -> r.path).toList());
        assertEquals(
                List.of("/second", "/third"),
                w.connections.get(1).requests.stream().map(r -> r.path).toList());
        assertEquals(w.connections.get(0).client, w.connections.get(1).client);
        assertEquals(1, w.maxOpenConnections);
    }

    @Test
    void aRetransmittedSynIsNotANewConnection() throws Exception {
        PcapBuilder p = new PcapBuilder(65535);
        p.packet(0, C, 40005, S, 8080, 55, 0, Conversation.SYN, new byte[0]);
        new Conversation(p, C, 40005, S, 8080, 55, 77)
                .handshake(MS)
                .fromClient(2 * MS, request("/y"))
                .fromServer(3 * MS, responseHead(200, 1) + "y");
        WireCapture w = WireCapture.read(p.write(tmp.resolve("syn.pcap")));
        assertEquals(1, w.connections.size());
        assertEquals(1, w.connections.get(0).retransmissions);
        assertEquals(1, w.requests.size());
    }

    @Test
    void aTruncatedFileIsReadUpToTheCut() throws Exception {
        byte[] all = keepAlive(new PcapBuilder(65535)).bytes();
        // cut inside the last packet record: everything before it is analysed
        Path cut = tmp.resolve("cut.pcap");
        Files.write(cut, Arrays.copyOf(all, all.length - 20));
        WireCapture w = WireCapture.read(cut);
        assertTrue(w.read.truncated());
        assertEquals(3, w.requests.size());
        assertEquals(WireConnection.CloseKind.FIN_SERVER, w.connections.get(0).closeKind);
    }

    @Test
    void notAPcapIsAOneLineError() throws Exception {
        Path text = Files.writeString(tmp.resolve("x.pcap"), "this is not a capture, just text");
        AnalysisException e = assertThrows(AnalysisException.class, () -> WireCapture.read(text));
        assertTrue(e.getMessage().contains("not a pcap file"), e.getMessage());
        Path ng = Files.write(tmp.resolve("ng.pcap"), new byte[] {
            0x0a, 0x0d, 0x0d, 0x0a, 0, 0, 0, 0x1c, 0x4d, 0x3c, 0x2b, 0x1a, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
        });
        e = assertThrows(AnalysisException.class, () -> WireCapture.read(ng));
        assertTrue(e.getMessage().contains("editcap -F pcap"), e.getMessage());
        Path tiny = Files.write(tmp.resolve("tiny.pcap"), new byte[] {(byte) 0xd4, (byte) 0xc3});
        e = assertThrows(AnalysisException.class, () -> WireCapture.read(tiny));
        assertTrue(e.getMessage().contains("shorter than a pcap header"), e.getMessage());
        e = assertThrows(AnalysisException.class, () -> WireCapture.read(tmp.resolve("absent.pcap")));
        assertTrue(e.getMessage().contains("no such capture file"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test
    void aRecordClaimingAHugeLengthIsACutFileNotAnAllocation() throws Exception {
        ByteBuffer r = ByteBuffer.allocate(16 + 100).order(ByteOrder.LITTLE_ENDIAN);
        r.putInt(1_700_000_000)
                .putInt(0)
                .putInt(Integer.MAX_VALUE)
                .putInt(Integer.MAX_VALUE); // 2 GiB claimed, 100 bytes follow
        byte[] head = new PcapBuilder(65535).bytes();
        byte[] file = Arrays.copyOf(head, head.length + r.capacity());
        System.arraycopy(r.array(), 0, file, head.length, r.capacity());
        WireCapture w = WireCapture.read(Files.write(tmp.resolve("huge.pcap"), file));
        assertTrue(w.read.truncated(), "read as a file cut inside a record");
        assertEquals(0, w.read.records());
    }

    @Test
    void packetsYearsApartAreReadWithoutAnEntryForEverySecondBetween() throws Exception {
        long years = 80L * 365 * 86_400 * 1_000_000_000L; // a bad clock or a corrupt timestamp
        PcapBuilder p = new PcapBuilder(65535);
        new Conversation(p, C, 40000, S, 8080, 1000, 5000)
                .handshake(0)
                .fromClient(1 * MS, request("/a"))
                .fromServer(years, responseHead(200, 5) + "hello");
        WireCapture w = WireCapture.read(p.write(tmp.resolve("years.pcap")));
        assertEquals(1, w.requests.size());
        assertEquals(years - 1 * MS, w.requests.get(0).responseNs());
        assertEquals(1, w.maxOpenConnections);
        assertTrue(w.openConnectionsPerSecond.size() < 10, "sparse: " + w.openConnectionsPerSecond.size() + " entries");
    }
}
