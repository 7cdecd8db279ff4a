package org.rubis.analysis.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.rubis.analysis.wire.PcapBuilder.body;
import static org.rubis.analysis.wire.PcapBuilder.request;
import static org.rubis.analysis.wire.PcapBuilder.responseHead;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.analysis.io.RunDirectory;
import org.rubis.analysis.wire.PcapBuilder.Conversation;

/**
 * The live join against the wire check on the same capture and log. A synthetic run of 12 client ports (ports reused
 * by new connections, image requests only the wire sees, a request that never reached the wire) is written as the
 * run would: the capture file grows record by record (cut inside a record between reads), the log's lines come up to
 * 300 ms after their requests ended, not always in order; the join advances every 250 ms. It must have joined most
 * requests before the end, and at the end its whole-run client minus wire (all, new and reused connections) must be
 * the wire check's exactly.
 */
class LiveWireJoinTest {

    private static final long MS = 1_000_000;
    private static final long T0 = PcapBuilder.T0;

    @TempDir
    Path tmp;

    private record Event(long at, Runnable write) {}

    private record Line(
            long due,
            String csv,
            String conn,
            long send,
            long ttfb,
            long response,
            String path,
            int status,
            boolean fresh) {}

    @Test
    void theLiveJoinEndsWithTheWireChecksFigures() throws Exception {
        Random rnd = new Random(20261126);
        PcapBuilder p = new PcapBuilder(256);
        List<Event> events = new ArrayList<>();
        List<Line> lines = new ArrayList<>();
        for (int port = 50000; port < 50012; port++) {
            String conn = "127.0.0.1:" + port;
            long t = rnd.nextInt(500) * MS;
            for (int c = 0; c < 3; c++) {
                Conversation k =
                        new Conversation(p, "127.0.0.1", port, "127.0.0.1", 8080, 1000L * port + c * 77_777, 5000 + c);
                long open = t;
                events.add(new Event(open, () -> k.handshake(open)));
                t += MS;
                int requests = 2 + rnd.nextInt(6);
                for (int r = 0; r < requests; r++) {
                    String path = "/PHP/page" + rnd.nextInt(4) + ".php?x=" + r;
                    long send = t;
                    long first = send + (200 + rnd.nextInt(3000)) * 1000L;
                    long last = first + rnd.nextInt(2000) * 1000L;
                    String head = responseHead(200, 600);
                    events.add(new Event(send, () -> k.fromClient(send, request(path))));
                    events.add(new Event(first, () -> k.fromServer(first, head + body(300, 'a'))));
                    events.add(new Event(last, () -> k.fromServer(last, body(300, 'b'))));
                    long clientSend = send - (10 + rnd.nextInt(70)) * 1000L;
                    long ttfb = first - clientSend + rnd.nextInt(100) * 1000L;
                    long response = last - clientSend + (20 + rnd.nextInt(280)) * 1000L;
                    long due = clientSend + response + rnd.nextInt(300) * MS;
                    lines.add(new Line(
                            due,
                            WireCheckTest.line(path, clientSend, ttfb, response, 200, conn, r == 0, "netty"),
                            conn,
                            clientSend,
                            ttfb,
                            response,
                            path,
                            200,
                            r == 0));
                    t = last + MS;
                    if (rnd.nextInt(4) == 0) { // an image: on the wire, not in the log
                        long img = t;
                        events.add(new Event(
                                img,
                                () -> k.fromClient(img, request("/images/" + img + ".jpg"))
                                        .fromServer(img + 300_000, responseHead(200, 1) + "i")));
                        t += 2 * MS;
                    }
                    if (port == 50003 && c == 1 && r == 0) { // logged, never sent: client-only
                        long z = t;
                        lines.add(new Line(
                                z + 50 * MS,
                                WireCheckTest.line("/z", z, 0, 1000, 0, conn, false, "netty"),
                                conn,
                                z,
                                0,
                                1000,
                                "/z",
                                0,
                                false));
                    }
                    t += (50 + rnd.nextInt(700)) * MS;
                }
                long close = t;
                events.add(new Event(close, () -> k.finFromServer(close)));
                t += (100 + rnd.nextInt(400)) * MS;
            }
        }
        events.sort(Comparator.comparingLong(Event::at));
        events.forEach(e -> e.write().run());
        byte[] pcap = p.bytes();
        Path run = Files.createDirectories(tmp.resolve("run"));
        Path file = run.resolve("capture.pcap");
        StringBuilder csv = new StringBuilder(WireCheckTest.HEADER);
        lines.forEach(l -> csv.append(l.csv()));
        Files.writeString(run.resolve("requests.csv"), csv);

        // The run, live: the capture grows, the log's lines come, the join advances every 250 ms.
        List<Long> recordEnds = new ArrayList<>();
        List<Long> recordTimes = new ArrayList<>();
        ByteBuffer b = ByteBuffer.wrap(pcap).order(ByteOrder.LITTLE_ENDIAN);
        for (int at = 24; at < pcap.length; ) {
            long ts = (b.getInt(at) & 0xffffffffL) * 1_000_000_000L + (b.getInt(at + 4) & 0xffffffffL);
            at += 16 + b.getInt(at + 8);
            recordEnds.add((long) at);
            recordTimes.add(ts);
        }
        lines.sort(Comparator.comparingLong(Line::due));
        long written = 0;
        int nextRecord = 0;
        int nextLine = 0;
        long joinedLive = 0;
        long intervalSum = 0;
        try (LiveWireJoin join = new LiveWireJoin(file);
                OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE)) {
            long end = recordTimes.get(recordTimes.size() - 1);
            for (long now = T0; now <= end + 250 * MS; now += 250 * MS) {
                while (nextRecord < recordTimes.size() && recordTimes.get(nextRecord) <= now) {
                    nextRecord++;
                }
                long upTo = nextRecord == 0 ? 24 : recordEnds.get(nextRecord - 1);
                long cut = Math.min(pcap.length, upTo + 10); // and the first bytes of the next record
                out.write(pcap, (int) written, (int) (cut - written));
                out.flush();
                written = cut;
                while (nextLine < lines.size() && lines.get(nextLine).due() <= now) {
                    Line l = lines.get(nextLine++);
                    join.line(l.conn(), l.send(), l.ttfb(), l.response(), l.path(), l.status(), l.fresh(), "netty");
                }
                LiveWireJoin.Step step = join.advance();
                intervalSum += step.interval().get("all").count();
                joinedLive = step.total().get("all").count();
            }
            out.write(pcap, (int) written, (int) (pcap.length - written));
            out.flush();
            while (nextLine < lines.size()) {
                Line l = lines.get(nextLine++);
                join.line(l.conn(), l.send(), l.ttfb(), l.response(), l.path(), l.status(), l.fresh(), "netty");
            }
            LiveWireJoin.Step last = join.finish();
            intervalSum += last.interval().get("all").count();

            WireCheck batch = WireCheck.run(new RunDirectory(run), null);
            assertTrue(batch.clientOnly >= 1 && batch.wireOnly >= 1, "the run has client-only and wire-only requests");
            for (String g : List.of("all", "new", "reused")) {
                DiffStats d = batch.groups.get(g).response;
                LiveWireJoin.Figures f = last.total().get(g);
                assertEquals(d.count(), f.count(), g + " count");
                assertEquals(d.percentileUs(50), f.p50Us(), 0, g + " p50");
                assertEquals(d.percentileUs(99), f.p99Us(), 0, g + " p99");
                assertEquals(d.meanUs(), f.meanUs(), 1e-9, g + " mean");
            }
            long total = last.total().get("all").count();
            assertEquals(total, intervalSum, "every joined request was in one interval");
            assertTrue(joinedLive >= total * 8 / 10, "joined while the run went on: " + joinedLive + " of " + total);
        }
    }
}
