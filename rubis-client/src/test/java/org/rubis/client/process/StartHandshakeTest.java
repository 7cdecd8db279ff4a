package org.rubis.client.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.format.run.RunFiles;

/**
 * The start handshake's files, as a shard and its parent see them: the parent sees the shard ready, the shard reads the
 * exact instant the parent gave, and once done the shard's run directory holds none of them (nor a temporary file).
 */
class StartHandshakeTest {

    @TempDir
    Path dir;

    @Test
    void theShardReadsTheInstantItsParentGaveAndLeavesNoFileBehind() throws Exception {
        StartHandshake shard = new StartHandshake(dir);
        StartHandshake parent = new StartHandshake(dir); // the same files, seen from the other process
        assertFalse(parent.isReady());
        assertNull(shard.startInstant(), "no instant before the parent gives one");

        shard.ready(Instant.now());
        assertTrue(parent.isReady());
        assertTrue(Files.isRegularFile(dir.resolve(RunFiles.SHARD_READY)));
        assertNull(shard.startInstant(), "ready is not started");

        Instant start = Instant.parse("2026-11-27T06:00:00.123456789Z");
        parent.start(start);
        assertEquals(start, shard.startInstant(), "to the nanosecond");

        shard.done();
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.toList(), "the run directory holds the run's files only");
        }
        assertFalse(parent.isReady());
        shard.done(); // twice (a stop and the end): nothing to remove, no error
    }

    @Test
    void aStartFileThatHoldsNoInstantIsAnErrorNamingIt() throws Exception {
        Files.writeString(dir.resolve(RunFiles.SHARD_START_AT), "soon\n");
        IOException e = assertThrows(IOException.class, () -> new StartHandshake(dir).startInstant());
        assertEquals(dir.resolve(RunFiles.SHARD_START_AT) + ": \"soon\" is not an ISO-8601 instant", e.getMessage());
    }

    private List<StartHandshake> peers(int n, Duration timeout) throws IOException {
        List<StartHandshake> l = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Path d = Files.createDirectories(RunFiles.shardDir(dir.resolve("run"), i));
            l.add(StartHandshake.amongPeers(d, i, n, timeout, Duration.ofMillis(200)));
        }
        return l;
    }

    /** Polls like a waiting shard, until an instant or {@code seconds}. */
    private static Instant await(StartHandshake h, long seconds) throws Exception {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        Instant t = h.startInstant();
        while (t == null && System.nanoTime() < end) {
            Thread.sleep(5);
            t = h.startInstant();
        }
        return t;
    }

    /**
     * Without a parent (the pods of a Kubernetes Job on one shared volume): shard 0 gives no instant while a shard is
     * not ready, then one instant, which every shard reads.
     */
    @Test
    void amongPeersShardZeroGivesOneInstantOnceEveryShardIsReady() throws Exception {
        List<StartHandshake> s = peers(3, Duration.ofMinutes(5));
        s.get(0).ready(Instant.now());
        s.get(1).ready(Instant.now());
        Thread.sleep(150); // past shard 0's next look at the others
        assertNull(s.get(0).startInstant(), "shard 2 is not ready");
        assertNull(s.get(1).startInstant());
        s.get(2).ready(Instant.now());
        Instant t = await(s.get(0), 10);
        assertTrue(t != null && t.isAfter(Instant.now()), "an instant ahead: " + t);
        assertEquals(t, s.get(1).startInstant());
        assertEquals(t, s.get(2).startInstant());
        for (StartHandshake h : s) {
            h.done();
        }
        for (int i = 0; i < 3; i++) {
            try (Stream<Path> left = Files.list(RunFiles.shardDir(dir.resolve("run"), i))) {
                assertEquals(List.of(), left.toList(), "shard " + i + " holds the run's files only");
            }
        }
    }

    /**
     * A shard that never gets ready: shard 0 gives up after the timeout naming it, and the others learn why from it,
     * not from a wait of their own.
     */
    @Test
    void amongPeersAShardNeverReadyEndsTheWaitOfAllWithItsName() throws Exception {
        List<StartHandshake> s = peers(3, Duration.ofSeconds(1));
        s.get(0).ready(Instant.now());
        s.get(1).ready(Instant.now());
        IOException e = assertThrows(IOException.class, () -> await(s.get(0), 30));
        assertTrue(e.getMessage().startsWith("shard 2 of 3 not ready within 1 s"), e.getMessage());
        IOException told = assertThrows(IOException.class, () -> s.get(1).startInstant());
        assertEquals(e.getMessage(), told.getMessage(), "shard 1 is told why");
    }

    /** Shard 0 lost: every other shard gives up on its own, a little after the timeout, and says so. */
    @Test
    void amongPeersWithoutShardZeroTheOthersGiveUp() throws Exception {
        List<StartHandshake> s = peers(2, Duration.ofSeconds(1));
        s.get(1).ready(Instant.now());
        IOException e = assertThrows(IOException.class, () -> await(s.get(1), 30));
        assertTrue(e.getMessage().startsWith("shard 0 gave no start instant within 1.4 s"), e.getMessage());
    }
}
