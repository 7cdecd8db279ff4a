package org.rubis.format.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Opens the files of a run directory without following a symbolic link: a link planted in the directory (or left by
 * whatever used it before) would make a run overwrite its target, a file outside the directory. The open itself
 * refuses the link ({@code O_NOFOLLOW}), so there is no window between a check and the write.
 */
public final class RegularFile {

    private RegularFile() {}

    /**
     * Creates {@code p} empty, or empties it when it is a regular file; refuses a symbolic link with an
     * {@link IOException} naming it. Returns {@code p}, now safe to open with a stream that follows links.
     */
    public static Path fresh(Path p) throws IOException {
        try {
            FileChannel.open(
                            p,
                            StandardOpenOption.CREATE,
                            StandardOpenOption.TRUNCATE_EXISTING,
                            StandardOpenOption.WRITE,
                            LinkOption.NOFOLLOW_LINKS)
                    .close();
            return p;
        } catch (IOException e) {
            if (Files.isSymbolicLink(p)) {
                throw new IOException(
                        p + " is a symbolic link; a run never writes through one (delete it, or give a new --out)", e);
            }
            throw e;
        }
    }
}
