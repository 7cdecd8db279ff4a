package org.rubis.client.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.BindException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.client.log.RequestRecord;
import org.rubis.client.log.SessionRecord;
import org.rubis.client.report.GcTotals;
import org.rubis.client.report.HealthSample;
import org.rubis.client.report.RunStats;
import org.rubis.client.workload.Interaction;
import org.rubis.format.run.ErrorClass;
import org.rubis.format.run.Phase;
import org.rubis.format.run.RunFiles;
import org.rubis.format.run.RunStatus;
import org.rubis.format.run.SessionEnd;

/**
 * The endpoint as a scraper and a browser see it, over HTTP on loopback: /metrics counts exactly the records the run
 * logged (by state, phase and outcome; histograms with the classic buckets from 100 us to 10 s), the page and uPlot
 * come from the jar, the feed holds the intervals, summary.json once the run has one; only GET and HEAD are served.
 */
class LiveEndpointTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path tmp;

    private LiveEndpoint endpoint;
    private LiveRun run;
    private RunStats intervals;

    @BeforeEach
    void start() throws Exception {
        endpoint = LiveEndpoint.bind("127.0.0.1", 0);
        run = new LiveRun("r1", null, false).describe("netty", "event loops", "closed");
        intervals = new RunStats();
        run.intervals(intervals);
        intervals.clock(0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE);
        endpoint.serve(run);
    }

    @AfterEach
    void stop() {
        endpoint.close();
    }

    private HttpResponse<String> send(String method, String path) throws Exception {
        HttpRequest r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoint.port() + path))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .build();
        return HTTP.send(r, HttpResponse.BodyHandlers.ofString());
    }

    private void log(RequestRecord r) {
        run.recordTap().request(r);
        intervals.accept(r);
    }

    private static RequestRecord record(Interaction state, Phase phase, long responseNs, ErrorClass error, int status) {
        long t = 1_800_000_000_000_000_000L;
        return new RequestRecord(
                1,
                "u",
                0,
                state,
                "/PHP/x",
                phase,
                t,
                t + 1000,
                responseNs / 2,
                responseNs,
                10,
                status,
                error,
                false,
                "127.0.0.1:1",
                true,
                "netty",
                0,
                0,
                0,
                0,
                "",
                null);
    }

    /** The value of the series {@code name{labels}} (in any order) in a text exposition. */
    private static double sample(String metrics, String series) {
        int brace = series.indexOf('{');
        String name = series.substring(0, brace);
        Set<String> labels = labels(series.substring(brace + 1, series.length() - 1));
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "\\{([^}]*)\\} (\\S+)$")
                .matcher(metrics);
        while (m.find()) {
            if (labels(m.group(1)).equals(labels)) {
                return Double.parseDouble(m.group(2));
            }
        }
        throw new AssertionError("no " + series + " in\n" + metrics);
    }

    private static Set<String> labels(String text) {
        return new HashSet<>(Arrays.asList(text.split(",(?=[a-z_]+=)")));
    }

    @Test
    void metricsCountTheLoggedRecords() throws Exception {
        for (int i = 0; i < 7; i++) {
            log(record(Interaction.HOME, Phase.RUN, 2_000_000, null, 200));
        }
        log(record(Interaction.BROWSE, Phase.UP, 50_000, null, 200));
        log(record(Interaction.HOME, Phase.RUN, 20_000_000_000L, ErrorClass.HTTP_STATUS, 503));
        intervals.accept(new SessionRecord(1, 0, "u", 1, 2, 3, 4, 0, SessionEnd.END_OF_SESSION));
        String m = send("GET", "/metrics").body();
        assertEquals(7, sample(m, "rubis_requests_total{outcome=\"success\",phase=\"run\",run=\"r1\",state=\"Home\"}"));
        assertEquals(
                1, sample(m, "rubis_requests_total{outcome=\"success\",phase=\"up\",run=\"r1\",state=\"Browse\"}"));
        assertEquals(
                1, sample(m, "rubis_requests_total{outcome=\"http-503\",phase=\"run\",run=\"r1\",state=\"Home\"}"));
        assertEquals(8, sample(m, "rubis_response_time_seconds_count{phase=\"run\",run=\"r1\"}"));
        assertEquals(0, sample(m, "rubis_response_time_seconds_bucket{le=\"1.0E-4\",phase=\"run\",run=\"r1\"}"));
        assertEquals(7, sample(m, "rubis_response_time_seconds_bucket{le=\"0.0025\",phase=\"run\",run=\"r1\"}"));
        assertEquals(
                7,
                sample(m, "rubis_response_time_seconds_bucket{le=\"10.0\",phase=\"run\",run=\"r1\"}"),
                "the 20 s request lies beyond the last classic bucket");
        assertEquals(8, sample(m, "rubis_response_time_seconds_bucket{le=\"+Inf\",phase=\"run\",run=\"r1\"}"));
        assertEquals(9, sample(m, "rubis_connections_opened_total{run=\"r1\"}"));
        assertEquals(1, sample(m, "rubis_sessions_ended_total{reason=\"end_of_session\",run=\"r1\"}"));
        assertEquals(1, sample(m, "rubis_run_status{rubis_run_status=\"running\",run=\"r1\"}"));
        assertEquals(
                1,
                sample(
                        m,
                        "rubis_run_info{arrivals=\"closed\",backend=\"netty\",execution=\"event loops\",run=\"r1\"}"));
        assertTrue(m.contains("rubis_send_lateness_seconds_bucket"), m);

        run.healthSample(new HealthSample(1, 0.25, 3.5, 10 << 20, 100 << 20, 12, 4, 33, GcTotals.now()));
        m = send("GET", "/metrics").body();
        assertEquals(3.5, sample(m, "rubis_client_cpu_seconds_total{run=\"r1\"}"));
        assertEquals(33, sample(m, "rubis_client_open_files{run=\"r1\"}"));
    }

    /** Scrapes beyond the limit are refused with 429 and a Retry-After, not answered on the run's cores. */
    @Test
    void scrapesBeyondTheLimitAreRefused() throws Exception {
        endpoint.close();
        endpoint = LiveEndpoint.bind("127.0.0.1", 0, new ScrapeLimit(1, 600_000_000_000L));
        endpoint.serve(run);
        assertEquals(200, send("GET", "/metrics").statusCode());
        HttpResponse<String> refused = send("GET", "/metrics");
        assertEquals(429, refused.statusCode(), refused.body());
        assertTrue(
                refused.headers().firstValue("Retry-After").isPresent(),
                refused.headers().toString());
        assertEquals(200, send("GET", "/live.json").statusCode(), "the page's feed is not a scrape");
    }

    /** The limit's windows: so many a window, the next window fresh. */
    @Test
    void theScrapeLimitCountsPerWindow() {
        ScrapeLimit l = new ScrapeLimit(3, 1_000);
        assertTrue(l.tryAcquire(10) && l.tryAcquire(11) && l.tryAcquire(500));
        assertTrue(!l.tryAcquire(900), "a fourth in the window");
        assertEquals(1, l.retryAfterSeconds(900));
        assertTrue(l.tryAcquire(1_010), "the next window");
    }

    @Test
    void thePageTheFeedAndTheSummaryAreServed() throws Exception {
        HttpResponse<String> page = send("GET", "/");
        assertEquals(200, page.statusCode());
        assertTrue(page.headers().firstValue("Content-Type").orElse("").startsWith("text/html"));
        assertTrue(page.body().contains("uPlot.iife.min.js") && page.body().contains("live.js"), page.body());
        HttpResponse<String> uplot = send("GET", "/uPlot.iife.min.js");
        assertEquals(200, uplot.statusCode());
        assertTrue(uplot.body().contains("uPlot") && uplot.body().length() > 20_000, "uPlot from its WebJar");
        assertEquals(200, send("GET", "/uPlot.min.css").statusCode());
        assertEquals(200, send("GET", "/live.js").statusCode());
        assertEquals(200, send("HEAD", "/").statusCode());
        assertEquals(404, send("GET", "/summary.json").statusCode(), "no summary before the run's end");

        for (int i = 0; i < 3; i++) {
            log(record(Interaction.HOME, Phase.RUN, 1_000_000, null, 200));
            HealthSample h = new HealthSample(1, 0.1, 1, 1, 2, 3, 4, 5, GcTotals.now()); // 4 sessions active
            intervals.roll(h, 1);
            run.healthSample(h);
        }
        JsonNode feed =
                new ObjectMapper().readTree(send("GET", "/live.json?from=1").body());
        assertEquals(3, feed.path("next").asLong());
        assertEquals(2, feed.path("points").size(), "the intervals from number 1 on");
        assertEquals(3, feed.path("run_phase").path("requests").asLong());
        assertEquals(1.0, feed.path("run_phase").path("p50").asDouble(), 0.001);

        assertEquals(4, sample(send("GET", "/metrics").body(), "rubis_active_sessions{run=\"r1\"}"));
        Files.writeString(RunFiles.summaryJson(tmp), "{\"status\": \"complete\", \"run_seconds\": 3.0}");
        run.finished(RunStatus.COMPLETE, tmp);
        assertEquals(200, send("GET", "/summary.json").statusCode());
        JsonNode end = new ObjectMapper().readTree(send("GET", "/live.json").body());
        assertEquals("complete", end.path("status").asText());
        assertTrue(end.path("summary").asBoolean());
        assertEquals(
                1.0, end.path("run_phase").path("throughput_rps").asDouble(), 1e-9, "3 requests in the summary's 3 s");
        String m = send("GET", "/metrics").body();
        assertEquals(1, sample(m, "rubis_run_status{rubis_run_status=\"complete\",run=\"r1\"}"));
        assertEquals(0, sample(m, "rubis_run_status{rubis_run_status=\"running\",run=\"r1\"}"));
        assertEquals(
                0,
                sample(m, "rubis_active_sessions{run=\"r1\"}"),
                "the summary is written: no session is active during the linger (it once kept the last second's 4)");
    }

    @Test
    void onlyGetAndHeadAreServed() throws Exception {
        for (String method : new String[] {"POST", "PUT", "DELETE", "PATCH"}) {
            for (String path : new String[] {"/", "/metrics", "/live.json"}) {
                HttpResponse<String> r = send(method, path);
                assertEquals(405, r.statusCode(), method + " " + path);
                assertEquals("GET, HEAD", r.headers().firstValue("Allow").orElse(""));
            }
        }
        assertEquals(404, send("GET", "/../etc/passwd").statusCode());
        assertEquals(404, send("GET", "/admin").statusCode());
    }

    @Test
    void aPortInUseIsRefusedAtOnce() {
        assertThrows(BindException.class, () -> LiveEndpoint.bind("127.0.0.1", endpoint.port()));
    }
}
