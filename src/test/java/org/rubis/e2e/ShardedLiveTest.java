package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/LIVE.md, sharded runs: {@code run --shards 2 --metrics-port P} serves each shard's own endpoint on P+1+I (the
 * ports printed) and the shards summed on P. Checked against the merged run's files: the shards' final request
 * counters add up to the merged requests.csv, and the summed page's run phase (count, errors, percentiles from the
 * shards' merged histograms) is the merged summary.json's, which it then serves.
 */
@Order(1) // among the longest classes: starts first (src/test/pom.xml, testclass.order)
class ShardedLiveTest {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final Pattern REQUESTS = Pattern.compile("(?m)^rubis_requests_total\\{[^}]*\\} (\\S+)$");
    private static final Pattern COMPLETE =
            Pattern.compile("(?m)^rubis_run_status\\{[^}]*rubis_run_status=\"complete\"[^}]*\\} 1");

    @TempDir
    Path work;

    @Test
    void eachShardServesItsOwnMetricsAndThePageSumsThem() throws Exception {
        int port = threeFreePorts();
        try (LiveRunProcess run = LiveRunProcess.start(
                work,
                port,
                "run",
                "--shards",
                "2",
                "--users",
                "20",
                "--think-scale",
                "0.05",
                "--ramp-up",
                "1s",
                "--duration",
                "5s",
                "--ramp-down",
                "0",
                "--backend",
                "netty",
                "--seed",
                "35",
                "--metrics-linger",
                "5s",
                "--no-progress",
                "-Dserver_size=0.02",
                Cli.SMALL_SERVER)) {
            run.awaitOutput("shard I serves its own at port " + (port + 1) + " + I", 60);
            // Each shard's last state, read while it lingers after its run: its counters are final once it says so.
            String[] last = new String[2];
            run.await("both shards' final metrics", 180, () -> {
                for (int i = 0; i < 2; i++) {
                    if (last[i] == null || !COMPLETE.matcher(last[i]).find()) {
                        String m = metrics(port + 1 + i);
                        if (m != null) {
                            last[i] = m;
                        }
                    }
                }
                return last[0] != null
                        && last[1] != null
                        && COMPLETE.matcher(last[0]).find()
                        && COMPLETE.matcher(last[1]).find();
            });
            run.awaitOutput("stays up", 120);
            JsonNode feed = run.feed();
            String served = run.get("/summary.json").body();
            assertEquals(0, run.exitStatus(60), run.output());

            RunDir merged = new RunDir(run.dir);
            JsonNode summary = merged.json("summary.json");
            assertEquals("complete", summary.path("status").asText());
            long lines = merged.csv("requests.csv").size();
            assertTrue(lines > 0, "no request logged:\n" + run.output());
            for (int i = 0; i < 2; i++) {
                assertTrue(last[i].contains("shard=\"" + i + "\""), "shard label of shard " + i);
                assertTrue(last[i].contains("run=\"run\""), "the run's id on shard " + i);
            }
            assertEquals(lines, requests(last[0]) + requests(last[1]), "the shards' request totals vs requests.csv");

            assertEquals(2, feed.path("shards").asInt());
            assertEquals("ended", feed.path("phase").asText());
            assertEquals("complete", feed.path("status").asText());
            JsonNode rt = summary.path("response_time_ms").path("run");
            JsonNode rp = feed.path("run_phase");
            assertEquals(rt.path("count").asLong(), rp.path("requests").asLong(), "run-phase requests");
            assertEquals(rt.path("errors").asLong(), rp.path("errors").asLong(), "run-phase errors");
            for (String p : List.of("p50", "p90", "p99")) {
                assertEquals(rt.path(p).asDouble(), rp.path(p).asDouble(), 1e-9, p + " (ms) of the shards summed");
            }
            long intervals = 0;
            for (JsonNode point : feed.path("points")) {
                intervals += point.path("requests").asLong();
            }
            assertEquals(lines, intervals, "the summed intervals' requests vs requests.csv");
            assertEquals(summary, new ObjectMapper().readTree(served), "the page's summary is the merged run's");
        }
    }

    /** A loopback port P with P+1 and P+2 free too (the coordinator's and two shards'). */
    private static int threeFreePorts() throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            int p = LiveRunProcess.freePort();
            if (p + 2 <= 65535 && free(p + 1) && free(p + 2)) {
                return p;
            }
        }
        throw new AssertionError("no three free loopback ports in a row");
    }

    @SuppressWarnings("try") // the socket only proves the port can be bound; it is closed at once
    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** A shard's /metrics (the text format), or null when it does not answer. */
    private static String metrics(int port) {
        try {
            HttpResponse<String> r = HTTP.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                            .timeout(Duration.ofSeconds(5))
                            .build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return r.statusCode() == 200 ? r.body() : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The sum of every rubis_requests_total series. */
    private static long requests(String metrics) {
        Matcher m = REQUESTS.matcher(metrics);
        double sum = 0;
        while (m.find()) {
            sum += Double.parseDouble(m.group(1));
        }
        return Math.round(sum);
    }
}
