package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.analysis.export.HttperfExport;

/** rubis-analysis on real runs: report, compare and httperf export. */
@Order(1) // among the longest classes: starts first (src/test/pom.xml, testclass.order)
class AnalysisTest {

    @TempDir
    static Path work;

    static RunDirs runs;

    /** rubis-analysis report on the closed run, which the report tests read. */
    static Cli.Result report;

    record RunDirs(Path closed, Path hybrid) {}

    /** The run the httperf replay exports: it goes on while the other tests run (null: no httperf). */
    static BackgroundRun thinking;

    /** The closed run and a hybrid run, and the closed run's report; then the replay's run is started. */
    @BeforeAll
    static void twoRuns() throws Exception {
        // The shared closed run (legacy, 25 users), copied: report writes into the run directory.
        Path closed = SharedRuns.copy(SharedRuns.closed().dir(), work.resolve("closed"));
        Cli.Result b = Cli.run(
                work,
                120,
                "run",
                "--session-rate",
                "20",
                "--ramp-up",
                "0",
                "--duration",
                "5s",
                "--ramp-down",
                "0",
                "--think-scale",
                "0.03",
                "--max-transitions",
                "5",
                "--backend",
                "netty",
                "--seed",
                "3",
                "--out",
                "hybrid",
                "--no-progress",
                "--target",
                SharedServer.target()); // only read for its sessions and times: the shared server
        assertEquals(0, b.status(), b.out() + b.err());
        runs = new RunDirs(closed, work.resolve("hybrid"));
        report = Cli.analysis(work, "report", closed.toString());
        if (Files.isExecutable(HTTPERF)) {
            thinking = BackgroundRun.start(work, thinkingRun());
        }
    }

    @AfterAll
    static void stopThinking() {
        if (thinking != null) {
            thinking.stop();
        }
    }

    @Test
    void reportHasEverySectionAndAnalysisJson() throws Exception {
        assertEquals(0, report.status(), report.err());
        String html = Files.readString(runs.closed().resolve("report.html"));
        for (String id : List.of(
                "id=response-time",
                "id=throughput",
                "id=connections",
                "id=arrivals",
                "id=client-health",
                "id=server",
                "id=cdf",
                "id=response-time-over-time",
                "id=concurrent-connections",
                "id=requests-per-connection")) {
            assertTrue(html.contains(id), "report lacks " + id);
        }
        assertTrue(html.contains("data:image/png;base64,"), "plots are embedded");
        JsonNode a = new RunDir(runs.closed()).json("analysis.json");
        for (String k : List.of(
                "response_time_ms", "throughput", "connections", "arrivals", "client_health", "client_vs_server")) {
            assertTrue(a.has(k), "analysis.json lacks " + k);
        }
        JsonNode cs = a.get("client_vs_server");
        long requests = new RunDir(runs.closed()).csv("requests.csv").size();
        assertEquals(requests, cs.get("matched").asLong(), "every request joined with the server's record");
        assertEquals(0, cs.get("path_mismatches").asLong());
        assertTrue(cs.get("absolute_error_ms").asDouble() >= 0, "the client's times include the server's");
        assertEquals(25.0, a.get("arrivals").get("little").get("N").asDouble(), "the closed run's 25 users");
        assertTrue(a.get("response_time_ms").get("run").get("p95").asDouble() > 0);
        // The summary's figures under the summary's names: the same log gives the same numbers in both tools.
        JsonNode s = new RunDir(runs.closed()).json("summary.json");
        assertEquals(
                s.get("throughput_rps").asDouble(),
                a.get("throughput").get("throughput_rps").asDouble(),
                1e-9);
        assertEquals(
                s.get("attempted_rps").asDouble(),
                a.get("throughput").get("attempted_rps").asDouble(),
                1e-9);
        assertEquals(
                s.get("stationarity").get("little_ratio").asDouble(),
                a.get("arrivals").get("little").get("little_ratio").asDouble(),
                1e-9);
        JsonNode sr = s.get("response_time_ms").get("run");
        JsonNode ar = a.get("response_time_ms").get("run");
        assertEquals(sr.get("p50").asDouble(), ar.get("median").asDouble(), 1e-9);
        assertEquals(sr.get("p99").asDouble(), ar.get("p99").asDouble(), 1e-9);
        assertEquals(sr.get("max").asDouble(), ar.get("max").asDouble(), 1e-9);
        assertTrue(ar.get("p99").asDouble() <= ar.get("max").asDouble());
    }

    /**
     * The figures a reader finds in both the summary and the report are one figure: the most connections open at once
     * is the embedded server's own count (its stats.json, the independent truth) in summary.txt, summary.json,
     * report.html and analysis.json; the CPU per request is the summary's CPU cost headline (fixed cost apart) in both
     * texts; p95 and p99.9 are in both files and equal.
     */
    @Test
    void summaryAndReportGiveTheSameFigures() throws Exception {
        assertEquals(0, report.status(), report.err());
        RunDir d = new RunDir(runs.closed());
        JsonNode s = d.json("summary.json");
        JsonNode a = d.json("analysis.json");
        String summaryText =
                Files.readString(runs.closed().resolve("summary.txt")).replaceAll("\\s+", " ");
        String html = Files.readString(runs.closed().resolve("report.html"));

        long peak =
                d.json("server/stats.json").get("max_concurrent_connections").asLong();
        assertTrue(peak > 0, "the server counted connections");
        assertEquals(peak, s.get("server").get("max_concurrent_connections").asLong());
        assertEquals(peak, a.get("connections").get("max_open_server").asLong());
        assertTrue(summaryText.contains("at most " + peak + " at once"), summaryText);
        assertTrue(
                html.contains("<td>most connections open at once (the server&#39;s count, accept to close)</td><td>"
                        + peak + "</td>"),
                "report.html gives the server's peak, " + peak);

        JsonNode h = s.get("client_health");
        assertTrue(h.get("fixed_cpu_cores").asDouble(-1) >= 0, "the fixed cost was measured: " + h);
        double perRequest = h.get("run_request_cpu_us").asDouble();
        assertEquals(
                perRequest, a.get("client_health").get("cpu_us_per_request").asDouble(), 1e-9);
        assertTrue(
                a.get("client_health").get("cpu_per_request_fixed_cost_apart").asBoolean());
        String headline =
                String.format(Locale.ROOT, "%.1f us per request in the run phase, fixed cost apart", perRequest);
        assertTrue(summaryText.contains("CPU cost: " + headline), summaryText);
        assertTrue(html.contains(headline), "report.html gives the summary's CPU per request: " + headline);

        JsonNode sr = s.get("response_time_ms").get("run");
        JsonNode ar = a.get("response_time_ms").get("run");
        assertTrue(sr.get("p95").asDouble() > 0 && ar.get("p99_9").asDouble() > 0, sr + " / " + ar);
        assertEquals(sr.get("p95").asDouble(), ar.get("p95").asDouble(), 1e-9);
        assertEquals(sr.get("p99_9").asDouble(), ar.get("p99_9").asDouble(), 1e-9);
        assertTrue(
                summaryText.contains(String.format(
                        Locale.ROOT,
                        "p95 %.3f, p99 %.3f, p99.9 %.3f",
                        sr.get("p95").asDouble(),
                        sr.get("p99").asDouble(),
                        sr.get("p99_9").asDouble())),
                summaryText);
    }

    @Test
    void compareTwoRuns() throws Exception {
        Path out = work.resolve("cmp/comparison.html");
        Cli.Result r = Cli.analysis(
                work, "compare", runs.closed().toString(), runs.hybrid().toString(), "--out", out.toString());
        assertEquals(0, r.status(), r.err());
        JsonNode c = new RunDir(out.getParent()).json("comparison.json");
        assertEquals(2, c.get("runs").size());
        assertEquals(1.0, c.get("runs").get(0).get("mean_ratio").asDouble());
        JsonNode second = c.get("runs").get(1);
        assertEquals(
                second.get("mean_ms").asDouble()
                        / c.get("runs").get(0).get("mean_ms").asDouble(),
                second.get("mean_ratio").asDouble(),
                0.01);
        assertEquals("netty", second.get("backend").asText());
        assertTrue(Files.readString(out).contains("id=table2"));
    }

    @Test
    void exportParsedBackGivesTheLoggedSessionsPathsAndThinkTimes() throws Exception {
        Cli.Result r = Cli.analysis(
                work,
                "export-httperf",
                runs.hybrid().toString(),
                "--out",
                work.resolve("httperf").toString());
        assertEquals(0, r.status(), r.err());
        Map<Long, List<Map<String, String>>> bySession = new TreeMap<>();
        for (Map<String, String> row : new RunDir(runs.hybrid()).csv("requests.csv")) {
            bySession
                    .computeIfAbsent(Long.parseLong(row.get("session_id")), k -> new ArrayList<>())
                    .add(row);
        }
        List<HttperfExport.Session> back = HttperfExport.read(work.resolve("httperf/sessions.wsesslog"));
        assertEquals(bySession.size(), back.size());
        for (HttperfExport.Session s : back) {
            List<Map<String, String>> rows = bySession.get(s.id());
            rows.sort(Comparator.comparingInt(x -> Integer.parseInt(x.get("request_index"))));
            assertEquals(rows.stream().map(x -> x.get("path")).toList(), s.paths(), "session " + s.id());
            for (int i = 0; i + 1 < rows.size(); i++) {
                long done = Long.parseLong(rows.get(i).get("send_epoch_ns"))
                        + Long.parseLong(rows.get(i).get("response_ns"));
                double think = (Long.parseLong(rows.get(i + 1).get("send_epoch_ns")) - done) / 1e9;
                assertEquals(think, s.thinkSeconds().get(i), 1e-6, "think " + i + " of session " + s.id());
            }
        }
        long hybridSessions = new RunDir(runs.hybrid()).csv("sessions.csv").size();
        List<String> ia = Files.readAllLines(work.resolve("httperf/interarrivals.txt")).stream()
                .filter(l -> !l.startsWith("#"))
                .toList();
        assertEquals(hybridSessions, ia.size());
    }

    @Test
    void foreignDirectoryIsAClearError() throws Exception {
        Files.createDirectories(work.resolve("empty"));
        Cli.Result r = Cli.analysis(work, "report", work.resolve("empty").toString());
        assertEquals(1, r.status());
        assertEquals(
                "error: " + work.resolve("empty")
                        + ": not a rubis-client run directory (no requests.csv); pass the directory given to run --out",
                r.err().strip());
    }

    /**
     * docs/FAULTS.md: a damaged line is skipped and counted, the rest analysed. A byte that is not UTF-8 in requests.csv,
     * sessions.csv and server/requests.csv, and a line of 100 MB in requests.csv, under a 64 MB heap: report and compare work,
     * the notes say which lines were skipped.
     */
    @Test
    void aLineThatIsNotUtf8OrTooLongIsSkippedAndCounted() throws Exception {
        Path bad = work.resolve("damaged");
        try (var files = Files.walk(runs.closed())) {
            for (Path f : files.toList()) {
                Path to = bad.resolve(runs.closed().relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(f, to);
                }
            }
        }
        Files.deleteIfExists(bad.resolve("report.html"));
        for (String f : List.of("requests.csv", "sessions.csv", "server/requests.csv")) {
            List<byte[]> lines = new ArrayList<>();
            for (String l : Files.readAllLines(bad.resolve(f))) {
                lines.add((l + "\n").getBytes(StandardCharsets.UTF_8));
            }
            byte[] third = lines.get(2);
            third[5] = (byte) 0xff; // line 3: not UTF-8
            try (var out = Files.newOutputStream(bad.resolve(f))) {
                for (int i = 0; i < lines.size(); i++) {
                    out.write(lines.get(i));
                    if (i == 3 && f.equals("requests.csv")) {
                        byte[] chunk = new byte[1 << 20];
                        Arrays.fill(chunk, (byte) 'x');
                        for (int k = 0; k < 100; k++) {
                            out.write(chunk); // line 5: 100 MB with no line break
                        }
                        out.write('\n');
                    }
                }
            }
        }
        for (String[] args : new String[][] {
            {"report", "damaged"}, {"compare", "damaged", runs.closed().toString(), "--out", "cmp-damaged.html"}
        }) {
            List<String> cmd = new ArrayList<>(List.of(
                    Cli.java(),
                    "-Xmx64m",
                    "-jar",
                    Cli.analysisJar().toAbsolutePath().toString()));
            cmd.addAll(List.of(args));
            Process p = new ProcessBuilder(cmd)
                    .directory(work.toFile())
                    .redirectErrorStream(true)
                    .start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, p.waitFor(), output);
            if (args[0].equals("report")) {
                assertTrue(
                        output.contains(
                                "note: requests.csv: 2 malformed lines skipped (first at line 3, 1 not UTF-8, 1 longer than 1 MiB (not read))"),
                        output);
                assertTrue(
                        output.contains("note: sessions.csv: 1 malformed line skipped (first at line 3, 1 not UTF-8)"),
                        output);
                assertTrue(
                        output.contains("server/requests.csv: 1 malformed line skipped (first at line 3, 1 not UTF-8)"),
                        output);
            }
        }
        JsonNode badLines = new RunDir(bad).json("analysis.json").get("bad_lines");
        assertEquals(2, badLines.path("requests.csv").path("count").asInt(), badLines.toString());
    }

    static final Path HTTPERF = Path.of("/usr/bin/httperf");

    /** Every think time of the replay's run: longer than the server's default keep-alive (5 s). */
    static final String THINK_MS = "6000";

    /**
     * The replay's run: three sessions of at most two requests (Home, a think time, one more), 300 ms apart, against
     * an embedded server of its own (the README's server line is for it). Its think times are the transition table's
     * waiting times ({@code workload_use_tpcw_think_time=no}), all {@link #THINK_MS}, so that each session thinks once
     * longer than the server's keep-alive in a run of about 7 s. The run ends when its sessions have.
     */
    static String[] thinkingRun() throws Exception {
        Path shipped = Path.of(
                System.getProperty("rubis.properties.dir", "../../rubis-properties"), "default_transitions.txt");
        List<String> lines = new ArrayList<>();
        boolean states = true; // the states' rows come before "Back probability"; their last cell is the waiting time
        for (String l : Files.readAllLines(shipped, StandardCharsets.ISO_8859_1)) {
            states &= !l.startsWith("Back probability");
            String[] cells = l.split("\t", -1);
            if (states && cells.length > 1 && cells[cells.length - 1].matches("\\d+")) {
                cells[cells.length - 1] = THINK_MS;
            }
            lines.add(String.join("\t", cells));
        }
        Path table = Files.write(work.resolve("thinking_transitions.txt"), lines, StandardCharsets.ISO_8859_1);
        Path arrivals = Files.writeString(work.resolve("thinking_arrivals.txt"), "0\n300\n300\n");
        return new String[] {
            "run",
            "--interarrival-file",
            arrivals.toString(),
            "--ramp-up",
            "0",
            "--duration",
            "60s", // a cap: the run ends when its three sessions have
            "--ramp-down",
            "0",
            "--max-transitions",
            "2",
            "--seed",
            "5",
            "--backend",
            "dedicated",
            "--out",
            "thinking",
            "--no-progress",
            "-Dworkload_transition_table=" + table,
            "-Dworkload_use_tpcw_think_time=no",
            "-Dserver_size=0.01"
        };
    }

    /**
     * The replay works as its README.txt says: a run whose sessions think longer than the embedded server's default 5 s
     * keep-alive ({@link #thinkingRun}), exported; the server started and httperf run with the README's two command
     * lines; every request of every session gets its reply (before, a third failed with connreset: the server had
     * closed the connection during the think time). Needs httperf (Debian package httperf).
     */
    @Test
    void theHttperfReplayRunsAsItsReadmeSays() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(HTTPERF), "httperf is not installed (apt-get install httperf)");
        Cli.Result r = thinking.await(120);
        assertEquals(0, r.status(), r.out() + r.err());
        Path exp = work.resolve("replay");
        Cli.Result e = Cli.analysis(work, "export-httperf", "thinking", "--out", exp.toString());
        assertEquals(0, e.status(), e.err());
        List<HttperfExport.Session> sessions = HttperfExport.read(exp.resolve("sessions.wsesslog"));
        double longest = sessions.stream()
                .flatMap(x -> x.thinkSeconds().stream())
                .mapToDouble(Double::doubleValue)
                .max()
                .orElse(0);
        assertTrue(longest > 5, "a think time longer than the server's default keep-alive: " + longest);
        List<String> readme = Files.readAllLines(exp.resolve("README.txt"));
        String serverLine = readme.stream()
                .filter(l -> l.startsWith("  java -jar rubis-server.jar"))
                .findFirst()
                .orElseThrow()
                .strip();
        String httperfLine = readme.stream()
                .filter(l -> l.startsWith("  httperf "))
                .findFirst()
                .orElseThrow()
                .strip();
        List<String> server = new ArrayList<>(List.of(serverLine.split(" ")));
        server.set(0, Cli.java());
        server.set(2, Cli.serverJar().toAbsolutePath().toString());
        server.addAll(List.of("--size", "0.01"));
        Process srv = new ProcessBuilder(server)
                .redirectErrorStream(true)
                .redirectOutput(work.resolve("replay-server.txt").toFile())
                .start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!Files.readString(work.resolve("replay-server.txt")).contains("rubis-server ready")
                    && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            Process hp = new ProcessBuilder(List.of(httperfLine.split(" ")))
                    .directory(exp.toFile())
                    .redirectErrorStream(true)
                    .start();
            String out = new String(hp.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(hp.waitFor(300, TimeUnit.SECONDS), out);
            int requests = sessions.stream().mapToInt(x -> x.paths().size()).sum();
            assertTrue(out.contains("Errors: total 0 "), "no request failed:\n" + out);
            assertTrue(
                    out.matches("(?s).*Total: connections \\d+ requests " + requests + " replies " + requests + " .*"),
                    "every request replied:\n" + out);
        } finally {
            srv.destroy();
            srv.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
