package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run writes only into a directory of its own (docs/RUN-DIRECTORY.md, "Which directory"). */
class RunDirectoryTest {

    @TempDir Path work;

    /** Two runs started together in one folder, no --out: two directories, each run's logs and ground truth in its own. */
    @Test
    void twoRunsStartedTogetherGetTwoDirectories() throws Exception {
        List<Process> runs = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            runs.add(Cli.client(work, "run", "--users", "3", "--ramp-up", "0", "--duration", "4s", "--ramp-down", "0", "--think-scale", "0.05",
                    "--no-progress", "-Dserver_size=0.01").redirectErrorStream(true).redirectOutput(work.resolve("run" + i + ".txt").toFile()).start());
        }
        for (int i = 0; i < 2; i++) {
            assertTrue(runs.get(i).waitFor(120, TimeUnit.SECONDS), "run " + i + " ended");
            assertEquals(0, runs.get(i).exitValue(), Files.readString(work.resolve("run" + i + ".txt")));
        }
        List<Path> dirs;
        try (Stream<Path> s = Files.list(work.resolve("runs"))) {
            dirs = s.sorted().toList();
        }
        assertEquals(2, dirs.size(), "one directory per run: " + dirs);
        for (Path d : dirs) {
            RunDir r = new RunDir(d);
            int client = r.csv("requests.csv").size();
            int server = r.csv("server/requests.csv").size();
            assertTrue(client > 0, d + ": the run sent requests");
            assertEquals(client, server, d + ": its server's ground truth holds this run's requests, no other's");
            assertEquals(client, r.json("summary.json").path("requests").asInt(), d + ": the summary is this run's");
        }
    }
}
