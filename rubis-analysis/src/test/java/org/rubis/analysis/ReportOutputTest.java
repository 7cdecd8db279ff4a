package org.rubis.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.analysis.cli.AnalysisMain;

/**
 * The report's figures are those the line-by-line String reader computed: the expected analysis.json and
 * response-times.hlog in src/test/resources/report-golden were written by {@code rubis-analysis report} before the
 * reader parsed bytes in one pass (commit 5353bd3), on a real run of the client against the embedded server with
 * damaged lines put in its requests.csv (a quoted path with a comma, a quote and an accent; a number that is not one;
 * an unknown phase; a line not UTF-8; an unterminated quote; too few fields; a session id past a long; an error).
 */
class ReportOutputTest {

    @TempDir
    Path tmp;

    @Test
    void figuresOfARealRunAreTheLineReadersOnes() throws Exception {
        Path run = copy("clean");
        report(run);
        assertEquals(golden("clean.analysis.json"), Files.readString(run.resolve("analysis.json")));
        assertEquals(
                histograms(Files.readString(golden().resolve("clean.response-times.hlog"))),
                histograms(Files.readString(run.resolve("response-times.hlog"))));
    }

    /**
     * With damaged lines, the report's figures are the old ones, and the HdrHistogram log is written too: the old
     * reader's second pass, for that log, stopped the command on a number its first pass had skipped as malformed.
     */
    @Test
    void damagedLinesAreSkippedAndCountedAsBefore() throws Exception {
        Path run = copy("damaged");
        String out = report(run);
        assertEquals(golden("damaged.analysis.json"), Files.readString(run.resolve("analysis.json")));
        assertTrue(out.contains("requests.csv: 6 malformed lines skipped (first at line 53, 1 not UTF-8)"), out);
        List<String> intervals = histograms(Files.readString(run.resolve("response-times.hlog")));
        assertTrue(!intervals.isEmpty(), "the log has its intervals");
    }

    private String report(Path run) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = AnalysisMain.execute(
                new String[] {"report", run.toString()}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(0, status, err.toString());
        return out.toString();
    }

    /** The log's interval lines: its first comment names the run directory's path, which differs by copy. */
    private static List<String> histograms(String hlog) {
        return hlog.lines().filter(l -> !l.startsWith("#response times")).toList();
    }

    private Path copy(String name) throws IOException, URISyntaxException {
        Path from = golden().resolve(name);
        Path to = tmp.resolve(name.equals("damaged") ? "run" : name); // the name the expected files were made with
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path t = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(f, t);
                }
            }
        }
        return to;
    }

    private static String golden(String file) throws IOException, URISyntaxException {
        return Files.readString(golden().resolve(file));
    }

    private static Path golden() throws URISyntaxException {
        return Path.of(ReportOutputTest.class.getResource("/report-golden").toURI());
    }
}
