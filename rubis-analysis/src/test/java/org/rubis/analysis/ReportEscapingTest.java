package org.rubis.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.analysis.cli.AnalysisMain;

/**
 * Every value a report takes from the run directory is escaped in its HTML: summary.json's strings (the seed among them,
 * which was inserted as it was), requests.csv's and sessions.csv's fields, the directory's name. A markup-bearing value
 * shows as text, never as markup.
 */
class ReportEscapingTest {

    private static final String MARK = "<b id=pwn onclick='x'>";

    @TempDir
    Path tmp;

    @Test
    void valuesFromInputFilesAreEscapedInReportAndComparison() throws Exception {
        Path run = new SyntheticRun()
                .request(1, 0, "Home" + MARK, "/PHP/index.html?" + MARK, "run", 0, 0, 1_000_000, "", "c" + MARK, true)
                .request(
                        1,
                        1,
                        "Browse",
                        "/PHP/browse.html",
                        "run",
                        2_000_000_000L,
                        2_000_000_000L,
                        1_000_000,
                        "err" + MARK,
                        "c1",
                        false)
                .session(1, 0, 3_000_000_000L, 2, "end" + MARK)
                .write(tmp.resolve("run" + MARK.replace('/', '_')));
        String s = "\"" + MARK.replace("'", "'") + "\"";
        Files.writeString(
                run.resolve("summary.json"),
                "{\"status\": \"partial\", \"partial\": true, \"stop_reason\": " + s
                        + ", \"seed\": " + s + ", \"backend\": " + s + ", \"threads\": " + s + ", \"started_at\": " + s
                        + ", \"arrival_process\": " + s
                        + ", \"target\": " + s + ", \"client_health\": {\"verdict\": " + s
                        + ", \"client_bottleneck\": true}}");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(
                0,
                AnalysisMain.execute(
                        new String[] {"report", run.toString()},
                        new PrintWriter(out, true),
                        new PrintWriter(err, true)),
                err.toString());
        assertEquals(
                0,
                AnalysisMain.execute(
                        new String[] {
                            "compare",
                            run.toString(),
                            run.toString(),
                            "--out",
                            tmp.resolve("c.html").toString()
                        },
                        new PrintWriter(out, true),
                        new PrintWriter(err, true)),
                err.toString());
        for (Path html : new Path[] {run.resolve("report.html"), tmp.resolve("c.html")}) {
            String h = Files.readString(html);
            assertFalse(h.contains("<b id=pwn"), html + " holds the markup as markup");
            assertTrue(h.contains("&lt;b id=pwn onclick=&#39;x&#39;&gt;"), html + " shows it as text");
        }
        assertTrue(Files.readString(run.resolve("report.html")).contains("seed &lt;b id=pwn"), "the seed, as text");
    }
}
