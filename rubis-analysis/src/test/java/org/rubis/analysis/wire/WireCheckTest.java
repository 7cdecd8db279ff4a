package org.rubis.analysis.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rubis.analysis.wire.PcapBuilder.request;
import static org.rubis.analysis.wire.PcapBuilder.responseHead;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.analysis.cli.AnalysisMain;
import org.rubis.analysis.io.RunDirectory;
import org.rubis.analysis.wire.PcapBuilder.Conversation;
import org.rubis.format.run.Columns;
import org.rubis.format.run.RunFiles;
import org.rubis.format.stats.WireAccuracy;

/** The join of wire requests with requests.csv and the server's log, on a run directory written by the test. */
class WireCheckTest {
    static final long MS = 1_000_000;
    static final String HEADER = String.join(",", Columns.REQUESTS) + "\n";

    @TempDir
    Path tmp;

    static String line(
            String path, long send, long ttfb, long response, int status, String conn, boolean isNew, String backend) {
        return "1,user1,0,Home," + path + ",run," + send + "," + send + "," + ttfb + "," + response + ",10," + status
                + ",," + conn + "," + isNew + "," + backend + ",0,0,0,," + conn + "\n";
    }

    /** A line of this version's requests.csv: the connection's serial, and its address:port last. */
    static String line(String path, long send, long response, String id, String address, boolean isNew) {
        return "1,user1,0,Home," + path + ",run," + send + "," + send + "," + response / 2 + "," + response
                + ",10,200,," + id + "," + isNew + ",netty,0,0,0,," + address + "\n";
    }

    /**
     * Port 50000 carries two connections one after the other (the kernel reused it): requests.csv names them 1 and 2,
     * both at 127.0.0.1:50000. The joins pair by the address and time, the counts by the serial: three connections,
     * not two, and wire.csv names each request by the client's connection, its address beside.
     */
    @Test
    void aReusedPortIsTwoConnectionsJoinedByAddressAndNamedBySerial() throws Exception {
        PcapBuilder p = new PcapBuilder(256);
        new Conversation(p, "127.0.0.1", 50000, "127.0.0.1", 8080, 10, 20)
                .handshake(0)
                .fromClient(MS, request("/a"))
                .fromServer(2 * MS, responseHead(200, 1) + "a")
                .finFromClient(7 * MS);
        new Conversation(p, "127.0.0.1", 50000, "127.0.0.1", 8080, 90_000, 20)
                .handshake(50 * MS)
                .fromClient(51 * MS, request("/c"))
                .fromServer(54 * MS, responseHead(200, 1) + "c");
        new Conversation(p, "127.0.0.1", 50001, "127.0.0.1", 8080, 5, 6)
                .handshake(60 * MS)
                .fromClient(61 * MS, request("/d"))
                .fromServer(62 * MS, responseHead(200, 1) + "d");
        Path run = Files.createDirectories(tmp.resolve("run"));
        p.write(run.resolve("capture.pcap"));
        long t = 1_800_000_000_000_000_000L;
        Files.writeString(
                run.resolve("requests.csv"),
                HEADER
                        + line("/a", t, 1 * MS + 200_000, "1", "127.0.0.1:50000", true)
                        + line("/c", t + 50 * MS, 3 * MS + 600_000, "2", "127.0.0.1:50000", true)
                        + line("/d", t + 60 * MS, 1 * MS + 20_000, "3", "127.0.0.1:50001", true));
        Files.createDirectories(run.resolve("server"));
        Files.writeString(
                run.resolve("server/requests.csv"),
                "connection_id,arrival_epoch_ns,completion_epoch_ns,service_ns,interaction,status,bytes,path\n"
                        + "127.0.0.1:50000,100,200,700000,Home,200,1,/a\n"
                        + "127.0.0.1:50000,500,600,900000,Home,200,1,/c\n127.0.0.1:50001,700,800,400000,Home,200,1,/d\n");
        WireCheck w = WireCheck.run(new RunDirectory(run), null);
        assertEquals(3, w.matched);
        assertEquals(0, w.clientOnly);
        assertEquals(3, w.serverMatched);
        assertEquals(3, w.clientDistinctConnections, "one id per connection, the reused port's two apart");
        List<String> rows = Files.readAllLines(run.resolve("wire.csv"));
        List<String> h = List.of(WireCheck.HEADER.split(","));
        String c = rows.stream().filter(r -> r.contains(",/c,")).findFirst().orElseThrow();
        String[] f = c.split(",", -1);
        assertEquals("2", f[h.indexOf("connection_id")], c);
        assertEquals("127.0.0.1:50000", f[h.indexOf("local_address")], c);
        assertEquals("matched", f[h.indexOf("match")], c);
    }

    @Test
    void joinsByConnectionOrderAndPathAndMeasuresClientMinusWire() throws Exception {
        PcapBuilder p = new PcapBuilder(256);
        // connection 1: two requests; then the port is reused by connection 2 with one request
        new Conversation(p, "127.0.0.1", 50000, "127.0.0.1", 8080, 10, 20)
                .handshake(0)
                .fromClient(MS, request("/a"))
                .fromServer(2 * MS, responseHead(200, 1) + "a")
                .fromClient(5 * MS, request("/b"))
                .fromServer(6 * MS, responseHead(200, 1) + "b")
                .fromClient(6 * MS + 100_000, request("/images/1.jpg"))
                .fromServer(6 * MS + 200_000, responseHead(200, 1) + "i")
                .finFromClient(7 * MS);
        new Conversation(p, "127.0.0.1", 50000, "127.0.0.1", 8080, 90_000, 20)
                .handshake(50 * MS)
                .fromClient(51 * MS, request("/c"))
                .fromServer(54 * MS, responseHead(200, 1) + "c");
        // connection 3: the client logged a request the wire never saw (refused) and one it did
        new Conversation(p, "127.0.0.1", 50001, "127.0.0.1", 8080, 5, 6)
                .handshake(60 * MS)
                .fromClient(61 * MS, request("/d"))
                .fromServer(62 * MS, responseHead(200, 1) + "d");
        Path run = Files.createDirectories(tmp.resolve("run"));
        p.write(run.resolve("capture.pcap"));
        long t = 1_800_000_000_000_000_000L; // client clock: unrelated to the capture's, only durations are compared
        String csv = HEADER
                + line("/b", t + 4 * MS, 1 * MS + 30_000, 1 * MS + 50_000, 200, "127.0.0.1:50000", false, "dedicated")
                + line("/a", t, 1 * MS + 100_000, 1 * MS + 200_000, 200, "127.0.0.1:50000", true, "dedicated")
                + line("/c", t + 50 * MS, 3 * MS + 500_000, 3 * MS + 600_000, 200, "127.0.0.1:50000", true, "dedicated")
                + line("/z", t + 59 * MS, 0, 1000, 0, "127.0.0.1:50001", false, "dedicated")
                + line("/d", t + 60 * MS, 1 * MS + 10_000, 1 * MS + 20_000, 200, "127.0.0.1:50001", true, "dedicated");
        Files.writeString(run.resolve("requests.csv"), csv);
        Files.createDirectories(run.resolve("server"));
        Files.writeString(
                run.resolve("server/requests.csv"),
                "connection_id,arrival_epoch_ns,completion_epoch_ns,service_ns,interaction,status,bytes,path\n"
                        + "127.0.0.1:50000,100,200,700000,Home,200,1,/a\n127.0.0.1:50000,300,400,800000,Home,200,1,/b\n"
                        + "127.0.0.1:50000,500,600,900000,Home,200,1,/c\n127.0.0.1:50001,700,800,400000,Home,200,1,/d\n");
        Files.writeString(
                run.resolve("server/connections.csv"),
                "connection_id,open_epoch_ns,close_epoch_ns,requests,closed_by,tls\n"
                        + "127.0.0.1:50000,1,2,2,client,\n127.0.0.1:50000,3,4,1,shutdown,\n127.0.0.1:50001,5,6,1,shutdown,\n");
        Files.writeString(
                run.resolve("capture-stats.json"),
                "{\"kernel_drops\": 0, \"interface_drops\": 0, \"packets_written\": 30}");

        WireCheck w = WireCheck.run(new RunDirectory(run), null);
        assertEquals(5, w.capture.requests.size());
        assertEquals(4, w.matched);
        assertEquals(1, w.clientOnly, "/z never reached the wire");
        assertEquals(1, w.wireOnly, "the image request is not a client line");
        assertEquals(4, w.serverMatched);
        assertEquals(3, w.wireConnections());
        assertEquals(3, w.serverConnections);
        assertEquals(2, w.clientDistinctConnections);
        assertEquals(3, w.clientConnectionsOpened);
        assertTrue(w.complete());
        WireCheck.Group all = w.groups.get("all");
        assertEquals(4, all.response.count());
        // per request: client response - (last response packet - first request packet)
        // /a 1.2 ms - 1 ms = 200 us; /b 1.05 - 1 = 50 us; /c 3.6 - 3 = 600 us; /d 1.02 - 1 = 20 us
        assertEquals(600, w.groups.get("all").response.maxUs(), 1e-9);
        assertEquals(20, w.groups.get("all").response.minUs(), 1e-9);
        assertEquals(50, w.groups.get("reused").response.maxUs(), 1e-9);
        assertEquals(3, w.groups.get("dedicated/new").response.count());
        assertEquals(30, w.groups.get("reused").ttfb.maxUs(), 1e-9);

        List<String> rows = Files.readAllLines(run.resolve("wire.csv"));
        assertEquals(WireCheck.HEADER, rows.get(0));
        assertEquals(1 + 6, rows.size(), "5 wire requests + 1 client-only line");
        String b = rows.stream().filter(r -> r.contains(",/b,")).findFirst().orElseThrow();
        String[] f = b.split(",", -1);
        List<String> h = List.of(WireCheck.HEADER.split(","));
        assertEquals("matched", f[h.indexOf("match")]);
        assertEquals("50000", f[h.indexOf("response_minus_wire_ns")]);
        assertEquals("800000", f[h.indexOf("server_service_ns")]);
        assertEquals("1", f[h.indexOf("request_on_connection")]);
        assertTrue(rows.stream().anyMatch(r -> r.contains("/images/1.jpg") && r.contains(",wire-only,")));
        assertTrue(rows.stream().anyMatch(r -> r.contains(",/z,") && r.contains(",client-only,")));
        assertEquals(4, Files.readAllLines(run.resolve("wire-connections.csv")).size());

        ObjectNode json = new ObjectMapper().createObjectNode();
        w.toJson(json);
        JsonNode back = new ObjectMapper().readTree(json.toString());
        assertEquals(4, back.path("matched").asInt());
        assertEquals(3, back.path("connections").path("wire").asInt());
        assertEquals(0, back.path("capture").path("kernel_drops").asInt());
        assertEquals(
                600.0,
                back.path("client_minus_wire_us")
                        .path("all")
                        .path("response")
                        .path("max")
                        .asDouble(),
                1e-9);
        assertEquals(
                1,
                back.path("connections").path("close_kinds").path("fin-client").asInt());
    }

    @Test
    void dropsInTheCaptureMakeTheCheckIncomplete() throws Exception {
        PcapBuilder p = new PcapBuilder(256);
        new Conversation(p, "127.0.0.1", 50002, "127.0.0.1", 8080, 1, 1)
                .handshake(0)
                .fromClient(MS, request("/a"))
                .fromServer(2 * MS, responseHead(200, 1) + "a");
        Path run = Files.createDirectories(tmp.resolve("drop"));
        p.write(run.resolve("capture.pcap"));
        Files.writeString(
                run.resolve("requests.csv"), HEADER + line("/a", 0, MS, MS, 200, "127.0.0.1:50002", true, "netty"));
        Files.writeString(run.resolve("capture-stats.json"), "{\"kernel_drops\": 3, \"interface_drops\": 0}");
        WireCheck w = WireCheck.run(new RunDirectory(run), null);
        assertEquals(1, w.matched);
        assertTrue(!w.complete());
        assertTrue(w.notes.stream().anyMatch(n -> n.contains("dropped 3 packets")), w.notes.toString());
    }

    @Test
    void cliAndReportShowTheWireCheckAndBadFilesAreOneLineErrors() throws Exception {
        PcapBuilder p = new PcapBuilder(256);
        new Conversation(p, "127.0.0.1", 50003, "127.0.0.1", 8080, 1, 1)
                .handshake(0)
                .fromClient(MS, request("/a"))
                .fromServer(2 * MS, responseHead(200, 1) + "a");
        Path run = Files.createDirectories(tmp.resolve("cli"));
        Files.writeString(
                run.resolve("requests.csv"),
                HEADER + line("/a", 0, MS + 5_000, MS + 7_000, 200, "127.0.0.1:50003", true, "netty"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = AnalysisMain.execute(
                new String[] {"wire", run.toString()}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(1, rc, "no capture yet");
        assertEquals(1, err.toString().strip().lines().count(), err.toString());
        assertTrue(err.toString().contains("no capture file"), err.toString());

        Files.writeString(run.resolve("capture.pcap"), "garbage that is long enough to be a header but is not one");
        err.getBuffer().setLength(0);
        rc = AnalysisMain.execute(
                new String[] {"wire", run.toString()}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(1, rc);
        assertTrue(err.toString().contains("not a pcap file"), err.toString());

        p.write(run.resolve("other.pcap"));
        rc = AnalysisMain.execute(
                new String[] {
                    "wire", run.toString(), "--pcap", run.resolve("other.pcap").toString()
                },
                new PrintWriter(out, true),
                new PrintWriter(err, true));
        assertEquals(0, rc, err.toString());
        assertTrue(out.toString().contains("matched 1, client only 0, wire only 0"), out.toString());

        p.write(run.resolve("capture.pcap"));
        rc = AnalysisMain.execute(
                new String[] {"report", run.toString()}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(0, rc, err.toString());
        assertTrue(Files.readString(run.resolve("report.html")).contains("<h2 id=wire>Wire check</h2>"));
        JsonNode analysis =
                new ObjectMapper().readTree(run.resolve("analysis.json").toFile());
        assertEquals(1, analysis.path("wire").path("matched").asInt());
        assertEquals(
                7.0,
                analysis.path("wire")
                        .path("client_minus_wire_us")
                        .path("netty/new")
                        .path("response")
                        .path("p50")
                        .asDouble(),
                1e-9);
    }

    /** Legacy backend, seen on a real run: a thread took its send instant, then waited ~68 ms for the shared connection. */
    @Test
    void aClientSendInstantTakenBeforeItHeldTheConnectionStillJoinsInWireOrder() throws Exception {
        PcapBuilder p = new PcapBuilder(256);
        new Conversation(p, "127.0.0.1", 50004, "127.0.0.1", 8080, 1, 1)
                .handshake(0)
                .fromClient(MS, request("/x"))
                .fromServer(2 * MS, responseHead(200, 1) + "x")
                .fromClient(70 * MS, request("/late"))
                .fromServer(71 * MS, responseHead(200, 1) + "l");
        Path run = Files.createDirectories(tmp.resolve("order"));
        p.write(run.resolve("capture.pcap"));
        long t = 5_000_000_000L;
        // /late's thread took its instant first (t), /x's later (t + 0.5 ms) but /x went on the wire first
        Files.writeString(
                run.resolve("requests.csv"),
                HEADER
                        + line(
                                "/late",
                                t,
                                70 * MS + 800_000,
                                70 * MS + 900_000,
                                200,
                                "127.0.0.1:50004",
                                false,
                                "legacy")
                        + line("/x", t + 500_000, MS + 100_000, MS + 200_000, 200, "127.0.0.1:50004", true, "legacy"));
        WireCheck w = WireCheck.run(new RunDirectory(run), null);
        assertEquals(2, w.matched);
        assertEquals(0, w.clientOnly);
        assertEquals(0, w.wireOnly);
        // /late: client 70.9 ms, wire 1 ms: the wait for the connection shows as client minus wire
        assertEquals(69_900, w.groups.get("reused").response.maxUs(), 1e-9);
    }

    /*
     * The split of client minus wire into its send side (first request packet - send mark) and receive side
     * (end mark - last response packet), per request and per group, for a backend and for the probe, whose
     * wire.csv rows get their client columns from probe.csv. Client instants are on the capture's clock here.
     */
    /**
     * A request that opened its connection inside its window: its send side splits at the SYN into the
     * client's own work before it connects and the handshake to the request. A connection opened before
     * its first request's send mark (ahead of time) is not counted.
     */
    @Test
    void aRequestThatOpenedItsConnectionSplitsItsSendSideAtTheSyn() throws Exception {
        long t0 = PcapBuilder.T0;
        long us = 1_000;
        PcapBuilder p = new PcapBuilder(256);
        // /a: send mark at 10 ms - 300 us, SYN at 10 ms, request packet at 10 ms + 80 us (handshake ends at + 20 us)
        new Conversation(p, "127.0.0.1", 50020, "127.0.0.1", 8080, 1, 1)
                .handshake(10 * MS)
                .fromClient(10 * MS + 80 * us, request("/a"))
                .fromServer(11 * MS, responseHead(200, 1) + "a")
                .fromClient(20 * MS, request("/b"))
                .fromServer(21 * MS, responseHead(200, 1) + "b");
        // /c: its connection was opened at 30 ms, its send mark at 35 ms: the connect was not in its window
        new Conversation(p, "127.0.0.1", 50021, "127.0.0.1", 8080, 5, 5)
                .handshake(30 * MS)
                .fromClient(35 * MS + 50 * us, request("/c"))
                .fromServer(36 * MS, responseHead(200, 1) + "c");
        Path run = Files.createDirectories(tmp.resolve("syn"));
        p.write(run.resolve("capture.pcap"));
        Files.writeString(
                run.resolve("requests.csv"),
                HEADER
                        + line(
                                "/a",
                                t0 + 10 * MS - 300 * us,
                                1300 * us,
                                1350 * us,
                                200,
                                "127.0.0.1:50020",
                                true,
                                "netty")
                        + line(
                                "/b",
                                t0 + 20 * MS - 30 * us,
                                1030 * us,
                                1080 * us,
                                200,
                                "127.0.0.1:50020",
                                false,
                                "netty")
                        + line("/c", t0 + 35 * MS, 1050 * us, 1100 * us, 200, "127.0.0.1:50021", true, "netty"));

        WireCheck w = WireCheck.run(new RunDirectory(run), null, new AnchorBrackets(100, 100));
        assertEquals(3, w.matched);
        WireCheck.Group fresh = w.groups.get("netty/new");
        assertEquals(2, fresh.send.count());
        assertEquals(1, fresh.beforeSyn.count(), "only /a connected inside its window");
        assertEquals(300.0, fresh.beforeSyn.meanUs(), 1e-9);
        assertEquals(80.0, fresh.synToRequest.meanUs(), 1e-9);
        assertEquals(0, w.groups.get("netty/reused").beforeSyn.count());
        assertTrue(
                w.splitLines().stream()
                        .anyMatch(l -> l.contains("netty/new") && l.contains("300.0") && l.contains("80.0")),
                w.splitLines().toString());
        WireAccuracy a = w.accuracy();
        assertEquals(300.0, a.newBeforeSynMeanUs(), 1e-9);
        assertTrue(
                a.newConnectionsText().contains("send mark to the SYN 300.0 us, the SYN to the request 80.0 us"),
                a.newConnectionsText());
        ObjectNode json = new ObjectMapper().createObjectNode();
        w.toJson(json);
        assertEquals(
                300.0,
                json.path("client_minus_wire_us")
                        .path("new")
                        .path("send_mark_to_syn")
                        .path("p50")
                        .asDouble(),
                1e-9,
                json.toString());
    }

    @Test
    void splitsClientMinusWireIntoSendAndReceiveSides() throws Exception {
        long t0 = PcapBuilder.T0;
        long us = 1_000;
        PcapBuilder p = new PcapBuilder(256);
        new Conversation(p, "127.0.0.1", 50010, "127.0.0.1", 8080, 1, 1)
                .handshake(0)
                .fromClient(MS, request("/a"))
                .fromServer(2 * MS, responseHead(200, 1) + "a")
                .fromClient(10 * MS, request("/b"))
                .fromServer(11 * MS + 500 * us, responseHead(200, 1) + "b")
                .fromClient(20 * MS, request("/c"))
                .fromServer(21 * MS, responseHead(200, 2) + "c")
                .fromServer(21 * MS + 400 * us, "c");
        String probePath = "/PHP/index.html?" + RunFiles.PROBE_QUERY;
        new Conversation(p, "127.0.0.1", 50011, "127.0.0.1", 8080, 7, 7)
                .handshake(30 * MS)
                .fromClient(31 * MS, request(probePath))
                .fromServer(31 * MS + 200 * us, responseHead(200, 1) + "p")
                .fromClient(40 * MS, request(probePath))
                .fromServer(40 * MS + 300 * us, responseHead(200, 1) + "p");
        Path run = Files.createDirectories(tmp.resolve("split"));
        p.write(run.resolve("capture.pcap"));
        // /a: sent 100 us before its first packet, ended 150 us after its last: 250 us above the wire
        // /b: 30 us + 45 us; /c (response in two packets): 20 us + 60 us
        Files.writeString(
                run.resolve("requests.csv"),
                HEADER
                        + line("/a", t0 + 900 * us, 1100 * us, 1250 * us, 200, "127.0.0.1:50010", true, "netty")
                        + line("/b", t0 + 9970 * us, 1530 * us, 1575 * us, 200, "127.0.0.1:50010", false, "netty")
                        + line("/c", t0 + 19_980 * us, 1030 * us, 1480 * us, 200, "127.0.0.1:50010", false, "netty"));
        Files.writeString(
                run.resolve("probe.csv"),
                Columns.header(Columns.PROBE) + "\n"
                        + (t0 + 31 * MS - 10 * us) + ",127.0.0.1:50011," + probePath + ",200,210000,220000,80,true,\n"
                        + (t0 + 40 * MS - 7 * us) + ",127.0.0.1:50011," + probePath + ",200,310000,318000,80,false,\n");

        WireCheck w = WireCheck.run(new RunDirectory(run), null, new AnchorBrackets(120, 6_000));
        assertEquals(3, w.matched);
        WireCheck.Group reused = w.groups.get("netty/reused");
        assertEquals(2, reused.send.count());
        assertEquals(25.0, reused.send.meanUs(), 1e-9, "(30 + 20) / 2");
        assertEquals(52.5, reused.receive.meanUs(), 1e-9, "(45 + 60) / 2");
        assertEquals(100.0, w.groups.get("netty/new").send.maxUs(), 1e-9);
        assertEquals(150.0, w.groups.get("netty/new").receive.maxUs(), 1e-9);
        assertEquals(1, w.probe.send.count(), "the probe's warm-up is left out");
        assertEquals(7.0, w.probe.send.percentileUs(50), 1e-9);
        assertEquals(11.0, w.probe.receive.percentileUs(50), 1e-9);

        List<String> h = Columns.WIRE;
        List<String> rows = Files.readAllLines(run.resolve("wire.csv"));
        assertEquals(String.join(",", h), rows.get(0));
        for (String row : rows.subList(1, rows.size())) {
            String[] f = row.split(",", -1);
            assertEquals(h.size(), f.length, row);
            long send = Long.parseLong(f[h.indexOf("send_side_ns")]);
            long receive = Long.parseLong(f[h.indexOf("receive_side_ns")]);
            assertEquals(
                    Long.parseLong(f[h.indexOf("response_minus_wire_ns")]),
                    send + receive,
                    "send + receive = client minus wire: " + row);
            assertEquals(
                    Long.parseLong(f[h.indexOf("wire_request_epoch_ns")])
                            - Long.parseLong(f[h.indexOf("client_send_epoch_ns")]),
                    send,
                    row);
        }
        String b = rows.stream().filter(r -> r.contains(",/b,")).findFirst().orElseThrow();
        assertTrue(b.endsWith(",matched,30000,45000,127.0.0.1:50010"), b);
        List<String> probeRows = rows.stream()
                .filter(r -> r.contains(",probe,") || r.contains(",probe-warmup,"))
                .toList();
        assertEquals(2, probeRows.size(), rows.toString());
        String[] warm = probeRows.get(0).split(",", -1);
        assertEquals("probe-warmup", warm[h.indexOf("backend")]);
        assertEquals("true", warm[h.indexOf("new_connection")], "the probe's first request opened its connection");
        String[] measured = probeRows.get(1).split(",", -1);
        assertEquals("probe", measured[h.indexOf("match")]);
        assertEquals("probe", measured[h.indexOf("backend")]);
        assertEquals(
                String.valueOf(t0 + 40 * MS - 7 * us),
                measured[h.indexOf("client_send_epoch_ns")],
                "filled from probe.csv");
        assertEquals("318000", measured[h.indexOf("client_response_ns")]);
        assertEquals("18000", measured[h.indexOf("response_minus_wire_ns")]);
        assertEquals("7000", measured[h.indexOf("send_side_ns")]);
        assertEquals("11000", measured[h.indexOf("receive_side_ns")]);

        ObjectNode json = new ObjectMapper().createObjectNode();
        w.toJson(json);
        JsonNode back = new ObjectMapper().readTree(json.toString());
        assertEquals(
                25.0,
                back.path("client_minus_wire_us")
                        .path("netty/reused")
                        .path("send_side")
                        .path("mean")
                        .asDouble(),
                1e-9);
        assertEquals(
                60.0,
                back.path("client_minus_wire_us")
                        .path("netty/reused")
                        .path("receive_side")
                        .path("p99")
                        .asDouble(),
                1e-9);
        assertEquals(
                11.0,
                back.path("probe")
                        .path("client_minus_wire_us")
                        .path("receive_side")
                        .path("p50")
                        .asDouble(),
                1e-9);
        assertEquals(120, back.path("anchor_bracket_ns").path("client").asLong());
        assertEquals(6000, back.path("anchor_bracket_ns").path("probe").asLong());
        assertTrue(
                w.notes.stream().anyMatch(n -> n.contains("uncertain by up to 6.0 us")),
                "a note above 5 us: " + w.notes);
        // the one accuracy rule: mean (250 + 75 + 80) / 3 = 135 us against max(50 us, 10 % of the wire median 1.4 ms) =
        // 140 us
        WireAccuracy a = w.accuracy();
        assertEquals(135.0, a.meanUs(), 1e-9);
        assertEquals(140.0, a.limitUs(), 1e-9);
        assertTrue(a.within());
        assertTrue(back.path("accuracy").path("within").asBoolean());
        assertEquals(140.0, back.path("accuracy").path("limit_us").asDouble(), 1e-9);
        List<String> lines = w.splitLines();
        assertTrue(lines.stream().anyMatch(l -> l.trim().startsWith("netty/reused ")), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.trim().startsWith("probe ")), lines.toString());

        // Offline (rubis-analysis wire): the anchors come from the run's summary.json; a tight anchor gets no note.
        Files.writeString(
                run.resolve("summary.json"),
                "{\"clock\": {\"anchor_bracket_ns\": 95}, \"wire_check\": {\"anchor_bracket_ns\": {\"probe\": 80}}}");
        WireCheck offline = WireCheck.run(new RunDirectory(run), null);
        assertEquals(new AnchorBrackets(95, 80), offline.anchors);
        assertTrue(offline.notes.stream().noneMatch(n -> n.contains("uncertain")), offline.notes.toString());
    }
}
