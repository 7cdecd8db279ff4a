package org.rubis.format.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Writes a file that is written once, at the end (summary.json, summary.txt, the server's stats.json, a report's
 * analysis.json), so that a reader or a kill never sees half of it: the text goes to {@code .NAME.tmp} in the same
 * directory, is forced to disk, and is then renamed over the file in one step. A kill during the write leaves the old file (or none) and at most the temporary file, never a
 * truncated summary that the analysis would fail to parse. Neither step follows a symbolic link: the temporary file is
 * opened with {@code O_NOFOLLOW} and the rename replaces a link at the target, never its target.
 */
public final class AtomicFile {

    private AtomicFile() {}

    /** The temporary file {@link #writeString} writes {@code target} through. */
    public static Path temporary(Path target) {
        return target.resolveSibling("." + target.getFileName() + ".tmp");
    }

    /** Replaces {@code target} with {@code text} (UTF-8) whole, or leaves it as it was. */
    public static void writeString(Path target, CharSequence text) throws IOException {
        write(target, text, true);
    }

    /**
     * Replaces {@code target} with {@code text} (UTF-8) whole, without forcing it to disk: for a file another running
     * process waits for (the start handshake of run --shards), which a crash makes worthless anyway, and which a forced
     * write would delay by as long as the disk is busy.
     */
    public static void publish(Path target, CharSequence text) throws IOException {
        write(target, text, false);
    }

    private static void write(Path target, CharSequence text, boolean force) throws IOException {
        Path tmp = temporary(target);
        try {
            try (FileChannel ch = FileChannel.open(
                    tmp,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS)) {
                ByteBuffer b = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8));
                while (b.hasRemaining()) {
                    ch.write(b);
                }
                if (force) {
                    ch.force(true); // on disk before the rename makes it the file: a crash leaves no renamed empty file
                }
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(
                        tmp,
                        target,
                        StandardCopyOption.REPLACE_EXISTING); // a file system without atomic rename: the best it offers
            }
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // the original failure is the one to report
            }
            throw e;
        }
    }
}
