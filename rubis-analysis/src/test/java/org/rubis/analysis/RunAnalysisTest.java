package org.rubis.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.analysis.io.AnalysisException;
import org.rubis.analysis.io.RunDirectory;
import org.rubis.analysis.report.CompareReport;
import org.rubis.analysis.report.HtmlReport;
import org.rubis.format.run.Columns;
import org.rubis.format.run.Phase;

class RunAnalysisTest {

    @TempDir
    Path tmp;

    /** n one-request sessions whose starts are separated by the given gaps (ns). */
    private RunAnalysis sessionsWithGaps(String name, long[] gaps) throws Exception {
        SyntheticRun r = new SyntheticRun();
        long t = 0;
        for (int i = 0; i < gaps.length; i++) {
            t += gaps[i];
            r.request(i, 0, "Home", "/PHP/index.html", "run", t, t, 1_000_000, "", "127.0.0.1:" + (10000 + i), true);
            r.session(i, t, t + 1_000_000, 1, "end_of_session");
        }
        return RunAnalysis.of(new RunDirectory(r.write(tmp.resolve(name))));
    }

    /** A run directory of {@code n} run-phase Home requests, one a microsecond, each on its own connection. */
    private static Path homeRequests(int n, Path dir) throws Exception {
        SyntheticRun r = new SyntheticRun();
        for (int i = 0; i < n; i++) {
            r.request(i, 0, "Home", "/PHP/index.html", "run", i * 1000L, i * 1000L, 1000, "", "c" + i, true);
        }
        return r.write(dir);
    }

    @Test
    void poissonArrivalsHaveCoefficientOfVariationNearOne() throws Exception {
        SplittableRandom rnd = new SplittableRandom(11);
        long[] gaps = new long[20_000];
        for (int i = 0; i < gaps.length; i++) {
            gaps[i] = (long) (-Math.log(1 - rnd.nextDouble()) * 50_000_000L);
        }
        RunAnalysis a = sessionsWithGaps("poisson", gaps);
        // CoV of n exponential gaps has standard error about 1/sqrt(n) = 0.007; 0.03 is over 4 sigma.
        assertEquals(1.0, a.sessions().interArrival().cov(), 0.03);
        assertEquals(1.0, a.requestInterArrival().cov(), 0.03);
        assertTrue(RunAnalysis.arrivalVerdict(a.sessions().interArrival()).startsWith("consistent with Poisson"));
    }

    @Test
    void deterministicArrivalsHaveCoefficientOfVariationZero() throws Exception {
        long[] gaps = new long[500];
        Arrays.fill(gaps, 100_000_000L);
        RunAnalysis a = sessionsWithGaps("det", gaps);
        assertEquals(0.0, a.sessions().interArrival().cov(), 1e-9);
        assertEquals(100.0, a.sessions().interArrival().mean() / 1e6, 1e-9);
        assertTrue(RunAnalysis.arrivalVerdict(a.sessions().interArrival()).startsWith("deterministic"));
    }

    @Test
    void requestInterArrivalsAreThoseOfTheRunPhaseOnly() throws Exception {
        // A ramp with irregular gaps, then a run phase sending every 100 ms, then a down ramp: only the
        // run phase's regular gaps may reach the request CoV (0), not the ramps' (which would make it > 0).
        SyntheticRun r = new SyntheticRun();
        SplittableRandom rnd = new SplittableRandom(3);
        long t = 0;
        int id = 0;
        for (String phase : new String[] {"up", "run", "down"}) {
            for (int i = 0; i < 50; i++, id++) {
                t += phase.equals("run") ? 100_000_000L : 1 + rnd.nextLong(400_000_000L);
                r.request(
                        id,
                        0,
                        "Home",
                        "/PHP/index.html",
                        phase,
                        t,
                        t,
                        1_000_000,
                        "",
                        "127.0.0.1:" + (10000 + id),
                        true);
                r.session(id, t, t + 1_000_000, 1, "end_of_session");
            }
        }
        RunAnalysis a = RunAnalysis.of(new RunDirectory(r.write(tmp.resolve("phases"))));
        assertEquals(49, a.requestInterArrival().count());
        assertEquals(0.0, a.requestInterArrival().cov(), 1e-9);
        assertEquals(100.0, a.requestInterArrival().mean() / 1e6, 1e-9);
    }

    @Test
    void percentilesMatchADirectComputation() throws Exception {
        SplittableRandom rnd = new SplittableRandom(5);
        SyntheticRun r = new SyntheticRun();
        int n = 10_000;
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            values[i] = 100_000 + (long) (-Math.log(1 - rnd.nextDouble()) * 3_000_000); // ~3 ms exponential
            r.request(
                    i,
                    0,
                    i % 2 == 0 ? "Home" : "ViewItem",
                    "/PHP/x",
                    "run",
                    i * 1_000_000L,
                    i * 1_000_000L,
                    values[i],
                    "",
                    "c" + i,
                    true);
        }
        RunAnalysis a = RunAnalysis.of(new RunDirectory(r.write(tmp.resolve("pct"))));
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        for (double p : new double[] {50, 90, 95, 99}) {
            double exact = sorted[(int) Math.ceil(p / 100 * n) - 1] / 1e6;
            // HdrHistogram with 3 significant digits: within 0.1 % of the exact value.
            assertEquals(exact, a.times().run().percentileMs(p), exact * 0.001, "p" + p);
        }
        assertEquals(
                Arrays.stream(values).average().orElseThrow() / 1e6,
                a.times().run().meanMs(),
                1e-9);
        assertEquals(sorted[n - 1] / 1e6, a.times().overall().maxMs(), 1e-9);
        assertEquals(5000, a.times().byState().get("Home").count());
    }

    @Test
    void responseTimeFromTheIntendedSendAddsTheSendLateness() throws Exception {
        // A stalled client: 100 requests of 1 ms, the last 10 sent 200 ms after their intended instant.
        // Service time p99 stays 1 ms; from the schedule, the users waited 201 ms (coordinated omission).
        SyntheticRun r = new SyntheticRun();
        for (int i = 0; i < 100; i++) {
            long intended = i * 1_000_000_000L;
            long late = i >= 90 ? 200_000_000L : 0;
            r.request(i, 0, "Home", "/PHP/index.html", "run", intended, intended + late, 1_000_000, "", "c" + i, true);
        }
        RunAnalysis a = RunAnalysis.of(new RunDirectory(r.write(tmp.resolve("co"))));
        assertEquals(1.0, a.times().run().percentileMs(99), 0.01);
        assertEquals(201.0, a.times().byPhaseFromIntended().get(Phase.RUN).percentileMs(99), 0.3);
        assertEquals(1.0, a.times().byPhaseFromIntended().get(Phase.RUN).percentileMs(50), 0.01);
        assertEquals(1.0 + 20.0, a.times().byPhaseFromIntended().get(Phase.RUN).meanMs(), 1e-6);
        assertEquals(100, a.times().overallFromIntended().count());
    }

    @Test
    void aSharedConnectionIsCountedOnce() throws Exception {
        // Three sessions of four requests; connection A carries sessions 1 and 2 and half of 3.
        SyntheticRun r = new SyntheticRun();
        long t = 0;
        String[][] conns = {{"A", "A", "A", "A"}, {"A", "A", "A", "A"}, {"A", "B", "A", "B"}};
        for (int s = 0; s < 3; s++) {
            for (int i = 0; i < 4; i++) {
                t += 10_000_000;
                r.request(
                        s,
                        i,
                        "Home",
                        "/PHP/index.html",
                        "run",
                        t,
                        t,
                        2_000_000,
                        "",
                        conns[s][i],
                        s == 0 && i == 0 || s == 2 && i == 1);
            }
            r.session(s, t - 40_000_000, t, 4, "end_of_session");
        }
        RunAnalysis a = RunAnalysis.of(new RunDirectory(r.write(tmp.resolve("shared"))));
        assertEquals(2, a.connections().distinct());
        assertEquals(2, a.connections().opened());
        assertEquals(Map.of(10, 1L, 2, 1L), a.connections().requestsPerConnection());
        assertEquals(Map.of(3, 1L, 1, 1L), a.connections().sessionsPerConnection(), "A carried 3 sessions, B one");
        assertEquals(Map.of(1, 2L, 2, 1L), a.connections().connectionsPerSession());
    }

    @Test
    void badInputGivesOneLineNamingTheProblem() throws Exception {
        assertEquals(
                tmp.resolve("none") + ": no such directory; expected a run directory written by rubis-client run",
                assertThrows(AnalysisException.class, () -> new RunDirectory(tmp.resolve("none")))
                        .getMessage());
        Files.createDirectories(tmp.resolve("foreign"));
        Files.writeString(tmp.resolve("foreign/data.txt"), "x");
        assertTrue(assertThrows(AnalysisException.class, () -> new RunDirectory(tmp.resolve("foreign")))
                .getMessage()
                .contains("not a rubis-client run directory (no requests.csv)"));
        Path other = Files.createDirectories(tmp.resolve("other"));
        Files.writeString(other.resolve("requests.csv"), "time,latency\n1,2\n");
        String m = assertThrows(AnalysisException.class, () -> RunAnalysis.of(new RunDirectory(other)))
                .getMessage();
        assertTrue(m.startsWith(other.resolve("requests.csv") + ":1: the header lacks column session_id"), m);
    }

    /** Issue 13: an unterminated quote at line 101 stopped the reading; now it is skipped, counted and reported. */
    @Test
    void garbledLinesAreSkippedCountedAndReportedWhileTheRestIsAnalysed() throws Exception {
        Path dir = homeRequests(1051, tmp.resolve("garbled"));
        List<String> lines = new ArrayList<>(Files.readAllLines(dir.resolve("requests.csv")));
        lines.set(
                100, lines.get(100).replace("/PHP/index.html", "\"/PHP/index.html")); // line 101: an unterminated quote
        lines.set(200, lines.get(200).substring(0, 40)); // line 201: too few fields
        lines.set(300, lines.get(300).replaceFirst(",run,\\d+,", ",run,soon,")); // line 301: not a number
        Files.write(dir.resolve("requests.csv"), lines);
        RunAnalysis a = RunAnalysis.of(new RunDirectory(dir));
        assertEquals(1048, a.requests(), "every good line is analysed");
        assertEquals(3, a.badLines().get("requests.csv")[0]);
        assertEquals(101, a.badLines().get("requests.csv")[1]);
        assertTrue(
                a.notes()
                        .contains("requests.csv: 3 malformed lines skipped (first at line 101); the other lines were"
                                + " analysed"),
                a.notes().toString());
        new HtmlReport(a).write(dir.resolve("report.html"));
        JsonNode j = new ObjectMapper().readTree(dir.resolve("analysis.json").toFile());
        assertEquals(3, j.path("bad_lines").path("requests.csv").path("count").asLong());
        assertEquals(
                101, j.path("bad_lines").path("requests.csv").path("first_line").asLong());
    }

    /** The report's GC totals are the summary's (the collectors' counters); pauses client-gc.csv missed are said. */
    @Test
    void gcPausesMissingFromTheGcLogAreSaidInTheReport() throws Exception {
        Path dir = homeRequests(10, tmp.resolve("gc"));
        Files.writeString(
                dir.resolve("client-gc.csv"),
                "end_epoch_ms,duration_ms,gc,action,cause,heap_after_bytes\n"
                        + "1795571977029,80,MarkSweepCompact,end of major GC,Allocation Failure,60000000\n");
        Files.writeString(
                dir.resolve("summary.json"),
                "{\"status\": \"complete\", \"client_health\": {\"gc_count\": 71, \"gc_pauses\": 71,"
                        + " \"gc_pause_total_ms\": 5578, \"gc_max_pause_ms\": 100, \"gc_pauses_logged\": 1}}");
        new HtmlReport(RunAnalysis.of(new RunDirectory(dir))).write(dir.resolve("report.html"));
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(
                html.contains(
                        "71 collections, 5578 ms paused, longest at least 100 ms; 70 of 71 pauses are not in client-gc.csv"),
                html);
        Files.writeString(
                dir.resolve("summary.json"),
                "{\"status\": \"complete\", \"client_health\": {\"gc_count\": 1, \"gc_pauses\": 1,"
                        + " \"gc_pause_total_ms\": 80, \"gc_max_pause_ms\": 80}}"); // a run before gc_pauses_logged:
        // nothing said
        new HtmlReport(RunAnalysis.of(new RunDirectory(dir))).write(dir.resolve("report.html"));
        html = Files.readString(dir.resolve("report.html"));
        assertTrue(
                html.contains("1 collections, 80 ms paused, longest 80 ms<") && !html.contains("not in client-gc.csv"),
                html);
    }

    /**
     * The reference probe's requests are in the server's log (rubis_probe=1, on their own connection) but not in the
     * client's: the join counts them apart, never as "server only", and leaves them out of the server's counts.
     */
    @Test
    void theProbesRequestsInTheServerLogAreCountedApartNotAsServerOnly() throws Exception {
        Path dir = homeRequests(10, tmp.resolve("probe"));
        StringBuilder server = new StringBuilder(String.join(",", Columns.SERVER_REQUESTS)).append(",fault\n");
        for (int i = 0; i < 10; i++) {
            long arrival = SyntheticRun.T0 + i * 1000L + 100;
            server.append("c").append(i).append(',').append(arrival).append(',').append(arrival + 600);
            server.append(",600,Home,200,100,/PHP/index.html,\n");
        }
        for (int i = 0; i < 4; i++) {
            long arrival = SyntheticRun.T0 + i * 1500L + 50;
            server.append("probe,").append(arrival).append(',').append(arrival + 300);
            server.append(",300,Home,200,100,/PHP/index.html?rubis_probe=1,\n");
        }
        Files.createDirectories(dir.resolve("server"));
        Files.writeString(dir.resolve("server/requests.csv"), server);
        RunAnalysis a = RunAnalysis.of(new RunDirectory(dir));
        assertEquals(10, a.server().matched());
        assertEquals(0, a.server().serverOnly(), "the probe's requests are not server only");
        assertEquals(4, a.server().probeRequests());
        assertEquals(10, a.server().serverRequests(), "the users' requests");
        assertEquals(10, a.server().serverConnections(), "the users' connections");
        new HtmlReport(a).write(dir.resolve("report.html"));
        JsonNode cs = new ObjectMapper()
                .readTree(dir.resolve("analysis.json").toFile())
                .path("client_vs_server");
        assertEquals(0, cs.path("server_only").asLong(), cs.toString());
        assertEquals(4, cs.path("probe_requests").asLong(), cs.toString());
        assertTrue(Files.readString(dir.resolve("report.html")).contains("reference probe's 4 requests"));
        Path cmp = tmp.resolve("probe-cmp/compare.html");
        new CompareReport(List.of(a, RunAnalysis.of(new RunDirectory(dir)))).write(cmp);
        assertTrue(Files.readString(cmp).contains("the reference probe's 4 requests"));
        JsonNode runs = new ObjectMapper()
                .readTree(cmp.resolveSibling("comparison.json").toFile())
                .path("runs");
        assertEquals(4, runs.path(0).path("probe_requests").asLong(), runs.toString());
    }

    /** A kill -9 can leave auxiliary files empty or absent: each is a note, never a refusal. */
    @Test
    void emptyOrMissingAuxiliaryFilesAreNotes() throws Exception {
        Path dir = homeRequests(10, tmp.resolve("aux"));
        Files.writeString(dir.resolve("sessions.csv"), "");
        Files.writeString(dir.resolve("client-gc.csv"), "");
        Files.writeString(dir.resolve("client-health.csv"), "");
        Files.createDirectories(dir.resolve("server"));
        Files.writeString(dir.resolve("server/requests.csv"), "");
        RunAnalysis a = RunAnalysis.of(new RunDirectory(dir));
        assertEquals(10, a.requests());
        for (String f :
                new String[] {"sessions.csv is empty", "client-gc.csv is empty", "server/requests.csv is empty"}) {
            assertTrue(a.notes().stream().anyMatch(n -> n.startsWith(f)), f + " in " + a.notes());
        }
        assertEquals(null, a.server());
        new HtmlReport(a).write(dir.resolve("report.html"));
        Path copy = Files.createDirectories(tmp.resolve("aux2"));
        try (var files = Files.list(dir)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Files.copy(f, copy.resolve(f.getFileName()));
            }
        }
        new CompareReport(List.of(a, RunAnalysis.of(new RunDirectory(copy)))).write(tmp.resolve("cmp/compare.html"));
        assertTrue(Files.isRegularFile(tmp.resolve("cmp/compare.html")));
        Files.delete(dir.resolve("client-gc.csv"));
        Files.delete(dir.resolve("sessions.csv"));
        Files.delete(dir.resolve("server/requests.csv"));
        RunAnalysis b = RunAnalysis.of(new RunDirectory(dir));
        assertTrue(
                b.notes().stream().anyMatch(n -> n.startsWith("client-gc.csv is missing")),
                b.notes().toString());
        assertTrue(
                b.notes().stream().anyMatch(n -> n.startsWith("sessions.csv is missing")),
                b.notes().toString());
        assertTrue(
                b.notes().stream().anyMatch(n -> n.startsWith("server/requests.csv is missing")),
                b.notes().toString());
    }

    @Test
    void aTruncatedLogFromAKilledRunIsAnalysedWithANote() throws Exception {
        Path dir = homeRequests(10, tmp.resolve("killed"));
        String text = Files.readString(dir.resolve("requests.csv"));
        Files.writeString(dir.resolve("requests.csv"), text.substring(0, text.length() - 30)); // cut mid-line
        Files.delete(dir.resolve("sessions.csv"));
        RunAnalysis a = RunAnalysis.of(new RunDirectory(dir));
        assertEquals(9, a.requests());
        assertTrue(
                a.notes().stream().anyMatch(n -> n.contains("incomplete line")),
                a.notes().toString());
        assertTrue(
                a.notes().stream().anyMatch(n -> n.contains("summary.json is missing")),
                a.notes().toString());
        new HtmlReport(a).write(dir.resolve("report.html"));
        assertTrue(Files.readString(dir.resolve("report.html")).contains("incomplete line"));
    }

    /**
     * A run written before load profiles has no interval column (nor the later local_address, its connection_id being
     * the address): it reads as one with them, every line counted.
     */
    @Test
    void aRunWrittenBeforeTheIntervalColumnReadsTheSame() throws Exception {
        Path now = homeRequests(200, tmp.resolve("now"));
        Path before = Files.createDirectories(tmp.resolve("before"));
        StringBuilder old = new StringBuilder();
        for (String line : Files.readAllLines(now.resolve("requests.csv"))) {
            String withoutAddress = line.substring(0, line.lastIndexOf(','));
            assertTrue(withoutAddress.endsWith(",interval") || withoutAddress.endsWith(","), line);
            old.append(withoutAddress, 0, withoutAddress.lastIndexOf(',')).append('\n');
        }
        Files.writeString(before.resolve("requests.csv"), old);
        Files.copy(now.resolve("sessions.csv"), before.resolve("sessions.csv"));
        RunAnalysis a = RunAnalysis.of(new RunDirectory(now));
        RunAnalysis b = RunAnalysis.of(new RunDirectory(before));
        assertEquals(200, a.requests());
        assertEquals(a.requests(), b.requests());
        assertEquals(a.throughput(), b.throughput(), 1e-9);
        assertEquals(a.notes(), b.notes(), "the same notes: no line of either skipped as malformed");
    }
}
