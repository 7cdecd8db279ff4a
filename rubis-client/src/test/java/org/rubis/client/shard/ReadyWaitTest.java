package org.rubis.client.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.client.process.StartHandshake;
import org.rubis.format.run.RunFiles;

/**
 * The parent's wait for its shards to get ready, against real child processes that behave as a shard does (a shell
 * that writes its ready file after a while, or ends first, or never gets ready): the start comes only when every one
 * is ready, a shard that ends first or is not ready in time is named, and a stop ends the wait.
 */
class ReadyWaitTest {

    @TempDir
    Path dir;

    private final List<Process> children = new ArrayList<>();
    private final List<StartHandshake> handshakes = new ArrayList<>();

    @AfterEach
    void stopChildren() {
        children.forEach(Process::destroyForcibly);
    }

    /** Shard {@code i}: runs {@code script} in its directory ({@code ready} is its ready file). */
    private void shard(String script) throws Exception {
        Path sd = RunFiles.shardDir(dir, children.size());
        Files.createDirectories(sd);
        children.add(
                new ProcessBuilder("sh", "-c", script).directory(sd.toFile()).start());
        handshakes.add(new StartHandshake(sd));
    }

    private ReadyWait.Result await(Duration bound) throws Exception {
        return ReadyWait.await(children, handshakes, System.nanoTime(), bound, () -> false);
    }

    @Test
    void theStartComesWhenTheLastShardIsReady() throws Exception {
        shard(": > ready; exec sleep 60");
        shard("sleep 0.3; : > ready; exec sleep 60");
        shard("sleep 0.6; : > ready; exec sleep 60");
        ReadyWait.Result r = await(Duration.ofSeconds(60));
        assertEquals(ReadyWait.Outcome.READY, r.outcome(), r.toString());
        for (StartHandshake h : handshakes) {
            assertTrue(h.isReady(), "every shard is ready: " + r);
        }
    }

    @Test
    void aShardThatEndsBeforeItIsReadyIsNamed() throws Exception {
        shard(": > ready; exec sleep 60");
        shard("sleep 0.2; exit 64");
        shard("exec sleep 60");
        ReadyWait.Result r = await(Duration.ofSeconds(60));
        assertEquals(ReadyWait.Outcome.SHARD_ENDED, r.outcome(), r.toString());
        assertEquals(List.of(1), r.shards());
    }

    @Test
    void shardsNotReadyWithinTheBoundAreNamedAndLeftToTheCaller() throws Exception {
        shard(": > ready; exec sleep 60");
        shard("exec sleep 60");
        shard("exec sleep 60");
        ReadyWait.Result r = await(Duration.ofMillis(300));
        assertEquals(ReadyWait.Outcome.NOT_READY, r.outcome(), r.toString());
        assertEquals(List.of(1, 2), r.shards());
        assertTrue(children.stream().allMatch(Process::isAlive), "the caller stops them, with its message");
    }

    @Test
    void aStopEndsTheWait() throws Exception {
        shard("exec sleep 60");
        AtomicBoolean stopped = new AtomicBoolean();
        Thread.ofPlatform().start(() -> {
            try {
                Thread.sleep(200);
            } catch (InterruptedException ignored) {
                // stop now
            }
            stopped.set(true);
        });
        ReadyWait.Result r =
                ReadyWait.await(children, handshakes, System.nanoTime(), Duration.ofSeconds(60), stopped::get);
        assertEquals(ReadyWait.Outcome.INTERRUPTED, r.outcome(), r.toString());
    }

    @Test
    void aStopWhileTheShardsWereStartedEndsTheWait() throws Exception {
        shard(": > ready; exec sleep 60");
        handshakes.add(new StartHandshake(RunFiles.shardDir(dir, 1))); // its process was never started
        ReadyWait.Result r = await(Duration.ofSeconds(60));
        assertEquals(ReadyWait.Outcome.INTERRUPTED, r.outcome(), r.toString());
    }
}
