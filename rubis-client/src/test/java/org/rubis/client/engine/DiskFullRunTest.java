package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.client.config.ConfigLoader;
import org.rubis.client.report.Summary;
import org.rubis.format.run.RunFiles;
import org.rubis.format.run.RunStatus;

/**
 * A run whose disk fills up: it went on to its end losing lines, then exited 3 ("a bug") with a stack trace and no
 * summary. Now it stops at the first failed write, {@code partial (disk full ...)}, says how many lines it lost, and
 * what it wrote is whole lines that the summary's figures cover exactly. The disk is a small tmpfs (root only: the
 * test is skipped, saying why, where mounting is not permitted).
 */
class DiskFullRunTest {

    @TempDir
    Path tmp;

    private Path mount;

    private static int exec(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor(20, TimeUnit.SECONDS) ? p.exitValue() : -1;
    }

    @AfterEach
    void unmount() throws Exception {
        if (mount != null) {
            exec("umount", mount.toString());
        }
    }

    @Test
    void aFullDiskStopsTheRunPartialWithItsLostLinesCountedAndWhatWasWrittenWhole() throws Exception {
        Path disk = Files.createDirectories(tmp.resolve("disk"));
        boolean mounted = exec("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", disk.toString()) == 0;
        assumeTrue(mounted, "skipped: cannot mount a 2 MB tmpfs here (needs root and CAP_SYS_ADMIN) to fill a disk");
        mount = disk;
        Path dir = disk.resolve("run");
        try (PageServer server = new PageServer()) {
            // No think time: the request log fills what the disk has left after the summary's reserve in a second or
            // two, far ahead of the 30 s run phase.
            Map<String, String> p = Map.of(
                    "client_target",
                    server.base(),
                    "client_backend",
                    "netty",
                    "workload_number_of_clients_per_node",
                    "4",
                    "workload_up_ramp_time_in_ms",
                    "0",
                    "workload_down_ramp_time_in_ms",
                    "0",
                    "workload_session_run_time_in_ms",
                    "30000",
                    "workload_think_scale",
                    "0",
                    "client_progress",
                    "no");
            long t0 = System.nanoTime();
            Summary s = new RunEngine(
                            ConfigLoader.load((Path) null, p), dir, new PrintStream(OutputStream.nullOutputStream()))
                    .run();
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
            assertTrue(seconds < 20, "stopped at the full disk, not at the run's end: " + seconds + " s");
            assertEquals(RunStatus.PARTIAL, s.status(), s.stopReason());
            // Whichever log asked the disk for a block first (most often the request log).
            assertTrue(
                    s.stopReason().matches("disk full: (requests|sessions)\\.csv: No space left on device; .*"),
                    s.stopReason());
            JsonNode json =
                    new ObjectMapper().readTree(RunFiles.summaryJson(dir).toFile());
            long lost = json.path("records_lost").asLong();
            assertTrue(lost > 0, "the lines that could not be written are counted: " + json);
            assertTrue(s.stopReason().contains(lost + " log lines lost"), s.stopReason());
            assertTrue(
                    Files.readString(RunFiles.summaryText(dir)).contains("partial (disk full"), "summary.txt written");
            // Whole lines only, and the summary's figures are the lines the file holds.
            String requests = Files.readString(RunFiles.requests(dir));
            assertTrue(requests.endsWith("\n"), "requests.csv ends with a whole line");
            List<String> lines = requests.lines().toList();
            int columns = lines.get(0).split(",", -1).length;
            for (String line : lines) {
                assertEquals(columns, line.split(",", -1).length, "a whole line: " + line);
            }
            assertTrue(lines.size() > 100, "the run logged requests before the disk filled: " + lines.size());
            assertEquals(lines.size() - 1, json.path("requests").asLong(), "the summary counts the lines written");
            assertEquals(lines.size() - 1, json.path("requests_logged").asLong());
            String sessions = Files.readString(RunFiles.sessions(dir));
            assertTrue(sessions.isEmpty() || sessions.endsWith("\n"), "sessions.csv ends with a whole line");
            assertFalse(Files.exists(dir.resolve(RunFiles.DISK_RESERVE)), "the reserve was given back");
        }
    }
}
