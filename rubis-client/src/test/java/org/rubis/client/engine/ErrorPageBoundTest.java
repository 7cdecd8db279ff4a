package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.workload.WorkloadModel;

/**
 * A target whose home page says ERROR: the original's rule (back to Home at once) holds for the first ERROR pages in a
 * row, then every return to Home waits a think time, so five users no longer send thousands of requests a second. Read
 * from requests.csv: a request follows the previous one's end with no think exactly while the session's run of ERROR
 * pages is within the bound; the summary counts the think times added; the loopback server saw exactly the logged
 * requests. On every backend. The run ends once each of the five sessions has gone past the bound (a stop as
 * Ctrl-C's, however slow the host), not after a time in which a loaded host left a user short of it.
 * Each case has its own server and mostly waits for its run: the cases run concurrently.
 */
@Tag("concurrent")
@Execution(ExecutionMode.CONCURRENT)
class ErrorPageBoundTest {

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"legacy", "pooled", "dedicated", "netty"})
    void errorPagesInARowGetAThinkTimeAfterTheBound(String backend) throws Exception {
        int bound = WorkloadModel.ERROR_PAGES_WITHOUT_THINK;
        try (PageServer server = new PageServer()) {
            server.page = "<html><body><h2>ERROR</h2>the database is down</body></html>";
            ClientConfig c = server.longSessions(backend, 0.05, 7);
            Path dir = tmp.resolve(backend);
            RunEngine engine = new RunEngine(c, dir, new PrintStream(OutputStream.nullOutputStream()));
            StopAfterRequests stop = StopAfterRequests.eachOf(engine, 5, bound + 2);
            JsonNode summary;
            try {
                summary = engine.run().json();
            } finally {
                stop.cancel();
            }
            List<String[]> rows = new ArrayList<>();
            List<String> lines = Files.readAllLines(dir.resolve("requests.csv"));
            List<String> header = List.of(lines.get(0).split(","));
            for (String l : lines.subList(1, lines.size())) {
                rows.add(l.split(",", -1));
            }
            int session = header.indexOf("session_id");
            int index = header.indexOf("request_index");
            int intended = header.indexOf("intended_send_epoch_ns");
            int send = header.indexOf("send_epoch_ns");
            int response = header.indexOf("response_ns");
            int error = header.indexOf("error");
            rows.sort((a, b) -> a[session].equals(b[session])
                    ? Integer.compare(Integer.parseInt(a[index]), Integer.parseInt(b[index]))
                    : a[session].compareTo(b[session]));
            long thinks = 0;
            int inARow = 0;
            int aborted = 0;
            for (int i = 0; i < rows.size(); i++) {
                String[] r = rows.get(i);
                boolean last = i + 1 == rows.size() || !rows.get(i + 1)[session].equals(r[session]);
                if (last && r[error].equals("aborted")) {
                    aborted++; // in flight at the stop: a session's last request only
                    continue;
                }
                assertEquals("error-page", r[error], "every reply is an ERROR page");
                if (r[index].equals("0")) {
                    inARow = 0;
                }
                if (i + 1 < rows.size() && rows.get(i + 1)[session].equals(r[session])) {
                    inARow++;
                    long done = Long.parseLong(r[send]) + Long.parseLong(r[response]);
                    long next = Long.parseLong(rows.get(i + 1)[intended]);
                    if (inARow <= bound) {
                        assertEquals(
                                done,
                                next,
                                "within the bound, back to Home at once (session " + r[session] + ", request "
                                        + r[index] + ")");
                    } else {
                        assertTrue(
                                next > done,
                                "past the bound, a think time first (session " + r[session] + ", request " + r[index]
                                        + ")");
                        thinks++;
                    }
                }
            }
            assertTrue(rows.size() >= 5 * (bound + 2), "every user went past the bound: " + rows.size() + " requests");
            // An aborted request may or may not have reached the server before the stop closed its connection.
            assertTrue(
                    server.heads.size() >= rows.size() - aborted && server.heads.size() <= rows.size(),
                    "the server saw the logged requests, no other: " + server.heads.size() + " vs " + rows.size()
                            + " logged, " + aborted + " aborted");
            JsonNode ep = summary.get("error_page_bound");
            assertEquals(bound, ep.get("pages_without_think").asInt());
            assertTrue(
                    ep.get("think_times_added").asLong() >= thinks
                            && ep.get("think_times_added").asLong() <= thinks + 5,
                    "the summary counts the think times added (a session's last one has no next request): " + ep
                            + " vs " + thinks);
            assertEquals(5, ep.get("sessions").asLong(), ep.toString());
        }
    }
}
