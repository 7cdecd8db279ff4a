package org.rubis.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.analysis.export.HdrLogExport;
import org.rubis.analysis.io.RunDirectory;

/** The interval log is read back by HdrHistogram's own reader with the counts and values of requests.csv. */
class HdrLogExportTest {

    @TempDir
    Path tmp;

    @Test
    void readBackCountsMatchRequestsCsvPerPhaseAndSecond() throws Exception {
        SyntheticRun r = new SyntheticRun();
        long s = 1_000_000_000L;
        r.request(1, 0, "Home", "/PHP/index.html", "up", 100_000_000, 100_000_000, 2_000_000, "", "a", true);
        r.request(1, 1, "Browse", "/PHP/browse.html", "run", 1_200_000_000, 1_200_000_000, 3_000_000, "", "a", false);
        r.request(2, 0, "Home", "/PHP/index.html", "run", 1_500_000_000, 1_500_000_000, 5_000_000, "", "b", true);
        r.request(
                2,
                1,
                "ViewItem",
                "/PHP/ViewItem.php?itemId=1",
                "run",
                1_700_000_000,
                1_700_000_000,
                7_000_000,
                "error-page",
                "b",
                false);
        r.request(1, 2, "Home", "/PHP/index.html", "run", 2_500_000_000L, 2_500_000_000L, 11_000_000, "", "a", false);
        r.request(2, 2, "Home", "/PHP/index.html", "down", 3 * s + 1, 3 * s + 1, 13_000_000, "", "b", false);
        Path run = r.write(tmp.resolve("run"));
        Path hlog = tmp.resolve("response-times.hlog");
        long n = new HdrLogExport(new RunDirectory(run)).write(hlog);
        assertEquals(5, n, "every request without an error");

        Map<String, Long> countByPhase = new HashMap<>();
        Map<String, Long> maxByPhase = new HashMap<>();
        int intervals = 0;
        HistogramLogReader reader = new HistogramLogReader(hlog.toFile());
        EncodableHistogram e;
        while ((e = reader.nextIntervalHistogram()) != null) {
            Histogram h = (Histogram) e;
            intervals++;
            assertEquals(1000, h.getEndTimeStamp() - h.getStartTimeStamp(), "one-second intervals");
            countByPhase.merge(h.getTag(), h.getTotalCount(), Long::sum);
            maxByPhase.merge(h.getTag(), h.getMaxValue(), Math::max);
        }
        // requests.csv, independently: up 1, run 3 (one error left out), down 1.
        assertEquals(Map.of("up", 1L, "run", 3L, "down", 1L), countByPhase);
        assertEquals(4, intervals, "seconds 0 (up), 1 (run), 2 (run), 3 (down)");
        assertTrue(
                Math.abs(maxByPhase.get("run") - 11_000_000) <= 11_000_000 / 1000,
                "values are response_ns: " + maxByPhase);
        List<String> lines = Files.readAllLines(hlog);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("#[StartTime: ")), lines.toString());
    }
}
