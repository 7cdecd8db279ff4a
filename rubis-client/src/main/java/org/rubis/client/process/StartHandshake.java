package org.rubis.client.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.rubis.format.io.AtomicFile;
import org.rubis.format.run.RunFiles;

/**
 * How the shards of {@code run --shards N} start together as soon as the slowest is ready, instead of at an instant
 * guessed ahead for the slowest host: each shard gets ready at its own pace (JVM, configuration, JIT warm-up, backend,
 * logs, fixed-cost calibration), says so with {@link RunFiles#SHARD_READY} in its run directory, and waits for
 * {@link RunFiles#SHARD_START_AT}, the instant its parent writes into every shard's directory once all are ready.
 * Files, each written whole ({@link AtomicFile#publish}), because the parent and its shards already share the run
 * directory and a file can be read by anyone who wonders why a shard waits; the shard removes both once it has read its
 * instant, so a run's directory ends as it would have without them.
 *
 * <p>Without a parent ({@link #amongPeers}: the pods of a Kubernetes Job, {@code run --shard I/N --start-at ready}) the
 * shards' directories are {@code DIR/shard-0} ... {@code DIR/shard-(N-1)} on one shared volume, and shard 0 plays the
 * parent: once every shard's {@code ready} is there it writes one instant into every directory. The wait is bounded:
 * shard 0 gives up after the timeout and tells the others why (a {@code start-at} that reads {@code never: ...}), and
 * every other shard gives up a little later on its own (shard 0 may be the one that is lost).
 */
public final class StartHandshake {

    /** How often a waiting shard looks for its start instant: a delay the parent's margin covers many times over. */
    public static final long POLL_NS = 5_000_000L;

    /**
     * Among peers: from shard 0's decision to the instant. The files cross a shared volume, which may be a network file
     * system that shows another node's new file only after its attribute cache's delay (a second or more).
     */
    public static final Duration PEER_MARGIN = Duration.ofSeconds(5);

    /** Among peers: how often shard 0 looks at the other shards' directories (N lookups each time). */
    static final long PEER_LOOK_NS = TimeUnit.MILLISECONDS.toNanos(100);

    private static final String NEVER = "never: ";

    private final Path ready;
    private final Path startAt;
    /** Among peers: every shard's directory, this one's included, by index; null when a parent gives the instant. */
    private final List<Path> peers;

    private final int index;
    private final Duration timeout;
    private final Duration margin;
    /** Among peers: when this shard gives up, once ready (System.nanoTime()). */
    private long deadlineNs;

    private long nextLookNs;

    /** The handshake of the shard whose run directory is {@code shardDir}, its parent giving the instant. */
    public StartHandshake(Path shardDir) {
        this(shardDir, null, 0, Duration.ZERO, Duration.ZERO);
    }

    private StartHandshake(Path shardDir, List<Path> peers, int index, Duration timeout, Duration margin) {
        this.ready = shardDir.resolve(RunFiles.SHARD_READY);
        this.startAt = shardDir.resolve(RunFiles.SHARD_START_AT);
        this.peers = peers;
        this.index = index;
        this.timeout = timeout;
        this.margin = margin;
    }

    /**
     * Shard {@code index} of {@code count} whose run directory is {@code shardDir} = {@code DIR/shard-index}, the others
     * beside it, with no parent: shard 0 gives the instant once all are ready, or gives up after {@code timeout}.
     */
    public static StartHandshake amongPeers(Path shardDir, int index, int count, Duration timeout) {
        return amongPeers(shardDir, index, count, timeout, PEER_MARGIN);
    }

    /** Tests: another margin. */
    static StartHandshake amongPeers(Path shardDir, int index, int count, Duration timeout, Duration margin) {
        Path run = shardDir.toAbsolutePath().normalize().getParent();
        List<Path> peers = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            peers.add(RunFiles.shardDir(run, i));
        }
        return new StartHandshake(shardDir, List.copyOf(peers), index, timeout, margin);
    }

    // ---- the shard's side

    /** The shard is ready: everything before t = 0 is done ({@code now} is written, for whoever looks). */
    public void ready(Instant now) throws IOException {
        AtomicFile.publish(ready, now + "\n");
        long t = System.nanoTime();
        // Shard 0 decides; the others wait for its word a margin longer, so that they hear why it gave up.
        deadlineNs = t + timeout.toNanos() + (index == 0 ? 0 : 2 * margin.toNanos());
        nextLookNs = t;
    }

    /**
     * The start instant, once given, else null. A file that does not hold an instant is an {@link IOException} naming
     * it (only a hand can write one). Among peers, shard 0 gives it here when every shard is ready, and a wait past
     * the timeout is an {@link IOException} saying which shards were not ready.
     */
    public Instant startInstant() throws IOException {
        Instant given = given();
        if (given != null || peers == null) {
            return given;
        }
        long now = System.nanoTime();
        if (index == 0 && now - nextLookNs >= 0) {
            nextLookNs = now + PEER_LOOK_NS;
            List<Integer> notReady = notReady();
            if (notReady.isEmpty()) {
                Instant t = Instant.now().plus(margin).truncatedTo(ChronoUnit.MILLIS);
                for (Path p : peers) {
                    new StartHandshake(p).start(t);
                }
                return t;
            }
            if (now - deadlineNs >= 0) {
                String why = "shard" + (notReady.size() > 1 ? "s " : " ")
                        + String.join(
                                ", ", notReady.stream().map(String::valueOf).toList()) + " of " + peers.size()
                        + " not ready within " + timeout.toSeconds() + " s (no " + RunFiles.SHARD_READY + " in "
                        + peers.get(notReady.get(0)) + "): nothing was run";
                for (Path p : peers) {
                    if (!p.equals(peers.get(0)) && Files.isDirectory(p)) {
                        AtomicFile.publish(p.resolve(RunFiles.SHARD_START_AT), NEVER + why + "\n");
                    }
                }
                throw new IOException(why);
            }
        } else if (index != 0 && now - deadlineNs >= 0) {
            throw new IOException("shard 0 gave no start instant within "
                    + (timeout.plus(margin).plus(margin).toMillis() / 1000.0)
                    + " s (it gives one once every shard is ready; its own log says why not): nothing was run");
        }
        return null;
    }

    /** The shards among peers that have not said they are ready (nor read their instant yet). */
    private List<Integer> notReady() {
        List<Integer> l = new ArrayList<>();
        for (int i = 0; i < peers.size(); i++) {
            Path p = peers.get(i);
            if (!Files.exists(p.resolve(RunFiles.SHARD_READY)) && !Files.exists(p.resolve(RunFiles.SHARD_START_AT))) {
                l.add(i);
            }
        }
        return l;
    }

    private Instant given() throws IOException {
        String text;
        try {
            text = Files.readString(startAt, StandardCharsets.UTF_8).strip();
        } catch (NoSuchFileException notYet) {
            return null;
        }
        if (text.startsWith(NEVER)) {
            throw new IOException(text.substring(NEVER.length()));
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
