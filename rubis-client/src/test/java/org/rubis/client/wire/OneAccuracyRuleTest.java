package org.rubis.client.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rubis.analysis.wire.AnchorBrackets;
import org.rubis.analysis.wire.PcapBuilder;
import org.rubis.analysis.wire.PcapBuilder.Conversation;
import org.rubis.client.config.PublishedTimes;
import org.rubis.client.report.Verdict;
import org.rubis.format.run.Columns;
import org.rubis.format.schema.Cause;

/**
 * One accuracy threshold: a run directory whose client is 1 us under, then 1 us over, the limit (wire
 * median 1 ms: max(50 us, 10 %) = 100 us) gets the same answer from the wire check's summary line, the
 * run's verdict and analysis.json. The two once used different limits on the same run.
 */
class OneAccuracyRuleTest {

    private static final long MS = 1_000_000;

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(longs = {99_000, 101_000})
    void theSummaryLineAndTheVerdictAgreeJustBelowAndAboveTheLimit(long errorNs) throws Exception {
        PcapBuilder p = new PcapBuilder(256);
        Conversation c = new Conversation(p, "127.0.0.1", 50100, "127.0.0.1", 8080, 1, 1).handshake(0);
        StringBuilder csv = new StringBuilder(Columns.header(Columns.REQUESTS)).append('\n');
        for (int i = 0; i < 5; i++) {
            long at = (i + 1) * 10 * MS;
            c.fromClient(at, PcapBuilder.request("/p" + i)).fromServer(at + MS, PcapBuilder.responseHead(200, 1) + "x");
            long send = PcapBuilder.T0 + at - errorNs / 2;
            csv.append("1,user1,")
                    .append(i)
                    .append(",Home,/p")
                    .append(i)
                    .append(",run,")
                    .append(send)
                    .append(',')
                    .append(send)
                    .append(',')
                    .append(MS + errorNs / 2)
                    .append(',')
                    .append(MS + errorNs)
                    .append(",10,200,,127.0.0.1:50100,")
                    .append(i == 0)
                    .append(",netty,0,0,0,,127.0.0.1:50100\n");
        }
        Path run = Files.createDirectories(tmp.resolve("run" + errorNs));
        p.write(run.resolve("capture.pcap"));
        Files.writeString(run.resolve("requests.csv"), csv);
        CaptureStats stats = new CaptureStats(
                run.resolve("capture.pcap"),
                "lo",
                "tcp",
                256,
                1 << 20,
                18,
                true,
                36,
                0,
                0,
                Instant.EPOCH,
                Instant.EPOCH);
        stats.writeJson(run.resolve("capture-stats.json"));

        WireCheckSection section =
                WireCheckSection.check(run, stats, PublishedTimes.CLIENT, new AnchorBrackets(100, -1));
        boolean below = errorNs < 100_000;
        String line = section.accuracyVerdict();
        assertTrue(line.startsWith(below ? "OK: " : "INACCURATE: "), line);
        assertTrue(
                line.contains("limit 100 us (the larger of 50 us and 10 % of the wire's median 1000.0 us)"),
                "the limit beside the error: " + line);
        Verdict v = Verdict.of(
                new Verdict.Evidence(2, 0.05, 3, 0.4, 0.3, 0.02, 0.0, 1.2, Double.NaN, false), section.accuracy());
        assertEquals(below ? List.of() : List.of(Cause.CLIENT), v.causes(), v.text());
        assertTrue(v.text().contains((below ? "(within the " : "(OUTSIDE the ") + "limit 100 us"), v.text());
        // One verdict, stated once: the run's verdict, the accuracy line and the wire check section name the same
        // verdict and cause (no probe here: the client's); the section names it and leaves the statement to the line.
        String word = below ? "OK" : "INACCURATE, cause CLIENT";
        assertTrue(v.text().contains("Accuracy measured on the wire: " + word + ": "), v.text());
        assertEquals(!below, line.contains("; cause CLIENT (this host's floor was not measured"), line);
        assertTrue(section.text().contains("  accuracy: " + word + " (the run's accuracy verdict"), section.text());
        assertFalse(
                section.text().contains(line), "the full line is the summary's last, not repeated: " + section.text());
        assertEquals(
                below,
                section.json().path("accuracy").path("within").asBoolean(),
                section.json().toString());
        // the send/receive split is in the section (json and text)
        assertEquals(
                errorNs / 2 / 1000.0,
                section.json()
                        .path("client_minus_wire_us")
                        .path("netty/reused")
                        .path("send_side")
                        .path("p50")
                        .asDouble(),
                1e-9);
        assertTrue(section.text().contains("where the error goes"), section.text());
    }
}
