package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.rubis.client.config.ConfigLoader;
import org.rubis.client.config.ShardPlan;
import org.rubis.format.run.ErrorClass;
import org.rubis.format.run.RunFiles;
import org.rubis.server.FaultyServer;
import org.rubis.server.RubisServer;

/**
 * Whole runs against the fault-injecting server, one per backend: the run ends on time, each
 * request is logged once with a class of the taxonomy, requests.csv parses, and the summary's
 * status and counts agree with the logs and with the server's own fault counts; a run in which
 * every reply is an error does not end {@code complete}, and a target that dies mid-run ends
 * {@code target-died}, with throughput counting only served requests. Each case starts its own server and mostly
 * waits for its run, so the cases run concurrently.
 */
@Tag("concurrent")
@Execution(ExecutionMode.CONCURRENT)
class FaultRunTest {

    @TempDir
    Path tmp;

    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    private JsonNode run(String backend, String spec, Path dir, String durationMs) throws Exception {
        return run(backend, spec, dir, durationMs, "1000", -1);
    }

    private JsonNode run(
            String backend, String spec, Path dir, String durationMs, String requestTimeoutMs, long endWaitMs)
            throws Exception {
        return run(backend, spec, dir, durationMs, requestTimeoutMs, endWaitMs, "0.005");
    }

    private JsonNode run(
            String backend,
            String spec,
            Path dir,
            String durationMs,
            String requestTimeoutMs,
            long endWaitMs,
            String thinkScale)
            throws Exception {
        return run(backend, spec, dir, durationMs, requestTimeoutMs, endWaitMs, thinkScale, Map.of());
    }

    private JsonNode run(
            String backend,
            String spec,
            Path dir,
            String durationMs,
            String requestTimeoutMs,
            long endWaitMs,
            String thinkScale,
            Map<String, String> more)
            throws Exception {
        return run(backend, spec, dir, durationMs, requestTimeoutMs, endWaitMs, thinkScale, more, 0);
    }

    /** ... and stopped, as Ctrl-C does, once the log holds {@code stopAfterRequests} lines (0: at its end). */
    private JsonNode run(
            String backend,
            String spec,
            Path dir,
            String durationMs,
            String requestTimeoutMs,
            long endWaitMs,
            String thinkScale,
            Map<String, String> more,
            int stopAfterRequests)
            throws Exception {
        try (RubisServer server = FaultyServer.start(RubisServer.Model.EVENT, spec, dir.resolve("truth"))) {
            String[] model = backend.split("\\+"); // BACKEND or BACKEND+THREADS (dedicated+virtual)
            Map<String, String> p = new HashMap<>(Map.of(
                    "client_target",
                    "http://127.0.0.1:" + server.port(),
                    "client_backend",
                    model[0],
                    "workload_number_of_clients_per_node",
                    "4",
                    "workload_up_ramp_time_in_ms",
                    "0",
                    "workload_down_ramp_time_in_ms",
                    "0",
                    "workload_session_run_time_in_ms",
                    durationMs,
                    "workload_think_scale",
                    thinkScale,
                    "client_progress",
                    "no",
                    "client_request_timeout_ms",
                    requestTimeoutMs));
            p.put("client_connect_timeout_ms", "1000");
            p.putAll(more);
            if (model.length > 1) {
                p.put("client_threads", model[1]);
            }
            long t0 = System.nanoTime();
            RunSeams seams = new RunSeams(endWaitMs, InetAddress.getLoopbackAddress(), 0, 0);
            RunEngine engine = new RunEngine(ConfigLoader.load((Path) null, p), ShardPlan.SINGLE, dir, QUIET, seams);
            StopAfterRequests stop = stopAfterRequests > 0 ? StopAfterRequests.on(engine, stopAfterRequests) : null;
            JsonNode s = engine.run().json();
            if (stop != null) {
                stop.cancel();
            }
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            // 25 s: a loaded host's finish took 15 s; still below the 30 s request timeout a stuck run must not wait
            // out
            assertTrue(ms < Long.parseLong(durationMs) + 25_000, "the run ends on time: " + ms + " ms");
            return s;
        }
    }

    /**
     * The target answers only {@code http-503} from 1.5 s on (the server's clock), the 4 s run phase from 2 s (the
     * client starts after the server): every run-phase request is an error. The up ramp's successes once made such a run
     * {@code complete}, exit 0; its status is {@code failed}, and the reason names the run phase when the ramp was
     * served (the client's log says whether it was).
     */
    @Test
    void aRunPhaseOfNothingButErrorsFailedWhateverTheRampServed() throws Exception {
        Path dir = tmp.resolve("run-phase-errors");
        JsonNode s = run(
                "netty",
                "status=503@1500ms-600s",
                dir,
                "4000", // the on-time check allows the run phase + 15 s: the 2 s ramp is inside that
                "1000",
                -1,
                "0.005",
                Map.of("workload_up_ramp_time_in_ms", "2000"));
        List<String> lines = Files.readAllLines(dir.resolve("requests.csv"));
        List<String> header = List.of(lines.get(0).split(","));
        int phase = header.indexOf("phase");
        int error = header.indexOf("error");
        long runRequests = 0;
        long runServed = 0;
        long rampServed = 0;
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            boolean served = f[error].isEmpty();
            if (f[phase].equals("run")) {
                runRequests++;
                runServed += served ? 1 : 0;
            } else if (served) {
                rampServed++;
            }
        }
        assertTrue(runRequests > 0 && runServed == 0, runRequests + " run-phase requests, " + runServed + " served");
        assertEquals("failed", s.path("status").asText(), s.path("stop_reason").asText());
        String reason = s.path("stop_reason").asText();
        assertTrue(
                rampServed > 0
                        ? reason.startsWith("no request succeeded in the run phase, the measurement (" + runRequests
                                + " of " + runRequests + " run-phase requests were errors; the ramps' " + rampServed
                                + " successes")
                        : reason.startsWith("no request succeeded ("),
                rampServed + " ramp successes: " + reason);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"legacy", "pooled", "dedicated", "dedicated+virtual", "netty"})
    void mixedFaultsAreEachLoggedOnceWithTheirClass(String backend) throws Exception {
        Path dir = tmp.resolve(backend);
        // Three sessions of at most 10 requests per user, in a run phase of up to 60 s that ends when they are done:
        // the
        // same work however slow the host (2.5 s of a loaded host made 8 requests, no truncation among them).
        JsonNode s = run(
                backend,
                "reset:0.1,truncate:0.1,status=503:0.1,garbage:0.05,delay=20:0.1",
                dir,
                "60000",
                "10000", // no hang here: 1 s made 20 read timeouts of a loaded host's late fault replies
                -1,
                "0.005",
                Map.of("workload_sessions_per_user", "3", "workload_maximum_number_of_transitions", "10"));
        assertTrue(
                !s.has("end_of_run_stall") && !Files.exists(dir.resolve(RunFiles.END_OF_RUN_STALL)),
                "sessions that end in time leave no dump");
        List<String> lines = Files.readAllLines(dir.resolve("requests.csv"));
        List<String> header = List.of(lines.get(0).split(","));
        int errorCol = header.indexOf("error");
        int statusCol = header.indexOf("status");
        Map<String, Long> classes = new HashMap<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            assertEquals(header.size(), f.length, "a parseable line: " + line);
            String error = f[errorCol];
            if (!error.isEmpty()) {
                assertTrue(ErrorClass.parse(error) != null, "a class of the taxonomy: " + error);
                classes.merge(error, 1L, Long::sum);
            }
            if (error.startsWith("http-")) {
                assertEquals(error.substring(5), f[statusCol], "the status column keeps the status");
            }
        }
        long requests = lines.size() - 1;
        assertTrue(requests > 20, "requests: " + requests);
        assertEquals(requests, s.get("requests").asLong(), "each request logged once, all in the summary");
        JsonNode byClass = s.get("errors_by_class");
        classes.forEach((k, v) -> assertEquals(v, byClass.path(k).asLong(), k));
        assertEquals("complete", s.get("status").asText(), s.toString());
        JsonNode truth = new ObjectMapper()
                .readTree(dir.resolve("truth/stats.json").toFile())
                .get("faults");
        // The server's own fault counts are the truth for the classes the client must name.
        assertEquals(
                truth.path("reset").asLong(),
                classes.getOrDefault("reset", 0L),
                "reset vs the server: " + classes + " " + truth);
        assertEquals(
                truth.path("truncate").asLong(),
                classes.getOrDefault("truncated-body", 0L),
                "truncate: " + classes + " " + truth);
        assertEquals(
                truth.path("status").asLong(), classes.getOrDefault("http-503", 0L), "503: " + classes + " " + truth);
        assertTrue(truth.path("garbage").asLong() > 0, "the server sent non-HTTP bytes: " + truth);
        assertEquals(
                truth.path("garbage").asLong(),
                classes.getOrDefault("not-http", 0L),
                "garbage: " + classes + " " + truth);
        long served = requests - s.get("errors").asLong();
        assertEquals(served, s.get("requests_served").asLong());
        assertEquals(
                s.get("sessions_started").asLong(),
                s.get("sessions_logged").asLong(),
                "every session that began is in sessions.csv");
        assertEquals(
                s.get("sessions_started").asLong(),
                Files.readAllLines(dir.resolve("sessions.csv")).size() - 1);
    }

    /**
     * Each request names the connection that carried it: {@code connection_id} one connection for the whole run (one
     * local address for each id), {@code local_address} what the server's log calls it. A request that reached the
     * server and failed there (reset, truncated, garbage) is named too: it once had an empty id on every backend, and
     * the client-vs-server join left as many client-only lines as server-only ones. Against the server's own logs:
     * per address, as many client lines as server lines; as many ids as connections that carried requests.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"legacy", "pooled", "dedicated", "netty"})
    void everyRequestThatReachedTheServerNamesItsConnection(String backend) throws Exception {
        Path dir = tmp.resolve("named-" + backend);
        // 10 s request timeouts: a loaded host's cold in-process server once took more than 1 s for first requests
        run(backend, "reset:0.1,truncate:0.1,garbage:0.1", dir, "4000", "10000", -1);
        List<String> lines = Files.readAllLines(dir.resolve("requests.csv"));
        List<String> header = List.of(lines.get(0).split(","));
        int idCol = header.indexOf("connection_id");
        int addressCol = header.indexOf("local_address");
        int errorCol = header.indexOf("error");
        int retriesCol = header.indexOf("retries");
        Map<String, Set<String>> addressesById = new HashMap<>();
        Map<String, Long> clientByAddress = new HashMap<>();
        long retries = 0;
        long timeouts = 0;
        long failedNamed = 0;
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            retries += Long.parseLong(f[retriesCol]);
            String error = f[errorCol];
            timeouts += error.equals("read-timeout") ? 1 : 0;
            boolean reachedServer = error.equals("reset")
                    || error.equals("truncated-body")
                    || error.equals("not-http")
                    || error.equals("read-timeout");
            assertTrue(
                    !reachedServer || !f[idCol].isEmpty() && !f[addressCol].isEmpty(),
                    "a request that reached the server names its connection: " + line);
            failedNamed += reachedServer ? 1 : 0;
            if (!f[idCol].isEmpty()) {
                addressesById
                        .computeIfAbsent(f[idCol], k -> new java.util.HashSet<>())
                        .add(f[addressCol]);
                clientByAddress.merge(f[addressCol], 1L, Long::sum);
            }
        }
        assertTrue(failedNamed > 0, "faults hit requests: " + String.join("\n", lines));
        addressesById.forEach((id, a) -> assertEquals(1, a.size(), "connection " + id + " has one address: " + a));
        Map<String, Long> serverByAddress = new HashMap<>();
        List<String> server = Files.readAllLines(dir.resolve("truth/requests.csv"));
        int serverId = List.of(server.get(0).split(",")).indexOf("connection_id");
        for (String line : server.subList(1, server.size())) {
            serverByAddress.merge(line.split(",", -1)[serverId], 1L, Long::sum);
        }
        if (retries > 0 || timeouts > 0) {
            return; // a resent request, or one the server answered after the client gave up: the counts may differ
        }
        assertEquals(serverByAddress, clientByAddress, "per connection, the server's requests are the client's");
        List<String> conns = Files.readAllLines(dir.resolve("truth/connections.csv"));
        int connRequests = List.of(conns.get(0).split(",")).indexOf("requests");
        long carried = conns.subList(1, conns.size()).stream()
                .filter(l -> Long.parseLong(l.split(",", -1)[connRequests]) > 0)
                .count();
        assertEquals(carried, addressesById.size(), "one id per connection that carried requests");
    }

    /**
     * With no think time the next request is due the moment a request times out: it must neither reuse the
     * timed-out connection nor take that connection's close as its own outcome (netty once failed it as
     * truncated or closed before any byte). Only hangs are injected, so every error is a read timeout, and the
     * server's own log accounts for each: a request it hung, read or answered after the client's deadline (on a
     * loaded host the in-process server read the first requests 1.6 s after they were sent: 15 timeouts for 2 hangs),
     * or never read; and it read nothing on a connection after the request it hung there.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"netty", "dedicated"})
    void aRequestDueWhenTheLastOneTimedOutIsNotChargedWithItsClose(String backend) throws Exception {
        Path dir = tmp.resolve("due-" + backend);
        // Stopped after 60 requests, not after a fixed time: a loaded host's run of 3 s made 2 requests, no hang among
        // them. The server hangs one request in five of those it reads (a low-discrepancy sequence, not a draw).
        JsonNode s = run(backend, "hang:0.2", dir, "30000", "500", -1, "0", Map.of(), 60);
        List<String> lines = Files.readAllLines(dir.resolve("requests.csv"));
        List<String> header = List.of(lines.get(0).split(","));
        Map<String, Long> classes = new HashMap<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            assertEquals(header.size(), f.length, "a parseable line: " + line);
            classes.merge(f[header.indexOf("error")], 1L, Long::sum);
            assertTrue(Long.parseLong(f[header.indexOf("response_ns")]) >= 0, "no negative response time: " + line);
        }
        assertTrue(
                Set.of("", "read-timeout", "aborted").containsAll(classes.keySet()), "only read timeouts: " + classes);
        TimeoutsAgainstTheServer join = new TimeoutsAgainstTheServer(dir, dir.resolve("truth"), 500);
        assertTrue(join.hangs() >= 3, "the server hung some requests: " + join.describe());
        assertTrue(classes.getOrDefault("read-timeout", 0L) >= 3, "some requests timed out: " + classes);
        assertEquals(List.of(), join.readAfterAHang(), "no request written behind a hung one");
        assertEquals(
                List.of(), join.unexplained(), "each reply and timeout as the server's log has it: " + join.describe());
        assertEquals(lines.size() - 1, s.get("requests").asLong());
    }

    /**
     * With images on, an image that fails (no reply within the request timeout, or not HTTP) ends the image fetches,
     * not the page: the page's line keeps its status, with the error {@code image-<class>}, and the session's next
     * request, due at once (after a page that stands netty runs it inline, on the event loop), opens a new connection:
     * neither written on the failed image's connection nor charged with its close. Netty once failed the page whose
     * image timed out, and wrote the next request on the connection an image's garbage came on, then closed it under
     * that request (which waited out its timeout).
     */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "netty,hang:0.2,read-timeout",
        "netty,garbage:0.2,not-http",
        "dedicated,hang:0.2,read-timeout",
        "dedicated,garbage:0.2,not-http"
    })
    void anImageThatFailsEndsTheImagesNotThePageAndTheNextRequestOpensANewConnection(
            String backend, String spec, String error) throws Exception {
        Path dir = tmp.resolve("image-" + backend + "-" + error);
        // 500 ms, not 150: the first requests of a JVM's first run can wait 200 ms and more for the cold in-process
        // server on a loaded host, and would time out without any fault. Garbage needs no timeout to end: 5 s there,
        // so that a loaded host's slow reply is no read timeout.
        String timeoutMs = spec.startsWith("hang") ? "500" : "5000";
        // stopped after 40 requests, not after 3 s: a loaded host's 3 s made 4, one image failed among them
        JsonNode s = run(backend, spec, dir, "30000", timeoutMs, -1, "0", Map.of("client_download_images", "yes"), 40);
        List<String> lines = Files.readAllLines(dir.resolve("requests.csv"));
        List<String> header = List.of(lines.get(0).split(","));
        Map<String, Long> classes = new HashMap<>();
        Map<String, String[]> byRequest = new HashMap<>();
        long fetched = 0;
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            classes.merge(f[header.indexOf("error")], 1L, Long::sum);
            fetched += Long.parseLong(f[header.indexOf("images")]);
            byRequest.put(f[header.indexOf("session_id")] + "/" + f[header.indexOf("request_index")], f);
        }
        String imageError = "image-" + error;
        long images = classes.getOrDefault(imageError, 0L);
        assertTrue(images >= 3, "some images failed: " + classes);
        // The application's own error pages (a bid below a minimum another user just raised, a nickname just taken: one
        // in
        // 15,000 requests of a CI run) are no fault's: allowed as many as the server says it sent.
        long appErrorPages = new ObjectMapper()
                .readTree(dir.resolve("truth/stats.json").toFile())
                .path("error_pages")
                .asLong();
        long clientErrorPages = classes.getOrDefault(ErrorClass.ERROR_PAGE.label(), 0L);
        assertTrue(
                clientErrorPages <= appErrorPages,
                "error pages: client " + clientErrorPages + ", the server's own " + appErrorPages);
        assertTrue(
                Set.of("", error, imageError, "aborted", "image-aborted", ErrorClass.ERROR_PAGE.label())
                        .containsAll(classes.keySet()),
                "only " + error + ": " + classes);
        long followed = 0;
        for (String[] f : byRequest.values()) {
            if (f[header.indexOf("error")].equals(imageError)) {
                assertEquals("200", f[header.indexOf("status")], "the page's own status: " + String.join(",", f));
                String[] next = byRequest.get(f[header.indexOf("session_id")] + "/"
                        + (Integer.parseInt(f[header.indexOf("request_index")]) + 1));
                if (next != null
                        && !next[header.indexOf("status")].equals(
                                "0")) { // a failed request may not name its connection
                    followed++;
                    assertEquals(
                            "true",
                            next[header.indexOf("new_connection")],
                            "after a failed image, a new connection: " + String.join(",", next));
                }
            }
        }
        assertTrue(followed >= 1, "a session went on to a reply after a failed image: " + classes);
        JsonNode truth = new ObjectMapper()
                .readTree(dir.resolve("truth/stats.json").toFile())
                .get("faults");
        String kind = spec.substring(0, spec.indexOf(':'));
        // faults still open when the run ended are aborted rather than timed out
        assertTrue(
                images + classes.getOrDefault(error, 0L) <= truth.path(kind).asLong(),
                classes + " vs the server's " + truth);
        assertEquals(lines.size() - 1, s.get("requests").asLong());
        // the server saw each logged page, the images fetched, and the failed image of each image-<class> line; a
        // request
        // aborted at the end may have reached it or not, and may have been in its images
        long seen = new ObjectMapper()
                .readTree(dir.resolve("truth/stats.json").toFile())
                .get("requests")
                .asLong();
        long expected = lines.size() - 1 + fetched + images;
        assertTrue(
                Math.abs(seen - expected)
                        <= classes.getOrDefault("aborted", 0L) + classes.getOrDefault("image-aborted", 0L),
                "server " + seen + " vs client " + expected + " " + classes);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"legacy", "pooled", "dedicated", "dedicated+virtual", "netty"})
    void aSessionStuckInARequestWhenTheRunStopsWaitingStillHasItsLine(String backend) throws Exception {
        // The server accepts and never answers; the request timeout outlasts the run and the end-of-run wait (0.5 s
        // here), even on a loaded host (with 5 s, one timed out first): every user's first session is still in its
        // first request when the run gives up on it.
        Path dir = tmp.resolve(backend);
        // 6 s, not 1.5: a loaded host's 1.5 s began 2 of the 4 sessions; the request timeout (60 s) outlasts it and
        // the run's bound (31 s) alike
        JsonNode s = run(backend, "hang", dir, "6000", "60000", 500);
        List<String> lines = Files.readAllLines(dir.resolve("sessions.csv"));
        int reason = List.of(lines.get(0).split(",")).indexOf("end_reason");
        long started = s.get("sessions_started").asLong();
        assertEquals(4, started, "4 users, one session each: " + s);
        assertEquals(started, lines.size() - 1, "one sessions.csv line per session started: " + lines);
        for (String l : lines.subList(1, lines.size())) {
            assertEquals("stuck", l.split(",", -1)[reason], l);
        }
        assertEquals(started, s.get("sessions_stuck_at_end").asLong());
        assertEquals(started, s.get("sessions_logged").asLong());
        assertEquals(
                1,
                Files.readAllLines(dir.resolve("requests.csv")).size(),
                "no request finished, none logged (nor a late one)");
        assertNotEquals("complete", s.get("status").asText(), "no request succeeded");
        // Half the end-of-run wait passed with every session still in its request: their threads were dumped.
        JsonNode stall = s.get("end_of_run_stall");
        assertTrue(
                stall != null && stall.get("active_sessions").asLong() == started,
                "a stall section naming the stuck sessions: " + s);
        assertEquals(
                started, stall.get("active_sessions_when_the_wait_ended").asLong(), "none ended in the wait: " + stall);
        String text = Files.readString(dir.resolve(RunFiles.END_OF_RUN_STALL));
        assertTrue(text.startsWith(started + " sessions still active"), text);
        // the busy threads' window is a whole second although the wait ended inside it
        Matcher window = Pattern.compile("in the next ([0-9.]+) s").matcher(text);
        assertTrue(window.find() && Double.parseDouble(window.group(1)) >= 0.95, text);
        String all = Files.readString(dir.resolve(RunFiles.END_OF_RUN_THREADS));
        if (!backend.equals(
                "netty")) { // the users' own threads, each waiting for its reply (virtual ones only in the JVM's dump)
            long users = (backend.endsWith("virtual") ? all : text)
                    .lines()
                    .filter(l -> l.contains("\"user-"))
                    .count();
            assertTrue(
                    users >= 1,
                    backend + ": the users' threads in the dump:\n" + (backend.endsWith("virtual") ? all : text));
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"legacy", "netty"})
    void everyReplyAnErrorIsAFailedRun(String backend) throws Exception {
        // one session of at most 5 requests per user, the run phase ending when they are done (up to 30 s): a loaded
        // host's 1.5 s had sent nothing in the run phase
        JsonNode s = run(
                backend,
                "status=503",
                tmp.resolve(backend),
                "30000",
                "1000",
                -1,
                "0.005",
                Map.of("workload_sessions_per_user", "1", "workload_maximum_number_of_transitions", "5"));
        assertEquals("failed", s.get("status").asText(), s.get("stop_reason").asText());
        assertTrue(
                s.get("stop_reason").asText().startsWith("no request succeeded"),
                s.get("stop_reason").asText());
        assertEquals(0.0, s.get("throughput_rps").asDouble(), "nothing was served");
        assertTrue(s.get("attempted_rps").asDouble() > 0);
        assertTrue(s.get("client_health").get("verdict").asText().startsWith("INVALID"));
    }

    @Test
    void aRunThatSentNothingIsNotComplete() throws Exception {
        // think times 1,000 times TPC-W's (mean 7,000 s): no user's first think time ends within the 1 s run
        JsonNode s = run("legacy", "delay=1:0.01", tmp.resolve("nothing"), "1000", "1000", -1, "1000");
        assertEquals(0, s.get("sessions_started").asLong(), "no session began: " + s.get("stop_reason"));
        assertEquals("failed", s.get("status").asText(), s.get("stop_reason").asText());
        assertTrue(
                s.get("stop_reason")
                        .asText()
                        .startsWith("no request was sent: no session began before the run's end (4 users"),
                s.get("stop_reason").asText());
        assertEquals(
                1,
                Files.readAllLines(tmp.resolve("nothing").resolve("requests.csv"))
                        .size(),
                "nothing logged but the header");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"pooled", "netty"})
    void aTargetThatDiesIsNotComplete(String backend) throws Exception {
        // dies at its 13th request (one in 20: the fault sequence's first below 0.05), not 3 s after its start: a
        // loaded
        // host's client sent its first request after a server that dies at 3 s had died (then the target was
        // unreachable, not dead)
        // a request timeout of 10 s: a loaded host's replies took more than 1 s (read timeouts, no refusal)
        JsonNode s = run(backend, "die:0.05", tmp.resolve(backend), "30000", "10000", -1);
        assertEquals(
                "target-died", s.get("status").asText(), s.get("stop_reason").asText());
        assertNotEquals("complete", s.get("stop_reason").asText());
        long refused = s.get("errors_by_class").path("refused").asLong();
        assertTrue(refused >= 1, s.get("errors_by_class").toString());
        double served = s.get("requests_served").asDouble();
        assertTrue(
                s.get("throughput_rps").asDouble()
                        <= served / s.get("run_seconds").asDouble() * 1.01,
                "throughput counts served requests only: " + s);
        assertTrue(
                s.get("attempted_rps").asDouble() > s.get("throughput_rps").asDouble(),
                "the refused ones are not served");
        assertTrue(s.get("run_seconds").asDouble() < 29.9, "divided by the time actually run: " + s.get("run_seconds"));
        // The ground truth holds every reply the client got, and counts the die: the server closes its connections
        // before its logs, so that no reply leaves after the log's last line.
        Path dir = tmp.resolve(backend);
        long clientServed = Files.readAllLines(dir.resolve("requests.csv")).stream()
                .skip(1)
                .filter(l -> l.contains(",200,,"))
                .count();
        long serverServed = Files.readAllLines(dir.resolve("truth/requests.csv")).stream()
                .skip(1)
                .filter(l -> l.contains(",200,"))
                .count();
        assertTrue(clientServed <= serverServed, clientServed + " replies the client got, " + serverServed + " logged");
        JsonNode stats =
                new ObjectMapper().readTree(dir.resolve("truth/stats.json").toFile());
        assertEquals(1, stats.path("faults").path("die").asLong(), stats.toString());
    }
}
