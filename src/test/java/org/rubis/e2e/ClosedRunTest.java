package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
import org.rubis.format.run.Columns;

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
        // at least one request per user (25): the count is the host's (a loaded host's 8 s made 72, an idle one's 300)
        assertTrue(client.size() >= 25, "requests: " + client.size());
        assertEquals(client.size(), server.size(), "same count");
        Map<String, Long> clientPaths =
                client.stream().collect(Collectors.groupingBy(r -> r.get("path"), TreeMap::new, Collectors.counting()));
        Map<String, Long> serverPaths =
                server.stream().collect(Collectors.groupingBy(r -> r.get("path"), TreeMap::new, Collectors.counting()));
        assertEquals(clientPaths, serverPaths, "same paths");
        // The connections the client logged are the ones the server saw: by address:port (the server's name for
        // them), and one connection_id for each connection the server accepted.
        Set<String> serverConns =
                server.stream().map(r -> r.get("connection_id")).collect(Collectors.toSet());
        Set<String> clientConns =
                client.stream().map(r -> r.get("local_address")).collect(Collectors.toSet());
        assertEquals(serverConns, clientConns);
        assertEquals(
                a.json("server/stats.json").get("connections_accepted").asLong(),
                client.stream().map(r -> r.get("connection_id")).distinct().count(),
                "one connection_id per connection");
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

    /** {@code path} with the run's write salt where the generator puts it: a nickname's suffix, a comment's start. */
    private static boolean answeredDifferently(Map<String, String> x, Map<String, String> y) {
        return !x.get("bytes").equals(y.get("bytes")) || !x.get("error").equals(y.get("error"));
    }

    private static String unsalted(String path, String salt) {
        return path.replace("_" + salt, "_SALT").replace("=" + salt + "+", "=SALT+");
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
        // as many as the host made (a loaded host's 8 s: 47), at least one per user
        assertTrue(checked >= 25, "transitions checked: " + checked);
    }

    /**
     * Same seed, same walks, as far as the server answered the same (docs/WORKLOAD.md,
     * "Reproducibility"): a session's next state depends on its random streams and on the page it
     * got (an ERROR or "Sorry" page, the items listed), and the pages depend on what the other
     * sessions wrote meanwhile (registered items, bids), which depends on their interleaving. So
     * each common session is compared until its walks part, and they may part only after one of
     * its replies differed (bytes or error) between the two runs.
     */
    @Test
    void theSameSeedGivesTheSameSessionsAndStates() throws Exception {
        Map<Long, List<Map<String, String>>> ra = requestsBySession(a);
        Map<Long, List<Map<String, String>>> rb = requestsBySession(b);
        // What a run writes carries its own random salt (docs/WORKLOAD.md): the same seed, the same paths but for it.
        String saltA = a.json("summary.json").path("write_salt").asText();
        String saltB = b.json("summary.json").path("write_salt").asText();
        assertFalse(saltA.isEmpty() || saltA.equals(saltB), "each run its own salt: " + saltA + ", " + saltB);
        Set<Long> common = new HashSet<>(ra.keySet());
        common.retainAll(rb.keySet());
        assertTrue(common.size() >= 25, "sessions in both runs: " + common.size());
        int compared = 0;
        for (long id : common) {
            List<Map<String, String>> x = ra.get(id);
            List<Map<String, String>> y = rb.get(id);
            int n = Math.min(x.size(), y.size()); // the end of the run may cut a session at a different point
            boolean replyDiffered = false; // an earlier reply of this session differed between the runs
            for (int i = 0; i < n; i++) {
                boolean same = x.get(i).get("state").equals(y.get(i).get("state"))
                        && unsalted(x.get(i).get("path"), saltA)
                                .equals(unsalted(y.get(i).get("path"), saltB));
                if (!same) {
                    // The walk reads ids from the replies: it may part only after the server answered differently
                    // (other sessions' bids and items change the pages, at instants the host decides).
                    assertTrue(
                            replyDiffered,
                            "session " + id + " step " + i + " parted with every earlier reply the same: " + x.get(i)
                                    + " / " + y.get(i));
                    break;
                }
                compared++;
                replyDiffered |= answeredDifferently(x.get(i), y.get(i));
            }
        }
        // most of the requests of the shorter run: how many there are is the host's (a loaded host's 8 s made 72)
        long shorter =
                Math.min(a.csv("requests.csv").size(), b.csv("requests.csv").size());
        assertTrue(compared * 2 >= shorter && compared >= 25, "requests compared: " + compared + " of " + shorter);
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
