package org.rubis.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.analysis.io.RunDirectory;
import org.rubis.analysis.report.HtmlReport;
import org.rubis.format.stats.LittleBand;

/** The report's Little's law is the summary's: N / (X (R + Z)), the client's figures when it has them, else the logs' honestly. */
class LittleLawTest {

    @TempDir
    Path tmp;

    static final long R_NS = 10_000_000L;

    /**
     * A closed population, steady after a 20 s up ramp, killed {@code endS} seconds later: {@code users} users, each in
     * one long session, alternating a 10 ms request and an exponential think time of mean {@code thinkS}; a request
     * whose send would fall after the end is never logged, so the think time before it is cut off (censored).
     */
    private static SyntheticRun closedPopulation(int users, double thinkS, double endS, long seed) {
        SyntheticRun r = new SyntheticRun();
        SplittableRandom rnd = new SplittableRandom(seed);
        long up = 20_000_000_000L;
        long end = up + (long) (endS * 1e9);
        for (int u = 0; u < users; u++) {
            long t = (long) (-Math.log(1 - rnd.nextDouble()) * thinkS * 1e9);
            for (int i = 0; t < end; i++) {
                r.request(u, i, "Browse", "/PHP/browse.html", t < up ? "up" : "run", t, t, R_NS, "", "c" + u, i == 0);
                t += R_NS + (long) (-Math.log(1 - rnd.nextDouble()) * thinkS * 1e9);
            }
        }
        return r;
    }

    @Test
    void fromTheLogsCensoredThinkTimesAreCountedAndTheRatioIsNearOne() throws Exception {
        // Think 5 s in a 20 s run: the think times still running at the kill are the long ones; leaving them out
        // makes Z too short and the ratio N / (X (R + Z)) too high.
        RunAnalysis a = RunAnalysis.of(
                new RunDirectory(closedPopulation(200, 5.0, 20, 4).write(tmp.resolve("killed"))));
        LittleLaw law = a.little();
        assertTrue(law.source().startsWith("estimated from the logs"), law.source());
        long cut = a.sessions().runThinkCensored().censoredCount();
        assertTrue(
                cut > 190 && cut <= 200,
                "one think time cut off per user (but those thinking since the up ramp): " + cut);
        assertEquals(5000, law.zMs(), 5000 * 0.08, "the censored estimate of Z");
        assertTrue(
                a.sessions().runThinkCensored().plainMeanMs() < 5000 * 0.85,
                "without the censored ones Z is biased low ("
                        + a.sessions().runThinkCensored().plainMeanMs() + ")");
        assertEquals(200, law.n(), 200 * 0.03, "N: every user was active (a few began late)");
        assertEquals(1.0, law.ratio(), 0.08, law.toString());
        assertTrue(law.steady(), law.ratio() + " in " + law.low() + ".." + law.high());
    }

    @Test
    void theClientsOwnFiguresAreUsedWhenTheSummaryHasThem() throws Exception {
        // The audit's run: the logs alone give Z 5.9 s; the client, which saw every think time, 7.27 s and a ratio of
        // 1.013.
        Path dir = closedPopulation(20, 5.0, 20, 9).write(tmp.resolve("healthy"));
        Files.writeString(
                dir.resolve("summary.json"),
                "{\"status\": \"complete\", \"partial\": false, \"arrivals\": \"closed\", \"users\": 20, "
                        + "\"users_started\": 20, \"run_seconds\": 20.0, \"attempted_rps\": 2.7, \"stationarity\": {\"steady\": true, \"little_ratio\": 1.013, "
                        + "\"little_ratio_se\": 0.03, \"little_low\": 0.9227, \"little_high\": 1.0773, \"mean_think_s\": 7.27}}");
        RunAnalysis a = RunAnalysis.of(new RunDirectory(dir));
        HtmlReport report = new HtmlReport(a);
        report.write(dir.resolve("report.html"));
        JsonNode l = new ObjectMapper()
                .readTree(dir.resolve("analysis.json").toFile())
                .get("arrivals")
                .get("little");
        assertEquals(1.013, l.get("little_ratio").asDouble(), 1e-9);
        assertEquals(7270, l.get("Z_ms").asDouble(), 1e-6);
        assertEquals(20, l.get("N").asDouble(), 1e-9);
        assertTrue(l.get("steady").asBoolean());
        assertEquals(
                0.9227,
                l.get("little_low").asDouble(),
                1e-4,
                "the summary's band (0.95..1.05 widened by its standard error)");
        assertTrue(
                l.get("source").asText().startsWith("summary.json"),
                l.get("source").asText());
        assertFalse(l.has("ratio"), "the old, inverse definition is gone");
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.contains("within the steady band"));
    }

    @Test
    void aPhaseTheSummaryDidNotJudgeIsNotJudgedInTheReportEither() throws Exception {
        Path dir = closedPopulation(20, 5.0, 20, 9).write(tmp.resolve("short"));
        Files.writeString(
                dir.resolve("summary.json"),
                "{\"status\": \"complete\", \"partial\": false, \"arrivals\": \"closed\", \"users\": 20, "
                        + "\"users_started\": 20, \"run_seconds\": 20.0, \"attempted_rps\": 2.7, \"stationarity\": {\"steady\": false, \"verdict\": \"not-judged\", "
                        + "\"not_judged_reason\": \"too short: 1 whole window of 1 s, need 8\", \"little_ratio\": 1.0, \"little_ratio_se\": 0.9, \"mean_think_s\": 5}}");
        RunAnalysis a = RunAnalysis.of(new RunDirectory(dir));
        new HtmlReport(a).write(dir.resolve("report.html"));
        JsonNode l = new ObjectMapper()
                .readTree(dir.resolve("analysis.json").toFile())
                .get("arrivals")
                .get("little");
        assertFalse(l.get("steady").asBoolean(), "a ratio of 1.0 that was not judged is not steady");
        assertEquals(
                "too short: 1 whole window of 1 s, need 8",
                l.get("not_judged_reason").asText());
        assertTrue(
                l.get("verdict").asText().startsWith("not judged"),
                l.get("verdict").asText());
        assertEquals(0, l.get("little_low").asDouble(), 1e-12, "the band's low end is never negative");
    }

    @Test
    void fromTheLogsAShortPhaseIsNotJudged() throws Exception {
        LittleLaw law = RunAnalysis.of(
                        new RunDirectory(closedPopulation(200, 5.0, 5, 4).write(tmp.resolve("short-killed"))))
                .little();
        assertTrue(law.source().startsWith("estimated from the logs"), law.source());
        assertTrue(law.notJudged() != null && law.notJudged().startsWith("too short"), String.valueOf(law.notJudged()));
        assertFalse(law.steady());
    }

    @Test
    void aSessionEndedByTheRunIsCensoredAtItsOwnEndNotTheLogs() throws Exception {
        // Session 1 thinks from 10.01 s until the run ended it at 15 s; session 2's last reply comes at 30 s.
        SyntheticRun r = new SyntheticRun();
        r.request(1, 0, "Home", "/PHP/index.html", "run", 0, 0, R_NS, "", "c1", true);
        r.request(1, 1, "Browse", "/PHP/browse.html", "run", 10_000_000_000L, 10_000_000_000L, R_NS, "", "c1", false);
        r.request(2, 0, "Home", "/PHP/index.html", "run", 29_990_000_000L, 29_990_000_000L, R_NS, "", "c2", true);
        r.session(1, 0, 15_000_000_000L, 2, "run_ended");
        r.session(2, 29_990_000_000L, 30_000_000_000L, 1, "end_of_session");
        RunAnalysis a = RunAnalysis.of(new RunDirectory(r.write(tmp.resolve("run-ended"))));
        assertEquals(1, a.sessions().runThinkCensored().censoredCount());
        // one finished think (9.99 s) and one censored at 15 s - 10.01 s = 4.99 s (at the log's end it would be 19.99
        // s)
        assertEquals(9_990 + 4_990, a.sessions().runThinkCensored().meanMs(), 1e-6);
    }

    @Test
    void hybridArrivalsHaveNoRatioAsInTheSummary() throws Exception {
        // The logs alone would give a ratio for these sessions; the summary has none (no fixed population): neither has
        // the report.
        Path dir = closedPopulation(200, 5.0, 20, 4).write(tmp.resolve("hybrid"));
        Files.writeString(
                dir.resolve("summary.json"),
                "{\"status\": \"complete\", \"partial\": false, \"arrivals\": \"hybrid\", "
                        + "\"run_seconds\": 20.0, \"stationarity\": {\"steady\": true, \"verdict\": \"steady\"}}");
        LittleLaw law = RunAnalysis.of(new RunDirectory(dir)).little();
        assertFalse(law.known(), law.toString());
        assertFalse(law.steady());
        assertTrue(law.verdict().contains("hybrid arrivals"), law.verdict());
    }

    @Test
    void theStandardErrorIsTheSummarysForExponentialThinkTimes() {
        // Stationarity's documented figure: 300 users, 7 s think, 40 s run phase: about 1.4 %.
        assertEquals(0.014, LittleBand.standardErrorExponential(300, 40, 0.01, 7), 0.001);
        assertEquals(0, LittleBand.standardErrorExponential(0, 40, 0.01, 7));
    }
}
