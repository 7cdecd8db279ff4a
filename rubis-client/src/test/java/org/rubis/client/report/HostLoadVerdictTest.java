package org.rubis.client.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.format.run.Columns;
import org.rubis.format.schema.Cause;

/**
 * A busy host made for real: CPU-burning processes (half the cores) beside an idle client. The client's health
 * sampler must see their CPU in /proc/stat (client-health.csv's host columns) and the verdict
 * built from what it measured must blame the HOST, not the client.
 */
class HostLoadVerdictTest {

    @TempDir
    Path dir;

    @Test
    void otherProcessesBurningCpuMakeTheVerdictBlameTheHost() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/stat")), "needs Linux /proc");
        int cores = Runtime.getRuntime().availableProcessors();
        List<Process> burners = new ArrayList<>();
        ClientHealth health = null;
        try {
            // Half the cores (at least one): twice the verdict's threshold (a quarter of the cores), while the rest of
            // the
            // machine stays free for whatever else runs on it.
            for (int i = 0; i < Math.max(1, cores / 2); i++) {
                // bounded: the loop ends by itself after 20 s even if this test is killed
                burners.add(new ProcessBuilder(
                                "sh", "-c", "end=$(($(date +%s)+20)); while [ $(date +%s) -lt $end ]; do :; done")
                        .start());
            }
            health = new ClientHealth(dir, () -> 0, () -> 0);
            Thread.sleep(3500);
        } finally {
            if (health != null) {
                health.close();
            }
            for (Process p : burners) {
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
            }
        }
        List<String> lines = Files.readAllLines(dir.resolve("client-health.csv"));
        assertTrue(lines.get(0).equals(Columns.header(Columns.CLIENT_HEALTH)), lines.get(0));
        assertTrue(lines.size() >= 3, "at least two samples: " + lines);
        HealthFigures f = health.figures();
        assertTrue(
                f.load().otherCores() >= 0.25 * cores,
                "other processes' CPU seen: " + f.load().otherCores());
        Verdict v = Verdict.of(f.evidence(0.5), null);
        assertTrue(v.causes().contains(Cause.HOST), v.text());
        assertFalse(v.causes().contains(Cause.CLIENT), v.text());
    }
}
