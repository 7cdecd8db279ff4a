package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.client.config.ConfigLoader;
import org.rubis.client.workload.Interaction;
import org.rubis.client.workload.TransitionTable;
import org.rubis.format.Columns;

/**
 * Closed runs against the embedded server, as a user starts them. Two runs with the same seed:
 * the first (the shared closed run, {@link SharedRuns#closed()}) is checked against the server's ground truth and the
 * transition table, the pair for reproducibility.
 */
class ClosedRunTest {

    @TempDir
    static Path work;

    static RunDir a;
    static RunDir b;
    static Cli.Result resultA;

    /** Run a is the shared closed run (other classes read it too), run b the same command line again. */
    @BeforeAll
    static void runTwice() throws Exception {
        SharedRuns.Run shared = SharedRuns.closed();
        resultA = shared.result();
        Cli.Result rb = Cli.run(work, 120, SharedRuns.closedArgs("b"));
        assertEquals(0, rb.status(), rb.out() + rb.err());
        a = new RunDir(shared.dir());
        b = new RunDir(work.resolve("b"));
    }

    @Test
    void everyClientRequestAppearsInTheServerLog() throws Exception {
        List<Map<String, String>> client = a.csv("requests.csv");
        List<Map<String, String>> server = a.csv("server/requests.csv");
        assertTrue(client.size() > 200, "requests: " + client.size());
        assertEquals(client.size(), server.size(), "same count");
        Map<String, Long> clientPaths =
                client.stream().collect(Collectors.groupingBy(r -> r.get("path"), TreeMap::new, Collectors.counting()));
        Map<String, Long> serverPaths =
                server.stream().collect(Collectors.groupingBy(r -> r.get("path"), TreeMap::new, Collectors.counting()));
        assertEquals(clientPaths, serverPaths, "same paths");
        // The connection ids the client logged are the ones the server saw.
        Set<String> serverConns =
                server.stream().map(r -> r.get("connection_id")).collect(Collectors.toSet());
        Set<String> clientConns =
                client.stream().map(r -> r.get("connection_id")).collect(Collectors.toSet());
        assertEquals(serverConns, clientConns);
        JsonNode stats = a.json("server/stats.json");
        assertEquals(client.size(), stats.get("requests").asLong());
        assertEquals(serverConns.size(), stats.get("connections_accepted").asLong());
        assertTrue(stats.get("max_concurrent_connections").asInt() >= 1);
    }

    /** docs/RUN-DIRECTORY.md names every file of a real run directory (server/ included) and every column of its CSV files. */
    @Test
    void everyFileAndColumnOfTheRunDirectoryIsDocumented() throws Exception {
        String doc = Files.readString(Path.of(System.getProperty("rubis.properties.dir", "../../rubis-properties"))
                .toAbsolutePath()
                .getParent()
                .resolve("docs/RUN-DIRECTORY.md"));
        Path dir = a.dir;
        List<String> missing = new ArrayList<>();
        try (var files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String name = f.getFileName().toString();
                if (!doc.contains("`" + name + "`") && !doc.contains(name + ",") && !doc.contains("## " + name)) {
                    missing.add("file " + dir.relativize(f));
                }
                if (name.endsWith(".csv")) {
                    for (String column : Files.readAllLines(f).get(0).split(",")) {
                        if (!Pattern.compile("(?<![A-Za-z0-9_])" + column + "(?![A-Za-z0-9_])")
                                .matcher(doc)
                                .find()) {
                            missing.add(dir.relativize(f) + " column " + column);
                        }
                    }
                }
            }
        }
        assertTrue(
                Files.isRegularFile(dir.resolve("server/regions.txt")),
                "the packaged data files are handed over as copies");
        assertEquals(List.of(), missing);
    }

    @Test
    void logsHaveTheDocumentedColumnsAndTheSummaryItsKeys() throws Exception {
        assertEquals(Columns.REQUESTS, a.header("requests.csv"));
        assertEquals(Columns.SESSIONS, a.header("sessions.csv"));
        JsonNode s = a.json("summary.json");
        for (String k :
                List.of("requests", "errors", "sessions_completed", "seed", "backend", "jvm", "client_health")) {
            assertTrue(s.has(k), "summary.json lacks " + k);
        }
        assertEquals(4242, s.get("seed").asLong());
        assertEquals("legacy", s.get("backend").asText());
        assertEquals("complete", s.get("status").asText());
        assertTrue(s.get("client_health").has("send_lateness_ms"));
        assertTrue(s.get("response_time_ms").get("run").get("count").asLong() > 0);
        assertTrue(s.get("response_time_ms").get("run").get("states").has("Home"));
        for (String phase : List.of("up", "run", "down")) {
            assertTrue(
                    a.csv("requests.csv").stream().anyMatch(r -> r.get("phase").equals(phase)),
                    "a request in phase " + phase);
        }
        for (Map<String, String> r : a.csv("requests.csv")) {
            long ttfb = Long.parseLong(r.get("ttfb_ns"));
            long resp = Long.parseLong(r.get("response_ns"));
            assertTrue(ttfb > 0 && ttfb <= resp, r.toString());
            assertTrue(
                    Long.parseLong(r.get("send_epoch_ns"))
                            >= Long.parseLong(r.get("intended_send_epoch_ns")) - 1_000_000,
                    r.toString());
        }
        assertTrue(resultA.out().contains("Run (the measurement) - response time in ms"), resultA.out());
    }

    /** Each session's requests in order. */
    static Map<Long, List<Map<String, String>>> requestsBySession(RunDir d) throws Exception {
        Map<Long, List<Map<String, String>>> w = new HashMap<>();
        for (Map<String, String> r : d.csv("requests.csv")) {
            w.computeIfAbsent(Long.parseLong(r.get("session_id")), k -> new ArrayList<>())
                    .add(r);
        }
        return w;
    }

    /** States of each session in request order. */
    static Map<Long, List<String>> walks(RunDir d) throws Exception {
        Map<Long, List<String>> w = new HashMap<>();
        for (Map<String, String> r : d.csv("requests.csv")) {
            w.computeIfAbsent(Long.parseLong(r.get("session_id")), k -> new ArrayList<>())
                    .add(r.get("state") + (r.get("error").isEmpty() ? "" : "!"));
        }
        return w;
    }

    @Test
    void eachSessionIsAValidWalkOfTheTransitionTable() throws Exception {
        TransitionTable t = ConfigLoader.load((Path) null, Map.of()).workload().table();
        int checked = 0;
        for (List<String> walk : walks(a).values()) {
            assertEquals("Home", walk.get(0).replace("!", ""), "sessions start at Home");
            for (int i = 1; i < walk.size(); i++) {
                String prev = walk.get(i - 1);
                int from = Interaction.byLabel(prev.replace("!", "")).ordinal();
                int to = Interaction.byLabel(walk.get(i).replace("!", "")).ordinal();
                boolean afterError = prev.endsWith("!");
                boolean direct = t.probability(to, from) > 0;
                boolean stay = to == from;
                String target = walk.get(i).replace("!", "");
                boolean back = walk.subList(0, i).stream()
                        .anyMatch(s -> s.replace("!", "").equals(target));
                assertTrue(
                        afterError ? to == 0 : direct || stay || back,
                        "step " + prev + " -> " + walk.get(i) + " is not a transition of the table in " + walk);
                checked++;
            }
        }
        assertTrue(checked > 100, "transitions checked: " + checked);
    }

    /**
     * A "Sorry" page (the embedded server answers every search of category 0 with one, as the PHP does)
     * costs a think time like any page, as in the original: the user draws, thinks, then goes back. Going
     * back at once made zero-think requests that appear only once sessions reach the search states, so
     * throughput rose through the run phase. The gap is read from the client's log: the next request's
     * intended send minus the Sorry reply's end. At --think-scale 0.03 (mean 210 ms) a think under 1 ms has
     * a chance of 0.5 %; a user going back at once has a gap under 1 ms every time.
     */
    @Test
    void aSorryPageIsFollowedByAThinkTime() throws Exception {
        int afterSorry = 0, atOnce = 0;
        for (List<Map<String, String>> session : requestsBySession(a).values()) {
            session.sort(Comparator.comparingLong(r -> Long.parseLong(r.get("intended_send_epoch_ns"))));
            for (int i = 0; i + 1 < session.size(); i++) {
                Map<String, String> r = session.get(i);
                if (!r.get("path").matches(".*[?&]category=0&.*")
                        || !r.get("error").isEmpty()) {
                    continue;
                }
                long end = Long.parseLong(r.get("send_epoch_ns")) + Long.parseLong(r.get("response_ns"));
                long gap = Long.parseLong(session.get(i + 1).get("intended_send_epoch_ns")) - end;
                afterSorry++;
                if (gap < 1_000_000) {
                    atOnce++;
                }
            }
        }
        assertTrue(afterSorry >= 5, "searches of category 0 followed by a request: " + afterSorry);
        assertTrue(
                atOnce * 5 <= afterSorry,
                atOnce + " of " + afterSorry + " requests after a Sorry page came without a think time");
    }

    /**
     * Same seed, same walks, as far as the server answered the same (docs/WORKLOAD.md,
     * "Reproducibility"): a session's next state depends on its random streams and on the page it
     * got (an ERROR or "Sorry" page, the items listed), and the pages depend on what the other
     * sessions wrote meanwhile (registered items, bids), which depends on their interleaving. So
     * each common session is compared up to and including the first request whose reply differed
     * (bytes or error) between the two runs; until then its states and paths must be identical.
     */
    @Test
    void theSameSeedGivesTheSameSessionsAndStates() throws Exception {
        Map<Long, List<Map<String, String>>> ra = requestsBySession(a);
        Map<Long, List<Map<String, String>>> rb = requestsBySession(b);
        Set<Long> common = new HashSet<>(ra.keySet());
        common.retainAll(rb.keySet());
        assertTrue(common.size() >= 25, "sessions in both runs: " + common.size());
        int compared = 0;
        for (long id : common) {
            List<Map<String, String>> x = ra.get(id);
            List<Map<String, String>> y = rb.get(id);
            int n = Math.min(x.size(), y.size()); // the end of the run may cut a session at a different point
            for (int i = 0; i < n; i++) {
                assertEquals(x.get(i).get("state"), y.get(i).get("state"), "session " + id + " step " + i);
                assertEquals(x.get(i).get("path"), y.get(i).get("path"), "session " + id + " step " + i);
                compared++;
                if (!x.get(i).get("bytes").equals(y.get(i).get("bytes"))
                        || !x.get(i).get("error").equals(y.get(i).get("error"))) {
                    break; // the server answered differently: the rest of the walk may legitimately differ
                }
            }
        }
        assertTrue(compared > 150, "requests compared: " + compared);
        // And the users of the sessions are the same.
        Map<String, String> usersA =
                a.csv("sessions.csv").stream().collect(Collectors.toMap(r -> r.get("session_id"), r -> r.get("user")));
        for (Map<String, String> r : b.csv("sessions.csv")) {
            if (usersA.containsKey(r.get("session_id"))) {
                assertEquals(usersA.get(r.get("session_id")), r.get("user"));
            }
        }
    }
}
