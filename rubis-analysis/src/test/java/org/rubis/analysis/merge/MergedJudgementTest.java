package org.rubis.analysis.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.analysis.cli.AnalysisMain;
import org.rubis.format.stats.LatencyStats;
import org.rubis.format.stats.Stationarity;

/**
 * A merged run is judged like one run of the same requests: its verdict keeps every cause any shard named, with the
 * shard; its stationarity is the client's rule on the merged log; it has the intended-send times, the connection line,
 * the server's ground truth and the per-state tables a run's summary has.
 */
class MergedJudgementTest {

    @TempDir
    Path tmp;

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String HOST_VERDICT = "SUSPECT: HOST: other processes used 1.90 of 2 cores, 34.2 runnable"
            + " threads on 2 cores on average (procs_running); the client itself was fine (0.05 cores, GC max 3 ms);"
            + " server load unknown (not the embedded server). Accuracy not measured (no packet capture): the figures"
            + " above are indicators only.";
    private static final String CLIENT_VERDICT = "SUSPECT: CLIENT: GC pauses up to 131 ms; server load unknown (not"
            + " the embedded server). Accuracy not measured (no packet capture): the figures above are indicators only.";

    private static int merge(List<Path> dirs, Path out) {
        List<String> a = new ArrayList<>(List.of("merge"));
        dirs.forEach(d -> a.add(d.toString()));
        a.addAll(List.of("--out", out.toString()));
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int status = AnalysisMain.execute(a.toArray(String[]::new), new PrintWriter(o, true), new PrintWriter(e, true));
        assertEquals(0, status, o + "" + e);
        return status;
    }

    private static void edit(Path dir, Consumer<ObjectNode> change) throws Exception {
        ObjectNode s = (ObjectNode) JSON.readTree(dir.resolve("summary.json").toFile());
        change.accept(s);
        Files.writeString(dir.resolve("summary.json"), JSON.writeValueAsString(s));
    }

    private static void verdict(Path dir, String verdict, String... causes) throws Exception {
        edit(dir, s -> {
            ObjectNode h = (ObjectNode) s.get("client_health");
            h.put("verdict", verdict).put("saturated", List.of(causes).contains("CLIENT"));
            var a = h.putArray("causes");
            for (String c : causes) {
                a.add(c);
            }
        });
    }

    private JsonNode mergedHealth(String name, List<Path> dirs) throws Exception {
        Path out = tmp.resolve(name);
        merge(dirs, out);
        return JSON.readTree(out.resolve("summary.json").toFile()).get("client_health");
    }

    @Test
    void everyCauseAShardNamedMakesTheMergedRunSuspectWithTheShardNamed() throws Exception {
        // Both shards SUSPECT because their host was busy: the merged run once said OK.
        List<Path> both = new ShardedRun(2, 6, 3).write(tmp.resolve("both"));
        verdict(both.get(0), HOST_VERDICT, "HOST");
        verdict(both.get(1), HOST_VERDICT, "HOST");
        JsonNode h = mergedHealth("m-both", both);
        assertEquals(List.of("HOST"), causes(h));
        assertFalse(h.get("saturated").asBoolean(), "saturated means the CLIENT, as in a run's summary");
        String v = h.get("verdict").asText();
        assertTrue(v.startsWith("SUSPECT: HOST: shard 0: other processes used 1.90 of 2 cores"), v);
        assertTrue(v.contains("; HOST: shard 1: other processes used 1.90 of 2 cores, 34.2 runnable threads"), v);

        // One shard's host, another's client: both causes, each with its shard.
        List<Path> mixed = new ShardedRun(2, 6, 3).write(tmp.resolve("mixed"));
        verdict(mixed.get(0), CLIENT_VERDICT, "CLIENT");
        verdict(mixed.get(1), HOST_VERDICT, "HOST");
        h = mergedHealth("m-mixed", mixed);
        assertEquals(List.of("CLIENT", "HOST"), causes(h));
        assertTrue(h.get("saturated").asBoolean());
        v = h.get("verdict").asText();
        assertTrue(v.startsWith("SUSPECT: CLIENT: shard 0: GC pauses up to 131 ms; HOST: shard 1: other"), v);

        // Every shard OK: nothing named but the merged run's own errors.
        List<Path> ok = new ShardedRun(2, 6, 3).write(tmp.resolve("ok"));
        h = mergedHealth("m-ok", ok);
        assertEquals(List.of(), causes(h));
        assertFalse(
                h.get("verdict").asText().matches(".*shard [01].*"),
                h.get("verdict").asText());

        // A run that measured nothing is INVALID, whatever its shards' clients did.
        List<Path> invalid = new ShardedRun(2, 6, 3).write(tmp.resolve("invalid"));
        edit(invalid.get(1), s -> s.put("status", "invalid").put("stop_reason", "the target never answered"));
        h = mergedHealth("m-invalid", invalid);
        assertTrue(
                h.get("verdict").asText().startsWith("INVALID: "),
                h.get("verdict").asText());
    }

    @Test
    void targetStatePagesAreLeftOutOfTheMergedRunsErrorShareAsOutOfOneRuns() throws Exception {
        // The synthetic shards' errors (1 in 50) name ERRORS on the merged run...
        List<Path> failed = new ShardedRun(2, 6, 3).write(tmp.resolve("failed"));
        JsonNode h = mergedHealth("m-failed", failed);
        assertTrue(h.get("causes").toString().contains("ERRORS"), h.toString());
        // ...but the same pages reporting the target's stored state (a nickname an earlier run took) are no failure of
        // the client, its backend or the server: a run's summary leaves them out of the share, and so does the merge.
        List<Path> taken = new ShardedRun(2, 6, 3).write(tmp.resolve("taken"));
        for (Path d : taken) {
            Path csv = d.resolve("requests.csv");
            Files.writeString(csv, Files.readString(csv).replace("http-500", "target-state"));
        }
        h = mergedHealth("m-taken", taken);
        assertFalse(h.get("causes").toString().contains("ERRORS"), h.toString());
        assertTrue(
                h.get("verdict").asText().contains("target-state"),
                h.get("verdict").asText());
    }

    /** The causes but ERRORS: the synthetic run's errors (1 in 50) are above the limit on the merged run too. */
    private static List<String> causes(JsonNode h) {
        List<String> c = new ArrayList<>();
        h.get("causes").forEach(x -> c.add(x.asText()));
        c.remove("ERRORS");
        return c;
    }

    /** Think-time moments per shard (count, mean, mean square, mean cube), as a shard's stationarity has them. */
    private static final double[][] THINK = {{100, 0.2, 0.08, 0.048}, {300, 0.1, 0.02, 0.006}};

    @Test
    void theMergedRunIsJudgedOnItsMergedLogAsOneRun() throws Exception {
        ShardedRun run = new ShardedRun(2, 30, 42);
        List<Path> dirs = run.write(tmp.resolve("s"));
        for (int i = 0; i < 2; i++) {
            double[] z = THINK[i];
            edit(dirs.get(i), s -> {
                s.putObject("stationarity")
                        .put("verdict", "not-judged")
                        .put("think_count", (long) z[0])
                        .put("think_mean_s", z[1])
                        .put("mean_think_s", z[1])
                        .put("think_mean_square_s2", z[2])
                        .put("think_mean_cube_s3", z[3])
                        .put("window_s", 1.0)
                        .put("ramp_mode", "stationary");
                s.withArray("warnings")
                        .add("NOT JUDGED: whether the run phase was steady (its share only); its averages may describe"
                                + " no single load level.");
            });
        }
        Path out = tmp.resolve("merged");
        merge(dirs, out);
        JsonNode m = JSON.readTree(out.resolve("summary.json").toFile());

        // What one run of these requests would say: the client's rule on all of them.
        long runStart = ShardedRun.START_AT + ShardedRun.UP_NS;
        long[] windows = new long[(int) (ShardedRun.RUN_NS / 1_000_000_000L)];
        LatencyStats runTimes = new LatencyStats();
        LatencyStats fromIntended = new LatencyStats();
        Map<String, Long> byState = new HashMap<>();
        for (ShardedRun.Req r : run.requests) {
            fromIntended.record(
                    r.send() - r.intended() + r.response(), !r.error().isEmpty());
            byState.merge(r.state(), 1L, Long::sum);
            if (r.phase().equals("run")) {
                windows[(int) ((r.send() - runStart) / 1_000_000_000L)]++;
                runTimes.record(r.response(), !r.error().isEmpty());
            }
        }
        double n = THINK[0][0] + THINK[1][0];
        Stationarity.ThinkMoments z = new Stationarity.ThinkMoments(
                (THINK[0][0] * THINK[0][1] + THINK[1][0] * THINK[1][1]) / n,
                (THINK[0][0] * THINK[0][2] + THINK[1][0] * THINK[1][2]) / n,
                (THINK[0][0] * THINK[0][3] + THINK[1][0] * THINK[1][3]) / n);
        Stationarity one = Stationarity.of(30, windows, 1, runTimes.meanMs() / 1e3, z);
        JsonNode st = m.get("stationarity");
        assertEquals(one.judgement().label(), st.get("verdict").asText(), st.toString());
        assertEquals(one.littleRatio(), st.get("little_ratio").asDouble(), 1e-4);
        assertEquals(one.littleSe(), st.get("little_ratio_se").asDouble(), 1e-4);
        assertEquals(one.slopePerS(), st.get("trend_rps_per_s").asDouble(), 1e-4);
        assertEquals(windows.length, st.get("windows").asInt());
        assertEquals(z.mean(), st.get("mean_think_s").asDouble(), 1e-4);
        for (JsonNode w : m.get("warnings")) {
            assertFalse(w.asText().contains("its share only"), "a shard's own stationarity warning: " + w);
        }

        // The intended-send times and the per-state tables, of every request.
        JsonNode fi = m.get("response_time_from_intended_ms").get("overall");
        assertEquals(run.requests.size(), fi.get("count").asLong());
        assertEquals(fromIntended.percentileMs(99), fi.get("p99").asDouble(), 0.001);
        JsonNode states = m.get("response_time_ms").get("overall").get("states");
        byState.forEach((k, v) -> assertEquals(v, states.get(k).get("count").asLong(), k));
        String text = Files.readString(out.resolve("summary.txt"));
        for (String line : List.of(
                "response time (run, ms):",
                "  from intended send:",
                "run phase steady:",
                "connections (client):",
                "Run (the measurement) - response time in ms",
                "Response time from the intended send instant in ms")) {
            assertTrue(text.contains(line), line + " in\n" + text);
        }

        // report takes the summary's own Little's law, not an estimate from the logs.
        StringWriter o = new StringWriter();
        assertEquals(
                0,
                AnalysisMain.execute(
                        new String[] {"report", out.toString()},
                        new PrintWriter(o, true),
                        new PrintWriter(new StringWriter(), true)));
        JsonNode little = JSON.readTree(out.resolve("analysis.json").toFile())
                .get("arrivals")
                .get("little");
        assertTrue(little.get("source").asText().startsWith("summary.json"), little.toString());
        assertEquals(one.littleRatio(), little.get("little_ratio").asDouble(), 1e-4);
    }

    private static String stats(long requests, long connections, long peak, String home, String browse) {
        return "{\"model\": \"event\", \"uptime_ms\": 1000, \"requests\": " + requests
                + ", \"error_pages\": 0, \"connections_accepted\": " + connections
                + ", \"current_connections\": 0, \"max_concurrent_connections\": " + peak
                + ", \"probe_requests\": 0, \"probe_connections\": 0, \"requests_per_connection\": {\"min\": 1,"
                + " \"max\": 3, \"mean\": 2.0, \"histogram\": {\"1\": 1, \"3\": 1}}, \"by_interaction\": {\"Home\": "
                + home + ", \"Browse\": " + browse + "}, \"faults\": {}}";
    }

    @Test
    void theServersGroundTruthIsInTheMergedSummary() throws Exception {
        // The local runner's layout: one server for all shards, its stats.json beside them.
        Path out = tmp.resolve("local");
        List<Path> dirs = new ShardedRun(2, 6, 3).write(out);
        Files.createDirectories(out.resolve("server"));
        String shared = stats(40, 4, 3, "10", "30");
        Files.writeString(out.resolve("server/stats.json"), shared);
        RunMerge.mergeInPlace(dirs, out);
        JsonNode m = JSON.readTree(out.resolve("summary.json").toFile());
        assertEquals(JSON.readTree(shared), m.get("server"));
        assertTrue(
                Files.readString(out.resolve("summary.txt"))
                        .contains("server ground truth:     40 requests, 4 connections accepted, at most 3 at once"),
                Files.readString(out.resolve("summary.txt")));

        // Each shard with its own server: their counts added up, saying how many servers.
        List<Path> own = new ShardedRun(2, 6, 3).write(tmp.resolve("own"));
        for (int i = 0; i < 2; i++) {
            Files.createDirectories(own.get(i).resolve("server"));
            Files.writeString(
                    own.get(i).resolve("server/stats.json"), stats(20 + i, 2, 2, "5", String.valueOf(15 + i)));
            Files.writeString(
                    own.get(i).resolve("server/requests.csv"),
                    "connection_id,arrival_epoch_ns,completion_epoch_ns,service_ns,interaction,status,bytes,path\n");
        }
        Path merged = tmp.resolve("own-merged");
        merge(own, merged);
        JsonNode s = JSON.readTree(merged.resolve("summary.json").toFile()).get("server");
        assertEquals(2, s.get("servers").asInt());
        assertEquals(41, s.get("requests").asLong());
        assertEquals(4, s.get("connections_accepted").asLong());
        assertEquals(10, s.get("by_interaction").get("Home").asLong());
        assertEquals(31, s.get("by_interaction").get("Browse").asLong());
        assertEquals(
                4,
                s.get("requests_per_connection").get("histogram").get("3").asLong()
                        + s.get("requests_per_connection")
                                .get("histogram")
                                .get("1")
                                .asLong());
    }

    /** A request line of a session another shard owns is refused, as a sessions.csv line is, naming its file and line. */
    @Test
    void aForeignSessionsRequestLineIsRefused() throws Exception {
        List<Path> dirs = new ShardedRun(2, 4, 5).write(tmp.resolve("foreign"));
        Path req = dirs.get(0).resolve("requests.csv");
        List<String> lines = new ArrayList<>(Files.readAllLines(req));
        String last = lines.get(lines.size() - 1);
        lines.add("1000000" + last.substring(last.indexOf(',')));
        Files.write(req, lines);
        List<String> a = new ArrayList<>(List.of("merge"));
        dirs.forEach(d -> a.add(d.toString()));
        a.addAll(List.of("--out", tmp.resolve("foreign-merged").toString()));
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int status = AnalysisMain.execute(a.toArray(String[]::new), new PrintWriter(o, true), new PrintWriter(e, true));
        assertEquals(1, status, o + "" + e);
        assertEquals(1, e.toString().lines().count(), e.toString());
        assertTrue(
                e.toString()
                        .contains(req + ":" + lines.size() + ": the request of session 1000000 (emulated user 1)"
                                + " belongs to shard 1 of 2, not 0"),
                e.toString());
    }
}
