package org.rubis.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.analysis.cli.AnalysisMain;
import org.rubis.analysis.io.RunDirectory;

/**
 * What a report and a comparison say about runs that did not end normally (stopped, killed, summary cut off) and
 * about throughput when requests failed: the summary's figures under the summary's names, over the time actually run.
 */
class RunStatusTest {

    @TempDir
    Path tmp;

    static final ObjectMapper JSON = new ObjectMapper();

    private static String[] cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = AnalysisMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new String[] {String.valueOf(status), out.toString(), err.toString()};
    }

    /** {@code n} run-phase requests, one every 100 ms, the first {@code failed} of them errors; one session each. */
    private static Path run(Path dir, int n, int failed, boolean sessionLines) throws Exception {
        SyntheticRun r = new SyntheticRun();
        for (int i = 0; i < n; i++) {
            long t = i * 100_000_000L;
            r.request(
                    i,
                    0,
                    "Home",
                    "/PHP/index.html",
                    "run",
                    t,
                    t,
                    2_000_000,
                    i < failed ? "http_503" : "",
                    "c" + i,
                    true);
            if (sessionLines) {
                r.session(i, t, t + 2_000_000, 1, "end_of_session");
            }
        }
        return r.write(dir);
    }

    @Test
    void throughputCountsSuccessfulRequestsAsTheSummaryDoesAndAttemptedIsNamedApart() throws Exception {
        Path dir = run(tmp.resolve("f503"), 30, 3, true);
        Files.writeString(
                dir.resolve("summary.json"),
                "{\"status\": \"complete\", \"partial\": false, \"run_seconds\": 3.0, "
                        + "\"phases_ms\": {\"up\": 0, \"run\": 3000, \"down\": 0}}");
        String[] r = cli("report", dir.toString());
        assertEquals("0", r[0], r[2]);
        JsonNode t = JSON.readTree(dir.resolve("analysis.json").toFile()).get("throughput");
        assertEquals(9.0, t.get("throughput_rps").asDouble(), 1e-9, "27 successful requests in 3 s");
        assertEquals(10.0, t.get("attempted_rps").asDouble(), 1e-9);
        assertFalse(t.has("run_phase_rps"), "the old name meant attempted: gone");
        Path cmp = tmp.resolve("cmp/comparison.html");
        assertEquals("0", cli("compare", dir.toString(), dir.toString(), "--out", cmp.toString())[0]);
        JsonNode c = JSON.readTree(cmp.resolveSibling("comparison.json").toFile())
                .get("runs")
                .get(0);
        assertEquals(9.0, c.get("throughput_rps").asDouble(), 1e-9);
        assertEquals(10.0, c.get("attempted_rps").asDouble(), 1e-9);
    }

    @Test
    void aStoppedRunsRatesAreOverTheTimeItRanAndCompareMarksIt() throws Exception {
        // Ctrl-C after 6.5 s of a planned 30 s run phase: 65 requests.
        Path stopped = run(tmp.resolve("stopped"), 65, 0, true);
        Files.writeString(
                stopped.resolve("summary.json"),
                "{\"status\": \"partial\", \"partial\": true, \"stop_reason\": \"interrupted\", "
                        + "\"run_seconds\": 6.5, \"phases_ms\": {\"up\": 0, \"run\": 30000, \"down\": 0}}");
        Path complete = run(tmp.resolve("complete"), 30, 0, true);
        Files.writeString(
                complete.resolve("summary.json"),
                "{\"status\": \"complete\", \"partial\": false, \"phases_ms\": {\"up\": 0, \"run\": 3000, \"down\": 0}}");
        RunAnalysis a = RunAnalysis.of(new RunDirectory(stopped));
        assertEquals(10.0, a.throughput(), 1e-9, "65 requests over the 6.5 s run, not the planned 30 s");
        assertTrue(a.ending().partial());
        Path cmp = tmp.resolve("cmp/comparison.html");
        String[] r = cli("compare", complete.toString(), stopped.toString(), "--out", cmp.toString());
        assertEquals("0", r[0], r[2]);
        assertTrue(r[1].contains("note: stopped: partial (interrupted)"), r[1]);
        JsonNode runs =
                JSON.readTree(cmp.resolveSibling("comparison.json").toFile()).get("runs");
        assertFalse(runs.get(0).get("partial").asBoolean());
        assertEquals(
                10.0,
                runs.get(0).get("throughput_rps").asDouble(),
                1e-9,
                "an older summary of a complete run: its planned length");
        assertTrue(runs.get(1).get("partial").asBoolean());
        assertEquals("partial", runs.get(1).get("status").asText());
        assertEquals(6.5, runs.get(1).get("run_seconds").asDouble(), 1e-9);
        assertEquals(10.0, runs.get(1).get("throughput_rps").asDouble(), 1e-9);
        assertTrue(Files.readString(cmp).contains("stopped: partial."), "the HTML marks the partial run");
    }

    @Test
    void withoutSessionsCsvNoSessionIsTakenForOneStillRunning() throws Exception {
        Path dir = run(tmp.resolve("no-sessions"), 40, 0, false);
        Files.delete(dir.resolve("sessions.csv"));
        RunAnalysis a = RunAnalysis.of(new RunDirectory(dir));
        assertEquals(0, a.sessions().onlyInRequests(), "no sessions.csv says nothing about which sessions ended");
        assertTrue(
                a.notes().stream().anyMatch(n -> n.startsWith("sessions.csv is missing")),
                a.notes().toString());
        assertTrue(
                a.notes().stream().noneMatch(n -> n.contains("still running when the run was killed")),
                a.notes().toString());
    }

    /** requests.csv saved with old Mac line ends (tr '\\n' '\\r') reads as the same requests, not as none. */
    @Test
    void carriageReturnLineEndsReadAsLines() throws Exception {
        Path dir = run(tmp.resolve("cr"), 12, 0, true);
        for (String f : List.of("requests.csv", "sessions.csv")) {
            Files.writeString(dir.resolve(f), Files.readString(dir.resolve(f)).replace('\n', '\r'));
        }
        RunAnalysis a = RunAnalysis.of(new RunDirectory(dir));
        assertEquals(12, a.requests());
        assertEquals(12, a.sessions().started());
        assertTrue(a.badLines().isEmpty(), a.badLines().keySet().toString());
    }

    /** A session whose sessions.csv line was skipped (not UTF-8) was not "still running": the note says which. */
    @Test
    void aSkippedSessionLineIsNotCalledStillRunning() throws Exception {
        Path dir = run(tmp.resolve("bad-line"), 10, 0, true);
        List<String> lines = new java.util.ArrayList<>(Files.readAllLines(dir.resolve("sessions.csv")));
        Files.write(dir.resolve("sessions.csv"), (String.join("\n", lines.subList(0, 3)) + "\n").getBytes());
        Files.write(
                dir.resolve("sessions.csv"),
                ("x\u00e9," + lines.get(3).substring(lines.get(3).indexOf(',') + 1) + "\n")
                        .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1),
                java.nio.file.StandardOpenOption.APPEND);
        for (String l : lines.subList(4, lines.size())) {
            Files.writeString(dir.resolve("sessions.csv"), l + "\n", java.nio.file.StandardOpenOption.APPEND);
        }
        RunAnalysis a = RunAnalysis.of(new RunDirectory(dir));
        assertEquals(1, a.sessions().onlyInRequests(), a.notes().toString());
        String note = a.notes().stream()
                .filter(n -> n.contains("not in sessions.csv"))
                .findFirst()
                .orElseThrow();
        assertTrue(note.contains("1 malformed line(s) of sessions.csv were skipped (the first at line 4)"), note);
        assertFalse(note.startsWith("1 sessions are in requests.csv but not in sessions.csv (still running"), note);
    }

    @Test
    void aKilledRunHasAStatusAndItsSessionsAreCountedFromTheRequests() throws Exception {
        // kill -9: no summary.json, and sessions.csv has only its header (no session had ended).
        Path dir = run(tmp.resolve("killed"), 40, 0, false);
        RunAnalysis a = RunAnalysis.of(new RunDirectory(dir));
        assertEquals("incomplete", a.ending().label());
        assertTrue(a.ending().partial());
        assertEquals(40, a.sessions().started());
        assertEquals(40, a.sessions().onlyInRequests());
        assertEquals(
                4.0,
                a.window().seconds(),
                1e-9,
                "40 sends 0.1 s apart: 3.9 s from the first to the last, and the gap after it");
        assertEquals(10.0, a.attemptedRps(), 1e-9);
        assertTrue(a.little().n() > 0, "the sessions still running were active");
        assertEquals("0", cli("report", dir.toString())[0]);
        JsonNode j = JSON.readTree(dir.resolve("analysis.json").toFile());
        assertEquals("incomplete", j.get("status").asText());
        assertTrue(
                j.get("stop_reason").asText().contains("summary.json is missing"),
                j.get("stop_reason").asText());
        assertEquals(40, j.get("sessions").get("started").asLong());
        assertTrue(j.get("arrivals").get("little").get("N").asDouble() > 0);
        assertTrue(Files.readString(dir.resolve("report.html")).contains("Incomplete run."));
    }

    @Test
    void aSummaryCutOffMidWriteIsTreatedAsMissingByEveryCommand() throws Exception {
        Path dir = run(tmp.resolve("cut"), 20, 0, true);
        Files.writeString(dir.resolve("summary.json"), "{\"status\": \n");
        String[] r = cli("report", dir.toString());
        assertEquals("0", r[0], r[2]);
        assertTrue(
                r[1].lines()
                        .anyMatch(l -> l.startsWith("note: ")
                                && l.contains(dir.resolve("summary.json").toString())
                                && l.contains("not valid JSON")),
                r[1]);
        JsonNode j = JSON.readTree(dir.resolve("analysis.json").toFile());
        assertEquals("incomplete", j.get("status").asText());
        String[] c = cli(
                "compare",
                dir.toString(),
                dir.toString(),
                "--out",
                tmp.resolve("c/comparison.html").toString());
        assertEquals("0", c[0], c[2]);
        String[] e =
                cli("export-httperf", dir.toString(), "--out", tmp.resolve("h").toString());
        assertEquals("0", e[0], e[2]);
        assertTrue(e[1].startsWith("note: " + dir.resolve("summary.json")), e[1]);
        String[] m = cli("merge", dir.toString(), "--out", tmp.resolve("m").toString());
        assertEquals("1", m[0]);
        assertEquals(1, m[2].strip().lines().count(), m[2]);
        assertTrue(m[2].contains("summary.json is unreadable") && m[2].contains("re-run"), m[2]);
    }

    @Test
    void aNonNumericStatusOrAnUnknownPhaseIsABadLine() throws Exception {
        Path dir = run(tmp.resolve("bad"), 10, 0, true);
        String text = Files.readString(dir.resolve("requests.csv"));
        String[] lines = text.split("\n");
        lines[3] = lines[3].replace(",200,", ",abc,"); // status
        lines[5] = lines[5].replace(",run,", ",middle,"); // phase
        Files.writeString(dir.resolve("requests.csv"), String.join("\n", lines) + "\n");
        RunAnalysis a = RunAnalysis.of(new RunDirectory(dir));
        assertEquals(8, a.requests());
        assertEquals(2, a.badLines().get("requests.csv")[0]);
        assertEquals(4, a.badLines().get("requests.csv")[1], "the first bad line's number (the header is line 1)");
        assertTrue(
                a.notes().stream().anyMatch(n -> n.startsWith("requests.csv: 2 malformed lines")),
                a.notes().toString());
    }
}
