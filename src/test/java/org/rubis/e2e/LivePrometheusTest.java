package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run watched by a real Prometheus (the Debian package, /usr/bin/prometheus; .ci/run installs it) scraping its
 * {@code --metrics-port} every second, with native histograms on. Checked against the run's own files: the request
 * total Prometheus stored equals requests.csv; the run phase's requests and its rate over the phase equal
 * summary.json's (the rate within one scrape interval's worth of requests); the native histogram of response times
 * holds the run phase's count, its median within one native bucket of the summary's. The same run is captured: the
 * live join's whole-run client minus wire equals {@code rubis-analysis wire} on the same capture. And while it runs,
 * 100 page loads at once, a client that sends half a request and stays, and one that connects and leaves: the run
 * still completes with every request logged and counted.
 */
class LivePrometheusTest {

    private static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path work;

    @Test
    void prometheusScrapesTheRunAndItsFiguresAreTheRunsOwn() throws Exception {
        Assumptions.assumeTrue(
                Files.isExecutable(PROMETHEUS),
                "no /usr/bin/prometheus: apt-get install prometheus (.ci/run does) to run this test");
        int port = LiveRunProcess.freePort();
        int promPort = LiveRunProcess.freePort();
        Path config = work.resolve("prometheus.yml");
        Files.writeString(
                config,
                "global:\n"
                        + "  scrape_interval: 1s\n"
                        + "  evaluation_interval: 1s\n"
                        + "scrape_configs:\n"
                        + "  - job_name: rubis\n"
                        + "    scrape_interval: 1s\n"
                        + "    scrape_timeout: 900ms\n"
                        + "    static_configs:\n"
                        + "      - targets: ['127.0.0.1:" + port + "']\n");
        Process prometheus = new ProcessBuilder(
                        PROMETHEUS.toString(),
                        "--config.file=" + config,
                        "--storage.tsdb.path=" + work.resolve("tsdb"),
                        "--web.listen-address=127.0.0.1:" + promPort,
                        "--enable-feature=native-histograms")
                .redirectErrorStream(true)
                .redirectOutput(work.resolve("prometheus.log").toFile())
                .start();
        String prom = "http://127.0.0.1:" + promPort;
        try (LiveRunProcess run = LiveRunProcess.start(
                work,
                port,
                "run",
                "--users",
                "20",
                "--think-scale",
                "0.05",
                "--ramp-up",
                "1s",
                "--duration",
                "8s",
                "--ramp-down",
                "0",
                "--backend",
                "netty",
                "--seed",
                "33",
                "--capture",
                "--metrics-linger",
                "5s",
                "--no-progress")) {
            run.awaitOutput("Live view: ", 60);
            run.await("the run phase", 60, () -> {
                JsonNode f = run.feed();
                return f != null && f.path("phase").asText().equals("run");
            });
            long burstStartNs = System.currentTimeMillis() * 1_000_000L;
            List<String> burst = burst(run);
            long burstEndNs = System.currentTimeMillis() * 1_000_000L;
            run.awaitOutput("stays up", 60);
            JsonNode live = run.feed();
            assertEquals(0, run.exitStatus(60), run.output());
            // Every load answered or refused; a scrape past the endpoint's 20 a second (25 in the burst, with
            // Prometheus' own) may get its 429 instead (ScrapeLimit), a page or feed never.
            for (int i = 0; i < burst.size(); i++) {
                String s = burst.get(i);
                assertTrue(
                        s.equals("200") || s.equals("refused") || (i % 4 == 0 && s.equals("429")),
                        "load " + i + " of the burst: " + s + " in " + burst);
            }
            assertTrue(burst.stream().filter("200"::equals).count() >= 50, "answered during the burst: " + burst);

            RunDir dir = new RunDir(run.dir);
            JsonNode summary = dir.json("summary.json");
            assertEquals("complete", summary.path("status").asText());
            List<Map<String, String>> requests = dir.csv("requests.csv");
            long lines = requests.size();
            // Reported, not asserted (a shared machine's seconds vary): what 100 page loads and scrapes did to the run.
            System.out.println("LivePrometheusTest figure: 100 loads of the live endpoint at once, a "
                    + BurstLateness.of(requests, burstStartNs, burstEndNs));
            JsonNode rt = summary.path("response_time_ms").path("run");
            long runCount = rt.path("count").asLong();

            // What Prometheus holds at its last scrape of the run (the endpoint lingered after the final state).
            double last = lastScrape(prom);
            assertEquals(lines, (long) value(prom, "sum(rubis_requests_total)", last), "request total vs requests.csv");
            assertEquals(summary.path("requests").asLong(), lines);
            assertEquals(runCount, (long) value(prom, "sum(rubis_requests_total{phase=\"run\"})", last));
            assertEquals(summary.path("errors").asLong(), (long)
                    value(prom, "sum(rubis_requests_total{outcome!=\"success\"}) or vector(0)", last));
            assertEquals(1, (long) value(prom, "rubis_run_status{rubis_run_status=\"complete\"}", last));

            // The run phase's rate as Prometheus computes it: the increase of the summed counter (summed first: a
            // series of one state appears with its first request, and increase() would drop what it held then) over
            // the phase and the log writer's lag after it, against summary.json's, within one scrape interval's
            // worth; the interval the scrapes actually kept (a loaded host may let one time out), at least 1 s.
            JsonNode clock = summary.path("clock");
            double upEnd = clock.path("run_start_epoch_ns").asLong() / 1e9
                    + summary.path("phases_ms").path("up").asDouble() / 1e3;
            double runSeconds = summary.path("run_seconds").asDouble();
            double at = Math.min(last, upEnd + runSeconds + 1.5);
            double increase = value(
                    prom,
                    String.format(
                            Locale.ROOT,
                            "increase(sum(rubis_requests_total{phase=\"run\"})[%dms:1s])",
                            Math.round((at - upEnd) * 1000)),
                    at);
            double rate = increase / runSeconds;
            double attempted = summary.path("attempted_rps").asDouble();
            double interval = Math.max(1.0, largestScrapeGap(prom, upEnd, at));
            assertTrue(
                    Math.abs(rate - attempted) <= attempted * interval / runSeconds + 1e-9,
                    "Prometheus' run-phase rate " + rate + " vs summary.json's " + attempted
                            + " (within one scrape interval's worth, " + interval + " s)");

            // The native histogram: the run phase's count exactly, its median within one native bucket (2^(1/32)).
            assertEquals(
                    runCount, (long) value(prom, "histogram_count(rubis_response_time_seconds{phase=\"run\"})", last));
            double p50 = value(prom, "histogram_quantile(0.5, rubis_response_time_seconds{phase=\"run\"})", last) * 1e3;
            assertEquals(
                    rt.path("p50").asDouble(), p50, rt.path("p50").asDouble() * 0.025, "native-histogram median (ms)");

            // Every query docs/LIVE.md shows answers, on this Prometheus with native histograms on: at the last scrape,
            // W the run phase's window. Only the error ratio may be empty, on a run without errors.
            String window = Math.round((at - upEnd) * 1000) + "ms";
            List<String> queries = LiveDocQueries.read(LiveDocQueries.doc());
            assertTrue(queries.size() >= 10, "docs/LIVE.md's PromQL: " + queries);
            for (String q : queries) {
                String expr = q.replace("[W:1s]", "[" + window + ":1s]");
                JsonNode r = query(prom, expr, last);
                if (expr.contains("outcome!=\"success\"")
                        && summary.path("errors").asLong() == 0) {
                    continue;
                }
                assertTrue(r.size() >= 1, "docs/LIVE.md's query returned nothing: " + expr);
                for (JsonNode v : r) {
                    String value = v.path("value").path(1).asText();
                    assertTrue(!value.equals("NaN") && Double.parseDouble(value) >= 0, expr + ": " + r);
                }
            }

            // The live join's client minus wire at the end is rubis-analysis wire's on the same capture.
            JsonNode wire = summary.path("wire_check");
            Assumptions.assumeFalse(
                    wire.path("status").asText().equals("not run"),
                    "packet capture unavailable here: " + wire.path("reason").asText());
            JsonNode total = live.path("wire").path("total");
            assertTrue(live.path("wire").path("complete").asBoolean(), live.toString());
            Cli.Result a = Cli.analysis(work, "wire", run.dir.toString());
            assertEquals(0, a.status(), a.out() + a.err());
            for (String group : List.of("all", "new", "reused")) {
                double[] analysis = analysisRow(a.out(), group);
                JsonNode g = total.path(group);
                assertEquals((long) analysis[0], g.path("count").asLong(), group + " count");
                assertEquals(analysis[1], g.path("p50").asDouble(), 1e-9, group + " p50 (us)");
                assertEquals(analysis[2], g.path("p99").asDouble(), 1e-9, group + " p99 (us)");
            }
            assertEquals(total.path("all").path("count").asLong(), (long)
                    value(prom, "sum(rubis_client_minus_wire_requests_total)", last));
        } finally {
            prometheus.destroy();
            prometheus.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /**
     * During the run: 100 page loads and scrapes at once, a client that sends half a request and holds its
     * connection, one that connects and leaves. Returns each load's status ("refused" when it was not served).
     */
    @SuppressWarnings("try") // one client connects and leaves at once (closed early), the other holds its half request
    private static List<String> burst(LiveRunProcess run) throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        try (Socket slow = new Socket(lo, run.port);
                Socket gone = new Socket(lo, run.port)) {
            OutputStream o = slow.getOutputStream();
            o.write("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
            o.flush();
            gone.close();
            ExecutorService pool = Executors.newFixedThreadPool(100);
            try {
                List<Future<String>> loads = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    String path = i % 4 == 0
                            ? "/metrics"
                            : i % 4 == 1 ? "/live.json" : i % 4 == 2 ? "/" : "/uPlot.iife.min.js";
                    loads.add(pool.submit(() -> {
                        try {
                            return String.valueOf(run.get(path).statusCode());
                        } catch (IOException e) {
                            return "refused";
                        }
                    }));
                }
                List<String> statuses = new ArrayList<>();
                for (Future<String> f : loads) {
                    statuses.add(f.get(30, TimeUnit.SECONDS));
                }
                return statuses;
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /** The time of Prometheus' last successful scrape of the run; failing, with Prometheus' own word on its target. */
    private static double lastScrape(String prom) throws Exception {
        JsonNode r = query(prom, "up[5m]", System.currentTimeMillis() / 1e3);
        double last = -1;
        for (JsonNode v : r.path(0).path("values")) {
            if (v.path(1).asText().equals("1")) {
                last = Math.max(last, v.path(0).asDouble());
            }
        }
        if (last <= 0) {
            HttpResponse<String> targets = HTTP.send(
                    HttpRequest.newBuilder(URI.create(prom + "/api/v1/targets"))
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            fail("Prometheus never scraped the run: " + r + "\nits targets (lastError):\n" + targets.body());
        }
        return last;
    }

    /** The longest time between two successful scrapes of the run around the window from {@code from} to {@code to}. */
    private static double largestScrapeGap(String prom, double from, double to) throws Exception {
        JsonNode r = query(prom, String.format(Locale.ROOT, "up[%ds]", (long) Math.ceil(to - from) + 30), to);
        List<Double> ok = new ArrayList<>();
        for (JsonNode v : r.path(0).path("values")) {
            if (v.path(1).asText().equals("1")) {
                ok.add(v.path(0).asDouble());
            }
        }
        double gap = 0;
        for (int i = 0; i + 1 < ok.size(); i++) {
            if (ok.get(i + 1) > from && ok.get(i) < to) {
                gap = Math.max(gap, ok.get(i + 1) - ok.get(i));
            }
        }
        return gap;
    }

    private static double value(String prom, String expr, double at) throws Exception {
        JsonNode r = query(prom, expr, at);
        assertEquals(1, r.size(), expr + " at " + at + ": " + r);
        return Double.parseDouble(r.path(0).path("value").path(1).asText());
    }

    private static JsonNode query(String prom, String expr, double at) throws Exception {
        String url = prom + "/api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8) + "&time="
                + String.format(Locale.ROOT, "%.3f", at);
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body()).path("data").path("result");
    }

    /** A row of rubis-analysis wire's table: count, response p50 and p99 (us). */
    private static double[] analysisRow(String out, String group) {
        Matcher m = Pattern.compile("(?m)^  " + group
                        + "\\s+(\\d+)\\s+\\S+\\s+\\S+\\s+\\S+\\s+\\S+\\s+\\|\\s+\\S+\\s+(\\S+)\\s+(\\S+)\\s+\\S+$")
                .matcher(out);
        assertTrue(m.find(), "no row " + group + " in:\n" + out);
        return new double[] {
            Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2)), Double.parseDouble(m.group(3))
        };
    }
}
