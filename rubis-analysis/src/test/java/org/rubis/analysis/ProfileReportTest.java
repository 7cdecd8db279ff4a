package org.rubis.analysis;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.analysis.io.RunDirectory;
import org.rubis.analysis.report.HtmlReport;

/** The report's Load profile section: shown for a run whose summary has a profile's intervals, absent otherwise. */
class ProfileReportTest {

    @TempDir
    Path tmp;

    private static Path run(Path dir) throws Exception {
        SyntheticRun r = new SyntheticRun();
        for (int i = 0; i < 50; i++) {
            r.request(
                    i,
                    0,
                    "Home",
                    "/PHP/index.html",
                    "run",
                    i * 1_000_000L,
                    i * 1_000_000L,
                    1_000_000,
                    "",
                    "c" + i,
                    true);
        }
        return r.write(dir);
    }

    @Test
    void aRunWithAProfileShowsEachIntervalsPlanAndAchievement() throws Exception {
        Path dir = run(tmp.resolve("profile"));
        Files.writeString(dir.resolve("summary.json"), """
            {"status": "complete", "partial": false, "arrivals": "closed", "run_seconds": 20.0,
             "profile": {"file": "steps.txt", "shape": "step", "unit": "users", "leave": "end-of-session"},
             "intervals": [
              {"index": 0, "from_s": 0.0, "to_s": 10.0, "mix": "bidding", "flat": true, "users_planned": 20,
               "users_planned_start": 20, "users_planned_end": 20, "users_achieved": 20.5, "throughput_rps": 2.5,
               "errors": 0, "response_time_ms": {"p50": 1.5, "p99": 9.25}, "stationarity": {"verdict": "steady"}},
              {"index": 1, "from_s": 10.0, "to_s": 20.0, "mix": "browsing", "flat": true, "users_planned": 100,
               "users_planned_start": 100, "users_planned_end": 100, "users_achieved": 97.25, "throughput_rps": 12.5,
               "errors": 3, "response_time_ms": {"p50": 2.5, "p99": 19.5}, "stationarity": {"verdict": "not-steady"}}
             ]}
            """);
        new HtmlReport(RunAnalysis.of(new RunDirectory(dir))).write(dir.resolve("report.html"));
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.contains("<h2 id=profile>Load profile</h2>"), "the section");
        assertTrue(html.contains("<a href=#profile>Load profile</a>"), "in the table of contents");
        assertTrue(html.contains("<img id=profile-load"), "the plot of planned and achieved users");
        assertTrue(
                html.contains(
                        "<td>1</td><td>10.0-20.0</td><td>browsing</td><td>100</td><td>97.25</td><td>12.5</td><td>2.5</td>"
                                + "<td>19.5</td><td>3</td><td>not-steady</td>"),
                "interval 1's row");
    }

    @Test
    void aRunWithoutAProfileHasNoSuchSection() throws Exception {
        Path dir = run(tmp.resolve("plain"));
        new HtmlReport(RunAnalysis.of(new RunDirectory(dir))).write(dir.resolve("report.html"));
        String html = Files.readString(dir.resolve("report.html"));
        assertFalse(html.contains("Load profile"));
    }
}
