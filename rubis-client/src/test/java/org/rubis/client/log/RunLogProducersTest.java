package org.rubis.client.log;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.rubis.client.workload.Interaction;
import org.rubis.format.run.Phase;
import org.rubis.format.run.SessionEnd;

/**
 * Both queues between the producers and the log's writer (the array queue for a few event loops or carriers, the
 * linked one for thousands of platform threads) carry every record exactly once when hundreds of threads add at
 * the same moment, as users do at the end of a run: the file has one line per record added, none twice.
 */
class RunLogProducersTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(RunLog.Producers.class)
    void hundredsOfThreadsAddingAtOnceLoseNothingAndDuplicateNothing(RunLog.Producers producers) throws Exception {
        int threads = 400;
        int each = 50;
        RunLog log = new RunLog(dir, r -> {}, s -> {}, producers);
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int user = t;
            started.add(Thread.ofPlatform().start(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int k = 0; k < each; k++) {
                    log.add(new RequestRecord(
                            user,
                            "user" + user,
                            k,
                            Interaction.HOME,
                            "/p/" + user + "/" + k,
                            Phase.RUN,
                            1,
                            2,
                            3,
                            4,
                            5,
                            200,
                            null,
                            false,
                            "127.0.0.1:1",
                            false,
                            "dedicated",
                            0,
                            0,
                            0,
                            -1,
                            "",
                            null));
                    if (k == each - 1) {
                        log.add(new SessionRecord(user, user, "user" + user, 1, 2, 3, each, 0, SessionEnd.RUN_ENDED));
                    }
                }
            }));
        }
        go.countDown();
        for (Thread t : started) {
            t.join(60_000);
        }
        log.close();
        List<String> lines = Files.readAllLines(dir.resolve("requests.csv"));
        Set<String> paths = new HashSet<>();
        for (String line : lines.subList(1, lines.size())) {
            paths.add(line.split(",")[4]);
        }
        assertEquals(threads * each, lines.size() - 1, "one line per record");
        assertEquals(threads * each, paths.size(), "none twice");
        assertEquals(
                threads + 1, Files.readAllLines(dir.resolve("sessions.csv")).size(), "every session's line");
        assertEquals(threads * each, log.written());
        assertEquals(0, log.lost());
    }
}
