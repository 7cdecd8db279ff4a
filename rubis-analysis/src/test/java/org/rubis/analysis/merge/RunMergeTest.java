package org.rubis.analysis.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.analysis.RunAnalysis;
import org.rubis.analysis.cli.AnalysisMain;
import org.rubis.analysis.io.CsvStream;
import org.rubis.analysis.io.RunDirectory;
import org.rubis.analysis.report.CompareReport;
import org.rubis.analysis.report.HtmlReport;

class RunMergeTest {

    @TempDir
    Path tmp;

    private static final ObjectMapper JSON = new ObjectMapper();

    private record Cli(int status, String out, String err) {}

    private static Cli cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = AnalysisMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Cli(status, out.toString(), err.toString());
    }

    private static String[] args(List<Path> dirs, Path out) {
        List<String> a = new ArrayList<>(List.of("merge"));
        dirs.forEach(d -> a.add(d.toString()));
        a.addAll(List.of("--out", out.toString()));
        return a.toArray(String[]::new);
    }

    private static List<Map<String, String>> rows(Path csv) throws IOException {
        List<Map<String, String>> rows = new ArrayList<>();
        try (CsvStream.Cursor c = new CsvStream(csv).open(List.of())) {
            List<String> h = c.header();
            for (CsvStream.Row r = c.next(); r != null; r = c.next()) {
                Map<String, String> m = new HashMap<>();
                for (int i = 0; i < h.size(); i++) {
                    m.put(h.get(i), r.values().get(i));
                }
                rows.add(m);
            }
        }
        return rows;
    }

    private static double exactPercentileMs(long[] sorted, double p) {
        return sorted[(int) Math.ceil(p / 100 * sorted.length) - 1] / 1e6;
    }

    @Test
    void threeShardsMergeIntoOneRunInCompletionOrderWithRecomputedSummary() throws Exception {
        ShardedRun run = new ShardedRun(3, 30, 42, 0, 300_000, 600_000);
        List<Path> dirs = run.write(tmp.resolve("shards"));
        Path out = tmp.resolve("merged");
        Cli c = cli(args(dirs, out));
        assertEquals(0, c.status(), c.err());
        assertFalse(c.out().contains("warning:"), c.out());

        // Every request of every shard exactly once, in completion order, tagged with its shard.
        List<Map<String, String>> merged = rows(out.resolve("requests.csv"));
        assertEquals(run.requests.size(), merged.size());
        List<String> expectedKeys = run.requests.stream()
                .map(r -> r.session() + "/" + r.index())
                .sorted()
                .toList();
        assertEquals(
                expectedKeys,
                merged.stream()
                        .map(r -> r.get("session_id") + "/" + r.get("request_index"))
                        .sorted()
                        .toList());
        long last = Long.MIN_VALUE;
        for (Map<String, String> r : merged) {
            long done = Long.parseLong(r.get("send_epoch_ns")) + Long.parseLong(r.get("response_ns"));
            assertTrue(done >= last, "completion order");
            last = done;
            long user = Long.parseLong(r.get("session_id")) / 1_000_000;
            assertEquals(String.valueOf(user % 3), r.get("shard"), "user u runs on shard u mod N");
        }
        assertEquals(run.sessions.size(), rows(out.resolve("sessions.csv")).size());
        assertEquals(30, rows(out.resolve("client-health.csv")).size());
        assertEquals(3, rows(out.resolve("client-gc.csv")).size());
        for (int s = 0; s < 3; s++) {
            assertTrue(Files.isRegularFile(out.resolve("shards/shard-" + s + "/summary.json")));
        }

        // Counts: the sum of the shards'; percentiles from all requests.
        JsonNode m = JSON.readTree(out.resolve("summary.json").toFile());
        List<JsonNode> sums = new ArrayList<>();
        for (Path d : dirs) {
            sums.add(JSON.readTree(d.resolve("summary.json").toFile()));
        }
        for (String k : List.of(
                "requests",
                "errors",
                "sessions_started",
                "sessions_completed",
                "sessions_aborted_at_end",
                "connections_opened",
                "users_started",
                "distinct_connections")) {
            assertEquals(
                    sums.stream().mapToLong(x -> x.get(k).asLong()).sum(),
                    m.get(k).asLong(),
                    k);
        }
        assertEquals("complete", m.get("status").asText());
        assertEquals(42, m.get("seed").asLong());
        long[] runTimes = run.requests.stream()
                .filter(r -> r.phase().equals("run"))
                .mapToLong(ShardedRun.Req::response)
                .sorted()
                .toArray();
        JsonNode rp = m.get("response_time_ms").get("run");
        assertEquals(runTimes.length, rp.get("count").asLong());
        assertEquals(
                Arrays.stream(runTimes).average().orElseThrow() / 1e6,
                rp.get("mean").asDouble(),
                0.0011);
        assertEquals(runTimes[0] / 1e6, rp.get("min").asDouble(), 0.0011);
        assertEquals(runTimes[runTimes.length - 1] / 1e6, rp.get("max").asDouble(), 0.0011);
        for (String[] p : new String[][] {{"p50", "50"}, {"p90", "90"}, {"p99", "99"}}) {
            double exact = exactPercentileMs(runTimes, Double.parseDouble(p[1]));
            // HdrHistogram with 3 significant digits, rounded to the microsecond.
            assertEquals(exact, rp.get(p[0]).asDouble(), exact * 0.001 + 0.0011, p[0]);
        }
        // Shards differ (shard i is i + 1 times slower): an average of their p90s is not the p90.
        double averaged = 0;
        for (int s = 0; s < 3; s++) {
            int shard = s;
            long[] t = run.requests.stream()
                    .filter(r -> r.shard() == shard && r.phase().equals("run"))
                    .mapToLong(ShardedRun.Req::response)
                    .sorted()
                    .toArray();
            averaged += exactPercentileMs(t, 90) / 3;
        }
        assertTrue(
                Math.abs(averaged - rp.get("p90").asDouble())
                        > 0.05 * rp.get("p90").asDouble(),
                "the test data tells merging from averaging");
        long homeRun = run.requests.stream()
                .filter(r -> r.phase().equals("run") && r.state().equals("Home"))
                .count();
        assertEquals(homeRun, rp.get("states").get("Home").get("count").asLong());
        // The run phase's CPU by thread role: the shards' seconds summed, over all run-phase requests.
        JsonNode byThread = m.get("client_health").get("run_cpu_seconds_by_thread");
        assertEquals(0.5 * (1 + 2 + 3), byThread.get("event_loops").asDouble(), 1e-9);
        assertEquals(0.1 * (1 + 2 + 3), byThread.get("log_writer").asDouble(), 1e-9);
        assertEquals(
                0.5 * 6 * 1e6 / runTimes.length,
                m.get("client_health")
                        .get("run_cpu_us_per_request_by_thread")
                        .get("event_loops")
                        .asDouble(),
                0.01);

        // Clock anchors and offsets.
        JsonNode mg = m.get("merged");
        assertEquals(3, mg.get("shard_count").asInt());
        assertEquals(ShardedRun.START_AT, mg.get("start_at_epoch_ns").asLong());
        for (int s = 0; s < 3; s++) {
            JsonNode sh = mg.get("shards").get(s);
            assertEquals(
                    sums.get(s).get("clock").get("anchor_epoch_ns").asLong(),
                    sh.get("anchor_epoch_ns").asLong());
            assertEquals(s * 0.3, sh.get("start_offset_ms").asDouble(), 1e-9);
        }
        assertEquals(0.6, mg.get("run_start_spread_ms").asDouble(), 1e-9);
        // No warning but the one a run of 6 s gets: its run phase is too short to judge whether it was steady.
        assertEquals(1, m.get("warnings").size(), m.get("warnings").toString());
        assertTrue(
                m.get("warnings").get(0).asText().startsWith("NOT JUDGED: whether the run phase was steady (too short"),
                m.get("warnings").toString());
    }

    @Test
    void oneShardMergesToItsOwnLinesWithAShardColumn() throws Exception {
        List<Path> dirs = new ShardedRun(1, 5, 1).write(tmp.resolve("one"));
        Path out = tmp.resolve("m1");
        assertEquals(0, cli(args(dirs, out)).status());
        for (String f : List.of("requests.csv", "sessions.csv", "client-health.csv", "client-gc.csv")) {
            List<String> in = Files.readAllLines(dirs.get(0).resolve(f));
            List<String> expected = new ArrayList<>();
            expected.add(in.get(0) + ",shard");
            in.stream().skip(1).forEach(l -> expected.add(l + ",0"));
            assertEquals(
                    expected,
                    Files.readAllLines(out.resolve(f)),
                    f + ": byte-for-byte the shard's lines, in the same order");
        }
    }

    @Test
    void shardsThatStartedApartAreWarnedAbout() throws Exception {
        List<Path> dirs = new ShardedRun(2, 6, 7, 0, 5_000_000).write(tmp.resolve("apart"));
        Cli c = cli(args(dirs, tmp.resolve("m")));
        assertEquals(0, c.status(), c.err());
        assertTrue(c.out().contains("warning: the shards' runs started up to 5.000 ms apart"), c.out());
        JsonNode m = JSON.readTree(tmp.resolve("m/summary.json").toFile());
        assertEquals(5.0, m.get("merged").get("run_start_spread_ms").asDouble(), 1e-9);
        assertTrue(
                m.get("warnings").toString().contains("shard 1 began its run 5.000 ms after the start instant"),
                m.get("warnings").toString());
    }

    @Test
    void reportAndCompareReadAMergedRun() throws Exception {
        ShardedRun run = new ShardedRun(3, 24, 9);
        List<Path> dirs = run.write(tmp.resolve("s"));
        Path out = tmp.resolve("merged");
        assertEquals(0, cli(args(dirs, out)).status());
        RunAnalysis a = RunAnalysis.of(new RunDirectory(out));
        assertEquals(run.requests.size(), a.requests());
        assertEquals(run.sessions.size(), a.sessions().started());
        assertEquals(3, a.gcPauses().size(), "every shard's GC pauses");
        assertTrue(a.notes().isEmpty(), a.notes().toString());
        long runCount =
                run.requests.stream().filter(r -> r.phase().equals("run")).count();
        long runServed = run.requests.stream()
                .filter(r -> r.phase().equals("run") && r.error().isEmpty())
                .count();
        assertTrue(runServed < runCount, "the synthetic run has failed requests (else this shows nothing)");
        // The summary's meanings: throughput counts successful requests, attempted_rps every one.
        assertEquals(runServed / (ShardedRun.RUN_NS / 1e9), a.throughput(), 1e-9);
        assertEquals(runCount / (ShardedRun.RUN_NS / 1e9), a.attemptedRps(), 1e-9);
        JsonNode merged = JSON.readTree(out.resolve("summary.json").toFile());
        assertEquals(
                a.throughput(),
                merged.get("throughput_rps").asDouble(),
                0.001,
                "merge and report: one figure, one name");
        assertEquals(a.attemptedRps(), merged.get("attempted_rps").asDouble(), 0.001);
        Cli r = cli("report", out.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(Files.readString(out.resolve("report.html")).contains("id=client-health"));
        JsonNode analysis = JSON.readTree(out.resolve("analysis.json").toFile());
        assertEquals(
                a.times().run().percentileMs(99),
                analysis.get("response_time_ms").get("run").get("p99").asDouble(),
                0.001);
        Path cmp = tmp.resolve("cmp/comparison.html");
        Cli k = cli("compare", out.toString(), dirs.get(0).toString(), "--out", cmp.toString());
        assertEquals(0, k.status(), k.err());
        JsonNode cj = JSON.readTree(cmp.resolveSibling("comparison.json").toFile());
        assertEquals(runCount, cj.get("runs").get(0).get("requests").asLong());
        Cli x = cli(
                "export-httperf",
                out.toString(),
                "--out",
                tmp.resolve("httperf").toString());
        assertEquals(0, x.status(), x.err());
        assertTrue(x.out().startsWith("exported " + run.sessions.size() + " sessions"), x.out());
        new HtmlReport(a).write(tmp.resolve("again/report.html"));
        new CompareReport(List.of(a, RunAnalysis.of(new RunDirectory(dirs.get(1)))))
                .write(tmp.resolve("again/cmp.html"));
    }

    @Test
    void aCutShardLogIsMergedWithWarnings() throws Exception {
        ShardedRun run = new ShardedRun(2, 8, 3);
        List<Path> dirs = run.write(tmp.resolve("cut"));
        Path req = dirs.get(1).resolve("requests.csv");
        String text = Files.readString(req);
        Files.writeString(req, text.substring(0, text.length() - 20)); // killed mid-line
        Cli c = cli(args(dirs, tmp.resolve("m")));
        assertEquals(0, c.status(), c.err());
        assertEquals(
                run.requests.size() - 1, rows(tmp.resolve("m/requests.csv")).size());
        assertTrue(c.out().contains("ends with an incomplete line"), c.out());
        assertTrue(
                c.out()
                        .contains("requests: " + (run.requests.size() - 1) + " in the merged logs but "
                                + run.requests.size()),
                c.out());
    }

    /**
     * A merged run says how its worst shard ended (docs/SHARDING.md): a shard that measured nothing or whose target
     * died
     * is not hidden behind "partial", in summary.json, in merged.shards[] and in the stop reason.
     */
    @Test
    void theMergedStatusIsTheWorstShardsStatus() throws Exception {
        String[][] cases = {
            {"complete", "complete", "complete"},
            {"complete", "partial", "partial"},
            {"partial", "failed", "failed"},
            {"failed", "invalid", "invalid"},
            {"complete", "target-died", "target-died"},
            {"target-died", "invalid", "target-died"},
        };
        for (String[] c : cases) {
            List<Path> dirs = new ShardedRun(2, 6, 3).write(tmp.resolve("st-" + c[0] + "-" + c[1]));
            for (int i = 0; i < 2; i++) {
                String status = c[i];
                edit(
                        dirs.get(i),
                        s -> s.put("status", status)
                                .put("partial", !status.equals("complete"))
                                .put("stop_reason", status.equals("complete") ? "complete" : "why " + status));
            }
            Path out = tmp.resolve("merged-" + c[0] + "-" + c[1]);
            Cli r = cli(args(dirs, out));
            assertEquals(0, r.status(), r.err());
            JsonNode m = JSON.readTree(out.resolve("summary.json").toFile());
            assertEquals(c[2], m.get("status").asText(), String.join(" + ", c[0], c[1]));
            assertEquals(!c[2].equals("complete"), m.get("partial").asBoolean());
            assertTrue(r.out().contains("status " + c[2] + ")"), r.out());
            for (int i = 0; i < 2; i++) {
                assertEquals(
                        c[i], m.get("merged").get("shards").get(i).get("status").asText());
                if (!c[i].equals("complete")) {
                    assertTrue(
                            m.get("stop_reason").asText().contains("shard " + i + ": " + c[i] + " (why " + c[i] + ")"),
                            m.get("stop_reason").asText());
                }
            }
            String statusLine = Files.readAllLines(out.resolve("summary.txt")).stream()
                    .filter(l -> l.startsWith("status:"))
                    .findFirst()
                    .orElseThrow();
            assertTrue(statusLine.substring("status:".length()).trim().startsWith(c[2]), statusLine);
        }
    }

    /**
     * A shard that is not given (its pod never wrote a directory) or has no summary.json (killed before its end): the
     * others are merged, the run is {@code partial}, and the summary, its stop reason and the output name the shard;
     * the figures are those of the shards that ran (a Kubernetes Job's lost pod leaves the others running).
     */
    @Test
    void aMissingOrKilledShardIsLeftOutAndNamed() throws Exception {
        for (boolean given : new boolean[] {false, true}) {
            ShardedRun run = new ShardedRun(3, 9, 5);
            List<Path> dirs = run.write(tmp.resolve("lost-" + given));
            List<Path> in = new ArrayList<>(List.of(dirs.get(0), dirs.get(2)));
            if (given) {
                Files.delete(dirs.get(1).resolve("summary.json"));
                in.add(1, dirs.get(1));
            }
            Path out = tmp.resolve("merged-lost-" + given);
            Cli r = cli(args(in, out));
            assertEquals(0, r.status(), r.err());
            JsonNode m = JSON.readTree(out.resolve("summary.json").toFile());
            assertEquals("partial", m.get("status").asText());
            assertTrue(m.get("partial").asBoolean());
            String why = given ? "no summary.json in [" + dirs.get(1) + "]" : "no directory given";
            assertTrue(
                    m.get("stop_reason").asText().contains("shard 1 of 3: missing (" + why),
                    m.get("stop_reason").asText());
            assertEquals("[1]", m.get("merged").get("missing_shards").toString());
            assertEquals(3, m.get("merged").get("shard_count").asInt());
            assertEquals(2, m.get("merged").get("shards").size());
            long ran = run.requests.stream().filter(q -> q.shard() != 1).count();
            assertEquals(ran, m.get("requests").asLong(), "the requests of the shards that ran");
            assertEquals(ran, rows(out.resolve("requests.csv")).size());
            assertTrue(r.out().contains("shard 1 of 3: missing") || r.err().contains("shard 1 of 3: missing"), r.out());
            String statusLine = Files.readAllLines(out.resolve("summary.txt")).stream()
                    .filter(l -> l.startsWith("status:"))
                    .findFirst()
                    .orElseThrow();
            assertTrue(statusLine.contains("partial") && statusLine.contains("shard 1 of 3: missing"), statusLine);
        }
    }

    @Test
    void aShardWithAStatusMergeDoesNotKnowIsRefused() throws Exception {
        List<Path> dirs = new ShardedRun(2, 6, 3).write(tmp.resolve("unknown"));
        edit(dirs.get(1), s -> s.put("status", "stopped"));
        assertOneLineError(dirs, dirs.get(1).toString(), "status \"stopped\"", "target-died");
    }

    private static void edit(Path dir, Consumer<ObjectNode> change) throws Exception {
        ObjectNode s = (ObjectNode) JSON.readTree(dir.resolve("summary.json").toFile());
        change.accept(s);
        Files.writeString(dir.resolve("summary.json"), JSON.writeValueAsString(s));
    }

    private void assertOneLineError(List<Path> dirs, String... parts) {
        Path out = tmp.resolve("out-" + System.nanoTime());
        Cli c = cli(args(dirs, out));
        assertEquals(1, c.status(), c.out() + c.err());
        assertEquals(1, c.err().lines().count(), c.err());
        assertTrue(c.err().startsWith("error: "), c.err());
        for (String p : parts) {
            assertTrue(c.err().contains(p), "'" + p + "' in: " + c.err());
        }
    }

    @Test
    void badInputIsOneLineNamingTheDirectoryAndTheFix() throws Exception {
        List<Path> dirs = new ShardedRun(3, 9, 5).write(tmp.resolve("ok"));

        Path seed = tmp.resolve("seed");
        List<Path> other = new ShardedRun(3, 9, 6).write(seed);
        assertOneLineError(
                List.of(dirs.get(0), other.get(1), dirs.get(2)),
                other.get(1) + ": seed 6 differs from " + dirs.get(0),
                "same --seed");

        ShardedRun changed = new ShardedRun(3, 9, 5);
        changed.configSha = "0".repeat(64);
        Path cfg = changed.writeShard(tmp.resolve("cfg/shard-1"), 1);
        assertOneLineError(
                List.of(dirs.get(0), cfg, dirs.get(2)), cfg + ": its configuration", "same properties and options");

        assertOneLineError(
                List.of(dirs.get(0), dirs.get(1), dirs.get(1)),
                dirs.get(1) + ": shard index 1 is also " + dirs.get(1),
                "once");

        Path notRun = Files.createDirectories(tmp.resolve("photos"));
        assertOneLineError(
                List.of(dirs.get(0), notRun), notRun + ": not a rubis-client run directory (no requests.csv)");

        Path single = tmp.resolve("single");
        new ShardedRun(1, 3, 5).write(single);
        edit(single.resolve("shard-0"), s -> s.remove("shard"));
        assertOneLineError(
                List.of(single.resolve("shard-0")), single.resolve("shard-0") + ": not a shard", "run --shard I/N");

        // Nothing but shards without a summary: nothing to merge.
        Path killed = tmp.resolve("killed");
        List<Path> k = new ShardedRun(2, 4, 5).write(killed);
        Files.delete(k.get(1).resolve("summary.json"));
        assertOneLineError(List.of(k.get(1)), k.get(1) + ": summary.json is missing", "re-run");

        // A session on the wrong shard: the directories do not follow the contract.
        Path wrong = tmp.resolve("wrong");
        List<Path> w = new ShardedRun(2, 4, 5).write(wrong);
        Path ses = w.get(0).resolve("sessions.csv");
        List<String> lines = new ArrayList<>(Files.readAllLines(ses));
        lines.set(1, lines.get(1).replaceFirst("^(\\d+),0,", "1$1,1,"));
        Files.write(ses, lines);
        assertOneLineError(w, ses + ":2: session ", "belongs to shard 1 of 2, not 0");

        Path full = Files.createDirectories(tmp.resolve("full"));
        Files.writeString(full.resolve("x.txt"), "x");
        Cli c = cli(args(dirs, full));
        assertEquals(1, c.status());
        assertTrue(
                c.err().startsWith("error: " + full + ": exists and is not empty; choose a new directory for --out"),
                c.err());

        // --out naming one of the shards is refused before anything is written (that shard is not empty either,
        // but this is the mistake to name)
        Cli same = cli(args(dirs, dirs.get(1)));
        assertEquals(1, same.status(), same.out() + same.err());
        assertTrue(
                same.err()
                        .startsWith("error: " + dirs.get(1)
                                + ": --out is one of the shard directories; choose a new directory"),
                same.err());

        Path merged = tmp.resolve("m");
        assertEquals(0, cli(args(dirs, merged)).status());
        assertOneLineError(List.of(merged), merged + ": this is already a merged run");
        try (Stream<Path> s = Files.list(tmp.resolve("ok"))) {
            assertEquals(3, s.count(), "merge never writes into its inputs");
        }
    }

    @Test
    void aLoadProfileMergesIntoIntervalsRecomputedFromTheMergedRequests() throws Exception {
        ShardedRun run = new ShardedRun(3, 30, 11, 0, 300_000, 600_000);
        run.profile = true;
        List<Path> dirs = run.write(tmp.resolve("shards"));
        Path out = tmp.resolve("merged");
        Cli c = cli(args(dirs, out));
        assertEquals(0, c.status(), c.err());
        assertFalse(c.out().contains("warning:"), c.out());

        JsonNode m = JSON.readTree(out.resolve("summary.json").toFile());
        assertEquals("users", m.get("profile").get("unit").asText());
        JsonNode intervals = m.get("intervals");
        assertEquals(2, intervals.size());
        List<JsonNode> shards = new ArrayList<>();
        for (Path d : dirs) {
            shards.add(JSON.readTree(d.resolve("summary.json").toFile()).get("intervals"));
        }
        Map<String, Long> logged = new HashMap<>();
        for (Map<String, String> r : rows(out.resolve("requests.csv"))) {
            logged.merge(r.get("interval"), 1L, Long::sum);
        }
        for (int i = 0; i < 2; i++) {
            int in = i;
            JsonNode o = intervals.get(i);
            // Counts: the shards' added up, and what the merged requests.csv names.
            long shardSum = shards.stream()
                    .mapToLong(x -> x.get(in).get("requests").asLong())
                    .sum();
            assertEquals(shardSum, o.get("requests").asLong(), "interval " + i);
            assertEquals(logged.get(String.valueOf(i)), o.get("requests").asLong(), "interval " + i);
            assertEquals(30, o.get("users_planned").asDouble(), 1e-9, "the shards' planned shares add up");
            assertEquals(
                    shards.stream()
                            .mapToDouble(x -> x.get(in).get("users_achieved").asDouble())
                            .sum(),
                    o.get("users_achieved").asDouble(),
                    1e-9);
            // Percentiles from every request of the interval, not the shards' averaged.
            List<ShardedRun.Req> reqs = run.requests.stream()
                    .filter(r -> ShardedRun.interval(r) == in)
                    .toList();
            long[] times =
                    reqs.stream().mapToLong(ShardedRun.Req::response).sorted().toArray();
            JsonNode rt = o.get("response_time_ms");
            assertEquals(times.length, rt.get("count").asLong());
            assertEquals(
                    reqs.stream().filter(r -> !r.error().isEmpty()).count(),
                    o.get("errors").asLong());
            for (String[] p : new String[][] {{"p50", "50"}, {"p90", "90"}, {"p99", "99"}}) {
                double exact = exactPercentileMs(times, Double.parseDouble(p[1]));
                assertEquals(exact, rt.get(p[0]).asDouble(), exact * 0.001 + 0.0011, "interval " + i + " " + p[0]);
            }
            assertEquals(
                    (times.length - o.get("errors").asLong()) / (ShardedRun.PROFILE_STEP_NS / 1e9),
                    o.get("throughput_rps").asDouble(),
                    0.001);
        }
        assertEquals(
                "steady", intervals.get(0).get("stationarity").get("verdict").asText());
        assertEquals(
                "not-steady",
                intervals.get(1).get("stationarity").get("verdict").asText(),
                "one shard's share not steady");
        String text = Files.readString(out.resolve("summary.txt"));
        assertTrue(text.contains("Load profile: steps.txt (step, users, leave end-of-session), 2 intervals"), text);
        assertTrue(text.lines().anyMatch(l -> l.matches("\\s+1 3\\.0-6\\.0\\s+30\\s+30\\.3\\s.*NO\\s.*")), text);
    }
}
