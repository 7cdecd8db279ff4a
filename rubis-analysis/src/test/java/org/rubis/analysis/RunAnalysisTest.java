package org.rubis.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.analysis.io.RunDirectory;

class RunAnalysisTest {

    @TempDir Path tmp;

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

    @Test
    void poissonArrivalsHaveCoefficientOfVariationNearOne() throws Exception {
        SplittableRandom rnd = new SplittableRandom(11);
        long[] gaps = new long[20_000];
        for (int i = 0; i < gaps.length; i++) {
            gaps[i] = (long) (-Math.log(1 - rnd.nextDouble()) * 50_000_000L);
        }
        RunAnalysis a = sessionsWithGaps("poisson", gaps);
        // CoV of n exponential gaps has standard error about 1/sqrt(n) = 0.007; 0.03 is over 4 sigma.
        assertEquals(1.0, a.sessionInterArrival.cov(), 0.03);
        assertEquals(1.0, a.requestInterArrival.cov(), 0.03);
        assertTrue(RunAnalysis.arrivalVerdict(a.sessionInterArrival).startsWith("consistent with Poisson"));
    }

    @Test
    void deterministicArrivalsHaveCoefficientOfVariationZero() throws Exception {
        long[] gaps = new long[500];
        Arrays.fill(gaps, 100_000_000L);
        RunAnalysis a = sessionsWithGaps("det", gaps);
        assertEquals(0.0, a.sessionInterArrival.cov(), 1e-9);
        assertEquals(100.0, a.sessionInterArrival.mean() / 1e6, 1e-9);
        assertTrue(RunAnalysis.arrivalVerdict(a.sessionInterArrival).startsWith("deterministic"));
    }

    @Test
    void percentilesMatchADirectComputation() throws Exception {
        SplittableRandom rnd = new SplittableRandom(5);
        SyntheticRun r = new SyntheticRun();
        int n = 10_000;
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            values[i] = 100_000 + (long) (-Math.log(1 - rnd.nextDouble()) * 3_000_000); // ~3 ms exponential
            r.request(i, 0, i % 2 == 0 ? "Home" : "ViewItem", "/PHP/x", "run", i * 1_000_000L, i * 1_000_000L, values[i], "", "c" + i, true);
        }
        RunAnalysis a = RunAnalysis.of(new RunDirectory(r.write(tmp.resolve("pct"))));
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        for (double p : new double[] {50, 90, 95, 99}) {
            double exact = sorted[(int) Math.ceil(p / 100 * n) - 1] / 1e6;
            // HdrHistogram with 3 significant digits: within 0.1 % of the exact value.
            assertEquals(exact, a.byPhase.get("run").percentileMs(p), exact * 0.001, "p" + p);
        }
        assertEquals(Arrays.stream(values).average().orElseThrow() / 1e6, a.byPhase.get("run").meanMs(), 1e-9);
        assertEquals(sorted[n - 1] / 1e6, a.overall.maxMs(), 1e-9);
        assertEquals(5000, a.byState.get("Home").count());
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
        assertEquals(1.0, a.byPhase.get("run").percentileMs(99), 0.01);
        assertEquals(201.0, a.byPhaseFromIntended.get("run").percentileMs(99), 0.3);
        assertEquals(1.0, a.byPhaseFromIntended.get("run").percentileMs(50), 0.01);
        assertEquals(1.0 + 20.0, a.byPhaseFromIntended.get("run").meanMs(), 1e-6);
        assertEquals(100, a.overallFromIntended.count());
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
                r.request(s, i, "Home", "/PHP/index.html", "run", t, t, 2_000_000, "", conns[s][i], s == 0 && i == 0 || s == 2 && i == 1);
            }
            r.session(s, t - 40_000_000, t, 4, "end_of_session");
        }
        RunAnalysis a = RunAnalysis.of(new RunDirectory(r.write(tmp.resolve("shared"))));
        assertEquals(2, a.distinctConnections);
        assertEquals(2, a.newConnections);
        assertEquals(Map.of(10, 1L, 2, 1L), a.requestsPerConnection);
        assertEquals(Map.of(3, 1L, 1, 1L), a.sessionsPerConnection, "A carried 3 sessions, B one");
        assertEquals(Map.of(1, 2L, 2, 1L), a.connectionsPerSession);
    }

    @Test
    void badInputGivesOneLineNamingTheProblem() throws Exception {
        assertEquals(tmp.resolve("none") + ": no such directory; expected a run directory written by rubis-client run",
                assertThrows(AnalysisException.class, () -> new RunDirectory(tmp.resolve("none"))).getMessage());
        Files.createDirectories(tmp.resolve("foreign"));
        Files.writeString(tmp.resolve("foreign/data.txt"), "x");
        assertTrue(assertThrows(AnalysisException.class, () -> new RunDirectory(tmp.resolve("foreign"))).getMessage()
                .contains("not a rubis-client run directory (no requests.csv)"));
        Path other = Files.createDirectories(tmp.resolve("other"));
        Files.writeString(other.resolve("requests.csv"), "time,latency\n1,2\n");
        String m = assertThrows(AnalysisException.class, () -> RunAnalysis.of(new RunDirectory(other))).getMessage();
        assertTrue(m.startsWith(other.resolve("requests.csv") + ":1: the header lacks column session_id"), m);

        SyntheticRun r = new SyntheticRun();
        for (int i = 0; i < 5; i++) {
            r.request(i, 0, "Home", "/PHP/index.html", "run", i, i, 1000, "", "c", true);
        }
        Path corrupt = r.write(tmp.resolve("corrupt"));
        java.util.List<String> lines = new java.util.ArrayList<>(Files.readAllLines(corrupt.resolve("requests.csv")));
        lines.set(3, lines.get(3).substring(0, 40));
        Files.write(corrupt.resolve("requests.csv"), lines);
        m = assertThrows(AnalysisException.class, () -> RunAnalysis.of(new RunDirectory(corrupt))).getMessage();
        assertTrue(m.matches(".*requests\\.csv:4: \\d+ fields, expected 19 .*"), m);
        lines.set(2, lines.get(2).replaceFirst(",run,\\d+,", ",run,soon,"));
        lines.remove(3);
        Files.write(corrupt.resolve("requests.csv"), lines);
        m = assertThrows(AnalysisException.class, () -> RunAnalysis.of(new RunDirectory(corrupt))).getMessage();
        assertTrue(m.endsWith("requests.csv:3: column intended_send_epoch_ns = \"soon\" is not a whole number"), m);
    }

    @Test
    void aTruncatedLogFromAKilledRunIsAnalysedWithANote() throws Exception {
        SyntheticRun r = new SyntheticRun();
        for (int i = 0; i < 10; i++) {
            r.request(i, 0, "Home", "/PHP/index.html", "run", i * 1000L, i * 1000L, 1000, "", "c" + i, true);
        }
        Path dir = r.write(tmp.resolve("killed"));
        String text = r.requestsText();
        Files.writeString(dir.resolve("requests.csv"), text.substring(0, text.length() - 30)); // cut mid-line
        Files.delete(dir.resolve("sessions.csv"));
        RunAnalysis a = RunAnalysis.of(new RunDirectory(dir));
        assertEquals(9, a.requests);
        assertTrue(a.notes.stream().anyMatch(n -> n.contains("incomplete line")), a.notes.toString());
        assertTrue(a.notes.stream().anyMatch(n -> n.contains("summary.json is missing")), a.notes.toString());
        new org.rubis.analysis.report.HtmlReport(a).write(dir.resolve("report.html"));
        assertTrue(Files.readString(dir.resolve("report.html")).contains("incomplete line"));
    }
}
