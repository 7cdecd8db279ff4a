package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.client.config.ClientConfig;

/**
 * A "Sorry" page (what the server answers a search that matches nothing) costs a think time like any page, as in the
 * original: the user draws, thinks, then goes back. Going back at once made zero-think requests that appear only once
 * sessions reach the search states, so throughput rose through the run phase. Here every page is a Sorry page and the
 * run ends once each of its five sessions has logged 12 requests (a stop as Ctrl-C's), so the host's speed decides
 * nothing: the gap is read from requests.csv, the next request's intended send minus the reply's end. At
 * think-scale 0.03 (mean 210 ms) a think under 1 ms has a chance of 0.5 %; going back at once gives under 1 ms every
 * time.
 */
@Tag("concurrent")
class SorryPageThinkTest {

    @TempDir
    Path tmp;

    @Test
    void aSorryPageIsFollowedByAThinkTime() throws Exception {
        try (PageServer server = new PageServer()) {
            server.page =
                    "<html><body><h2>Sorry, but there are no items available in this category !</h2></body></html>";
            ClientConfig c = server.longSessions("netty", 0.03, 3);
            Path dir = tmp.resolve("run");
            RunEngine engine = new RunEngine(c, dir, new PrintStream(OutputStream.nullOutputStream()));
            StopAfterRequests stop = StopAfterRequests.eachOf(engine, 5, 12);
            try {
                engine.run();
            } finally {
                stop.cancel();
            }
            List<String> lines = Files.readAllLines(dir.resolve("requests.csv"));
            List<String> header = List.of(lines.get(0).split(","));
            int session = header.indexOf("session_id");
            int intended = header.indexOf("intended_send_epoch_ns");
            int send = header.indexOf("send_epoch_ns");
            int response = header.indexOf("response_ns");
            int error = header.indexOf("error");
            List<String[]> rows = new ArrayList<>();
            lines.subList(1, lines.size()).forEach(l -> rows.add(l.split(",", -1)));
            rows.sort(Comparator.<String[], String>comparing(r -> r[session])
                    .thenComparingLong(r -> Long.parseLong(r[intended])));
            int afterSorry = 0;
            int atOnce = 0;
            for (int i = 0; i + 1 < rows.size(); i++) {
                String[] r = rows.get(i);
                if (!rows.get(i + 1)[session].equals(r[session])) {
                    continue;
                }
                assertEquals("", r[error], "a Sorry page is a success: " + String.join(",", r));
                long end = Long.parseLong(r[send]) + Long.parseLong(r[response]);
                afterSorry++;
                if (Long.parseLong(rows.get(i + 1)[intended]) - end < 1_000_000) {
                    atOnce++;
                }
            }
            assertTrue(afterSorry >= 5 * 11, "Sorry pages followed by a request: " + afterSorry);
            assertTrue(
                    atOnce * 20 <= afterSorry,
                    atOnce + " of " + afterSorry + " requests after a Sorry page came without a think time");
        }
    }
}
