package org.rubis.client.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.rubis.format.AtomicFile;
import org.rubis.format.RunFiles;

/**
 * How the shards of {@code run --shards N} start together as soon as the slowest is ready, instead of at an instant
 * guessed ahead for the slowest host: each shard gets ready at its own pace (JVM, configuration, JIT warm-up, backend,
 * logs, fixed-cost calibration), says so with {@link RunFiles#SHARD_READY} in its run directory, and waits for
 * {@link RunFiles#SHARD_START_AT}, the instant its parent writes into every shard's directory once all are ready.
 * Files, each written whole ({@link AtomicFile#publish}), because the parent and its shards already share the run
 * directory and a file can be read by anyone who wonders why a shard waits; the shard removes both once it has read its
 * instant, so a run's directory ends as it would have without them.
 */
public final class StartHandshake {

    /** How often a waiting shard looks for its start instant: a delay the parent's margin covers many times over. */
    public static final long POLL_NS = 5_000_000L;

    private final Path ready;
    private final Path startAt;

    /** The handshake of the shard whose run directory is {@code shardDir}. */
    public StartHandshake(Path shardDir) {
        this.ready = shardDir.resolve(RunFiles.SHARD_READY);
        this.startAt = shardDir.resolve(RunFiles.SHARD_START_AT);
    }

    // ---- the shard's side

    /** The shard is ready: everything before t = 0 is done ({@code now} is written, for whoever looks). */
    public void ready(Instant now) throws IOException {
        AtomicFile.publish(ready, now + "\n");
    }

    /**
     * The start instant, once the parent has given it, else null. A file that does not hold an instant is an
     * {@link IOException} naming it (only a hand can write one).
     */
    public Instant startInstant() throws IOException {
        String text;
        try {
            text = Files.readString(startAt, StandardCharsets.UTF_8).strip();
        } catch (NoSuchFileException notYet) {
            return null;
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new IOException(startAt + ": \"" + text + "\" is not an ISO-8601 instant");
        }
    }

    /** Removes both files (the wait is over, or was given up): the run directory holds the run's files only. */
    public void done() throws IOException {
        Files.deleteIfExists(ready);
        Files.deleteIfExists(startAt);
    }

    // ---- the parent's side

    /** Whether the shard said it is ready (and has not read its start instant yet). */
    public boolean isReady() {
        return Files.exists(ready);
    }

    /** Gives the shard its start instant. */
    public void start(Instant instant) throws IOException {
        AtomicFile.publish(startAt, instant + "\n");
    }
}
