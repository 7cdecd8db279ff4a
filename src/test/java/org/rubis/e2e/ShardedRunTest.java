package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16, docs/SHARDING.md: the same seeded closed workload (the read-only browsing mix, so that
 * the server's pages do not depend on how sessions interleave) as one process and as three local
 * shards (run --shards 3, one shared embedded server) gives the same sessions, with the same state
 * sequences, within the run-end cut; the merged run adds the shards up, and the shared server's own
 * log (the ground truth) saw every request of every shard. The shards start together once all are ready; stopped
 * before that, they send nothing.
 */
@Order(1) // among the longest classes: starts first (src/test/pom.xml, testclass.order)
class ShardedRunTest {

    @TempDir
    Path work;

    static String[] args(String out, String... more) {
        List<String> a = new ArrayList<>(List.of(
                "run",
                "--users",
                "30",
                "--ramp-up",
                "1s",
                "--duration",
                "8s",
                "--ramp-down",
                "1s",
                "--think-scale",
                "0.03",
                "--max-transitions",
                "15",
                "--backend",
                "dedicated",
                "--seed",
                "1616",
                "--out",
                out,
                "--no-progress",
                "-Dserver_size=0.02",
                Cli.SMALL_SERVER,
                // Read-only: a session's states depend on the pages it gets (a "Sorry" page goes back, a page without
                // an
                // item id cannot lead to ViewItem), and with writes the pages depend on how sessions interleave.
                "-Dworkload_transition_table=browse_only_transitions.txt"));
        a.addAll(List.of(more));
        return a.toArray(String[]::new);
    }

    static final Set<String> COMPLETED = Set.of("end_of_session", "max_transitions");

    /** Session id -> its states in order (an error marked with !), for the sessions that completed. */
    static Map<Long, List<String>> completedWalks(RunDir d) throws Exception {
        Set<Long> completed = new HashSet<>();
        for (Map<String, String> r : d.csv("sessions.csv")) {
            if (COMPLETED.contains(r.get("end_reason"))) {
                completed.add(Long.parseLong(r.get("session_id")));
            }
        }
        Map<Long, List<String>> w = new HashMap<>();
        for (Map<String, String> r : d.csv("requests.csv")) {
            long id = Long.parseLong(r.get("session_id"));
            if (completed.contains(id)) {
                w.computeIfAbsent(id, k -> new ArrayList<>())
                        .add(r.get("state") + (r.get("error").isEmpty() ? "" : "!"));
            }
        }
        return w;
    }

    @Test
    void threeLocalShardsRunTheSessionsOfOneProcessAndMergeIntoTheirSum() throws Exception {
        Cli.Result one = Cli.run(work, 180, args("single"));
        assertEquals(0, one.status(), one.out() + one.err());
        Cli.Result three = Cli.run(work, 240, args("sharded", "--shards", "3"));
        assertEquals(0, three.status(), three.out() + three.err());
        RunDir single = new RunDir(work.resolve("single"));
        RunDir merged = new RunDir(work.resolve("sharded"));

        // The same sessions, state by state, where both runs completed them.
        Map<Long, List<String>> a = completedWalks(single);
        Map<Long, List<String>> b = completedWalks(merged);
        Set<Long> both = new HashSet<>(a.keySet());
        both.retainAll(b.keySet());
        assertTrue(
                both.size() >= 20,
                "sessions completed in both runs: " + both.size() + " (single " + a.size() + ", sharded " + b.size()
                        + ")");
        long requests = 0;
        for (long id : both) {
            assertEquals(a.get(id), b.get(id), "session " + id);
            requests += a.get(id).size();
        }
        assertTrue(requests >= 100, "requests compared: " + requests);

        // Each shard ran exactly its users (u mod 3), with global user numbers and session ids.
        JsonNode ms = merged.json("summary.json");
        long shardRequests = 0;
        long shardRows = 0;
        long shardSessionRows = 0;
        Map<String, Long> sums = new HashMap<>();
        List<String> summed = List.of(
                "requests",
                "errors",
                "users_started",
                "sessions_completed",
                "sessions_aborted_at_end",
                "connections_opened");
        for (int i = 0; i < 3; i++) {
            RunDir s = new RunDir(work.resolve("sharded").resolve("shard-" + i));
            JsonNode ss = s.json("summary.json");
            assertEquals(i, ss.get("shard").get("index").asInt());
            assertEquals(3, ss.get("shard").get("count").asInt());
            assertEquals(
                    ms.get("config_sha256").asText(), ss.get("config_sha256").asText());
            assertEquals("complete", ss.get("status").asText(), "shard " + i);
            assertEquals(10, ss.get("users_started").asInt(), "30 users over 3 shards");
            for (Map<String, String> r : s.csv("sessions.csv")) {
                long user = Long.parseLong(r.get("emulated_user"));
                assertEquals(i, user % 3, "shard " + i + " ran user " + user);
                assertEquals(user, Long.parseLong(r.get("session_id")) / 1_000_000L, "session ids are global");
                shardSessionRows++;
            }
            shardRows += s.csv("requests.csv").size();
            shardRequests += ss.get("requests").asLong();
            for (String k : summed) {
                sums.merge(k, ss.get(k).asLong(), Long::sum);
            }
        }
        // The merged summary is the sum of the shards'.
        assertEquals(3, ms.get("merged").get("shard_count").asInt());
        for (String k : summed) {
            assertEquals(sums.get(k), ms.get(k).asLong(), k + ": merged = sum of the shards'");
        }
        assertEquals(30, ms.get("users_started").asInt());
        assertEquals(shardRequests, shardRows, "every shard logged every request it counted");
        assertEquals(shardRows, merged.csv("requests.csv").size());
        assertEquals(shardSessionRows, merged.csv("sessions.csv").size());
        assertEquals(
                shardSessionRows,
                ms.get("sessions_started").asLong()
                        + ms.get("sessions_dropped_by_cap").asLong());

        // One embedded server for all shards: its own log counted every request the three shards sent.
        if (ms.get("errors").asLong() == 0) {
            assertEquals(
                    shardRows,
                    merged.csv("server/requests.csv").size(),
                    "the shared server's log = the shards' requests");
        }
        assertTrue(three.out().contains("merged from 3 shards"), three.out());
        judgedLikeOneRun(work, merged, ms, 3);
    }

    /**
     * docs/SHARDING.md: a merged run is judged as one run of its requests: the server's ground truth (the shared
     * server's own stats.json), per-state tables and intended-send times of every logged request, stationarity by the
     * client's rule on the merged log (what report then uses), and a verdict that keeps every shard's causes.
     */
    static void judgedLikeOneRun(Path work, RunDir merged, JsonNode ms, int shards) throws Exception {
        JsonNode server = merged.json("server/stats.json");
        assertEquals(server, ms.get("server"), "the shared server's own stats.json is the merged run's ground truth");
        List<Map<String, String>> rows = merged.csv("requests.csv");
        Map<String, Long> byState = new HashMap<>();
        rows.forEach(r -> byState.merge(r.get("state"), 1L, Long::sum));
        JsonNode states = ms.get("response_time_ms").get("overall").get("states");
        assertEquals(byState.size(), states.size(), states.toString());
        byState.forEach((k, v) -> assertEquals(v, states.get(k).get("count").asLong(), "state " + k));
        if (ms.get("errors").asLong() == 0) {
            byState.forEach((k, v) -> assertEquals(
                    v,
                    server.get("by_interaction").path(k).asLong(),
                    k + ": the server served what the client logged"));
        }
        assertEquals(
                rows.size(),
                ms.get("response_time_from_intended_ms")
                        .get("overall")
                        .get("count")
                        .asLong());
        JsonNode st = ms.get("stationarity");
        assertTrue(st.has("little_ratio") && st.get("judged_on").asText().startsWith("the merged log"), st.toString());
        String summaryText = Files.readString(merged.dir.resolve("summary.txt"));
        for (String line : List.of("run phase steady:", "connections (client):", "server ground truth:")) {
            assertTrue(summaryText.contains(line), line + " in\n" + summaryText);
        }
        List<String> causes = new ArrayList<>();
        ms.get("client_health").get("causes").forEach(c -> causes.add(c.asText()));
        String verdict = ms.get("client_health").get("verdict").asText();
        for (int i = 0; i < shards; i++) {
            JsonNode h = new RunDir(merged.dir.resolve("shard-" + i))
                    .json("summary.json")
                    .get("client_health");
            for (JsonNode c : h.get("causes")) {
                assertTrue(causes.contains(c.asText()), "shard " + i + "'s " + c + " in the merged causes " + causes);
                assertTrue(
                        verdict.contains(c.asText() + ": shard " + i + ": "),
                        "shard " + i + "'s " + c + " named in: " + verdict);
            }
        }
        Cli.Result r = Cli.analysis(work, "report", merged.dir.toString());
        assertEquals(0, r.status(), r.err());
        JsonNode little = merged.json("analysis.json").get("arrivals").get("little");
        assertTrue(little.get("source").asText().startsWith("summary.json"), little.toString());
        assertEquals(
                st.get("little_ratio").asDouble(), little.get("little_ratio").asDouble(), 1e-4);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * Ctrl-C (SIGTERM: the same hook) while the shards get ready stops every one before it is given a start instant:
     * nothing reaches the shared server (its own log), each shard's directory holds its partial summary, and nothing is
     * merged, so no file claims a run.
     */
    @Test
    void aStopWhileTheShardsGetReadyStopsThemAllAndNothingIsSent() throws Exception {
        Path dir = work.resolve("stopped");
        Path console = work.resolve("stopped-console.txt");
        // A JIT warm-up of a million requests (60 s at most) keeps the shards getting ready when the stop comes.
        Process p = Cli.client(work, args(dir.toString(), "--shards", "2", "--jit-warmup", "1000000"))
                .redirectErrorStream(true)
                .redirectOutput(console.toFile())
                .start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!(read(dir.resolve("shard-0/console.txt")).contains("getting ready")
                    && read(dir.resolve("shard-1/console.txt")).contains("getting ready"))) {
                assertTrue(p.isAlive(), () -> "ended before its shards got going: " + read(console));
                assertTrue(System.nanoTime() < deadline, () -> "the shards did not start: " + read(console));
                Thread.sleep(100);
            }
            p.destroy();
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), () -> "still running after the stop: " + read(console));
        } finally {
            p.destroyForcibly();
        }
        String out = read(console);
        assertEquals(130, p.exitValue(), out);
        assertTrue(out.contains("error: not merged: stopped before the shards started (nothing was sent)"), out);
        assertFalse(out.contains("starting together"), out);
        assertFalse(Files.exists(dir.resolve("summary.json")), "nothing merged: no summary claims a run");
        for (int i = 0; i < 2; i++) {
            JsonNode ss = new RunDir(dir.resolve("shard-" + i)).json("summary.json");
            assertEquals("partial", ss.get("status").asText(), "shard " + i + ": " + ss);
            assertEquals(0, ss.get("requests").asLong(), "shard " + i);
            assertFalse(ss.get("shard").has("start_at"), "shard " + i + " was given no start instant");
        }
        assertEquals(0, new RunDir(dir).csv("server/requests.csv").size(), "the shared server received nothing");
    }

    /**
     * A shard killed by SIGKILL mid-run leaves no summary.json: nothing is merged, and the parent exits 1 as the exit
     * table says, not the dead shard's 137 (which is no run status).
     */
    @Test
    void aShardKilledMidRunLeavesNothingMergedAndExits1() throws Exception {
        Path dir = work.resolve("killed");
        Path console = work.resolve("killed-console.txt");
        Process p = Cli.client(work, args(dir.toString(), "--shards", "2"))
                .redirectErrorStream(true)
                .redirectOutput(console.toFile())
                .start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!read(console).contains("starting together")) {
                assertTrue(p.isAlive(), () -> "ended before its shards started: " + read(console));
                assertTrue(System.nanoTime() < deadline, () -> "the shards did not start: " + read(console));
                Thread.sleep(100);
            }
            ProcessHandle shard = p.toHandle()
                    .children()
                    .filter(h -> h.info().commandLine().orElse("").contains("--shard"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no shard JVM among the children: " + read(console)));
            shard.destroyForcibly(); // SIGKILL: no shutdown hook, no summary
            assertTrue(p.waitFor(150, TimeUnit.SECONDS), () -> "still running after a shard died: " + read(console));
        } finally {
            p.destroyForcibly();
        }
        String out = read(console);
        assertEquals(1, p.exitValue(), out);
        assertTrue(out.contains("error: not merged: no summary.json in"), out);
        assertFalse(Files.exists(dir.resolve("summary.json")), "nothing merged: no summary claims a run");
    }

    /**
     * SIGTERM while the shared server starts, before any shard: the stop ends with the documented not-merged line and
     * status 130. It once ended with {@code IllegalStateException: Shutdown in progress} (the parent's own shutdown hook
     * could no longer be added).
     */
    @Test
    void aStopWhileTheServerStartsEndsWithTheDocumentedLine() throws Exception {
        Path dir = work.resolve("early");
        Path console = work.resolve("early-console.txt");
        Process p = Cli.client(work, args(dir.toString(), "--shards", "2"))
                .redirectErrorStream(true)
                .redirectOutput(console.toFile())
                .start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!read(console).contains("Starting one embedded RUBiS server")) {
                assertTrue(p.isAlive(), () -> "ended before its server started: " + read(console));
                assertTrue(System.nanoTime() < deadline, () -> "no server started: " + read(console));
                Thread.sleep(20);
            }
            p.destroy(); // SIGTERM while the server populates its database, before the parent's hook exists
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), () -> "still running after the stop: " + read(console));
        } finally {
            p.destroyForcibly();
        }
        String out = read(console);
        assertFalse(out.contains("IllegalStateException"), out);
        assertEquals(130, p.exitValue(), out);
        if (!out.contains("Starting 2 shards")) { // the stop came before the shards (the case at hand)
            assertTrue(out.contains("error: not merged: stopped before the shards started (nothing was sent)"), out);
        }
        assertFalse(Files.exists(dir.resolve("summary.json")), "nothing merged: no summary claims a run");
    }
}
