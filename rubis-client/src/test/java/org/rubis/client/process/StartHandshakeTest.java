package org.rubis.client.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.format.RunFiles;

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
}
