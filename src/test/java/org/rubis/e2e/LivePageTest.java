package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The live page in a real browser: Debian's headless Chromium driven by Selenium through Debian's chromedriver
 * (.ci/run installs both), opened while a run goes on. Its charts must receive the run's intervals as they come (the
 * throughput chart holds points before the run ends), and when the run ends the figures it shows (the run phase's
 * requests, throughput, percentiles and errors, computed live from the interval snapshots) must equal summary.json's,
 * and its end-of-run section must show summary.json's status.
 */
@Order(1) // among the longest classes: starts first (src/test/pom.xml, testclass.order)
class LivePageTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    @TempDir
    Path work;

    @Test
    void thePageDrawsTheRunAsItGoesAndEndsWithTheSummarysFigures() throws Exception {
        Assumptions.assumeTrue(
                Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "no /usr/bin/chromium or /usr/bin/chromedriver: apt-get install chromium chromium-driver (.ci/run"
                        + " does)");
        // The browser first: Chromium's start took longer than the whole run on a loaded host (load 8), and the page
        // opened after the endpoint had closed (net::ERR_CONNECTION_REFUSED).
        WebDriver browser = browser(work);
        try {
            watch(browser, LiveRunProcess.freePort());
        } finally {
            browser.quit();
        }
    }

    /** Opens the live page of a run in {@code browser}, from the moment it is served to the run's end. */
    private void watch(WebDriver browser, int port) throws Exception {
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
                "5s",
                "--ramp-down",
                "1s",
                "--seed",
                "44",
                // the page learns of the end at its next poll (each second) and then reads summary.json: a margin for a
                // loaded host's browser, which the test waits out only at the end (the endpoint ends with the linger)
                "--metrics-linger",
                "20s",
                "--no-progress")) {
            // served from this line on (the endpoint serves the run before it prints it)
            run.awaitOutput("Live view: ", 60);
            browser.get(run.base() + "/");
            JavascriptExecutor js = (JavascriptExecutor) browser;
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(60), Duration.ofMillis(200));
            // During the run: intervals drawn in the charts, the phase shown.
            // Each on its condition: a loaded host's first intervals can hold no reply yet (its first sends came
            // seconds late), so three throughput points do not mean a response time drawn.
            wait.until(d -> number(js, "return window.rubisLive.charts['chart-throughput'].data[0].length") >= 3);
            wait.until(d ->
                    number(js, "return window.rubisLive.charts['chart-response'].data[3].filter(v => v > 0).length")
                            >= 1);
            wait.until(d ->
                    number(js, "return window.rubisLive.charts['chart-sessions'].data[1].filter(v => v > 0).length")
                            >= 1);
            wait.until(d -> number(js, "return window.rubisLive.charts['chart-cpu'].data[1].length") >= 3);
            assertTrue(run.alive(), "the charts had data only after the run");
            assertEquals(null, js.executeScript("return window.rubisLive.chartErrors || null"), "chart errors");
            // Response times on a log axis (uPlot's distr 3): a warm-up spike does not flatten the run phase.
            assertEquals(3, number(js, "return window.rubisLive.charts['chart-response'].scales.y.distr"));
            // The connections: open (the kernel's count), opened per second, requests per connection.
            wait.until(d ->
                    number(js, "return window.rubisLive.charts['chart-connections'].data[1].filter(v => v > 0).length")
                            >= 1);
            assertTrue(
                    number(js, "return window.rubisLive.charts['chart-connections'].data[2].filter(v => v > 0).length")
                            >= 1);
            assertTrue(run.alive(), "the connections chart had data only after the run");
            // The end: the summary shown, the page's own figures the summary's.
            wait.until(d -> Boolean.TRUE.equals(js.executeScript("return window.rubisLive.done")));
            JsonNode s = new RunDir(run.dir).json("summary.json");
            JsonNode rt = s.path("response_time_ms").path("run");
            assertEquals("complete", text(browser, "status"));
            assertEquals("complete", text(browser, "sum-status"));
            assertEquals(s.path("requests").asText(), text(browser, "sum-requests"));
            assertEquals(rt.path("count").asLong(), Long.parseLong(text(browser, "run-requests")));
            assertEquals(rt.path("errors").asLong(), Long.parseLong(text(browser, "run-errors")));
            assertEquals(
                    s.path("throughput_rps").asDouble(), Double.parseDouble(text(browser, "run-throughput")), 1e-9);
            for (String p : List.of("p50", "p90", "p99")) {
                assertEquals(rt.path(p).asDouble(), Double.parseDouble(text(browser, "run-" + p)), 1e-9, p + " (ms)");
            }
            // The last interval's requests per connection: the run's requests over the connections it opened.
            Object perConnection =
                    js.executeScript("const p = window.rubisLive.points; return p[p.length - 1].req_per_conn;");
            assertEquals(
                    s.path("requests").asDouble() / s.path("connections_opened").asDouble(),
                    ((Number) perConnection).doubleValue(),
                    1e-3,
                    "requests per connection");
            Path shot = Path.of("target/live-page.png").toAbsolutePath(); // to look at: the charts as drawn
            Files.write(shot, ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
            System.out.println("LivePageTest screenshot: " + shot);
            // every interval the run published (its own feed, from the first), not a count an idle host makes in
            // 7 s: a loaded host's health sampler, which ends each interval, woke late (5 intervals)
            JsonNode feed = run.feed();
            assertTrue(feed != null, "the feed while the endpoint lingers");
            long published = feed.path("points").size();
            assertEquals(published, number(js, "return window.rubisLive.points.length"), "the page's points");
            assertTrue(published >= 3, "intervals: " + published);
            assertTrue(run.alive(), "the page read the end while the endpoint lingered");
            assertEquals(0, run.exitStatus(90), run.output());
        }
    }

    private static String text(WebDriver browser, String id) {
        return browser.findElement(By.id(id)).getText().trim();
    }

    private static long number(JavascriptExecutor js, String script) {
        Object v = js.executeScript(script);
        return v instanceof Number n ? n.longValue() : -1;
    }

    /** Headless Chromium as root, offline: no sandbox, no background networking, a fresh profile. */
    static WebDriver browser(Path work) throws Exception {
        ChromeOptions o = new ChromeOptions();
        o.setBinary(CHROMIUM.toFile());
        o.addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--window-size=1400,1600",
                "--user-data-dir=" + Files.createDirectories(work.resolve("chromium-profile")));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(CHROMEDRIVER.toString()))
                .usingAnyFreePort()
                .withLogFile(work.resolve("chromedriver.log").toFile())
                .build();
        return new ChromeDriver(service, o);
    }
}
