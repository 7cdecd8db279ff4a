package org.rubis.client.log;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import org.rubis.client.input.ConfigException;
import org.rubis.format.io.FileProblem;

/**
 * Gives a run a directory of its own. Two runs started in the same second used to share {@code runs/<timestamp>}
 * and write their logs into each other's files; a given {@code --out} that held a previous run kept that run's
 * files beside the new ones (its server log, joined by {@code report} with the new client logs) and followed the
 * symbolic links in it. So: a new directory is created atomically ({@link Files#createDirectory}), its name the
 * start time with {@code -2}, {@code -3}, ... when another run took it first; a given one must be missing (then
 * created) or empty, and {@code --force} empties it only when everything in it is a file a run writes
 * ({@link RunDirectoryNames}): the links in it are deleted, never followed, and nothing outside it is touched.
 * A directory that cannot be one (a file, a path under a file, no permission) is a one-line error.
 */
public final class RunDirectoryClaim {

    /** The name of a new run directory: its start time, to the second. */
    static final DateTimeFormatter NAME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
    /** Runs started in one second that can each get a name ({@code -2} .. {@code -999}). */
    static final int MAX_SAME_SECOND = 999;

    private RunDirectoryClaim() {}

    /**
     * A new directory under {@code parent}, named for {@code now} (with a suffix when a run started in the same second
     * took the name), created here: no other run can have it.
     */
    public static Path createNew(Path parent, LocalDateTime now) {
        String base = now.format(NAME);
        try {
            Files.createDirectories(parent);
            for (int i = 1; i <= MAX_SAME_SECOND; i++) {
                Path p = parent.resolve(i == 1 ? base : base + "-" + i);
                try {
                    return withSpace(Files.createDirectory(p), p.toString());
                } catch (FileAlreadyExistsException taken) {
                    // another run's (or anything else): the next name
                }
            }
        } catch (FileSystemException e) {
            throw new ConfigException("cannot create a run directory in " + parent + ": " + FileProblem.of(e, parent)
                    + "; run from a folder " + "this user may write, or give --out DIR");
        } catch (IOException e) {
            throw new ConfigException(
                    "cannot create a run directory in " + parent + ": " + e.getMessage() + "; give --out DIR");
        }
        throw new ConfigException(
                parent.resolve(base) + "-" + MAX_SAME_SECOND + ": every name of this second is taken; give --out DIR");
    }

    /**
     * Makes {@code dir} (the user's {@code --out}) this run's: created when missing; an existing one must be an empty
     * directory, or, with {@code force}, one that holds only what a run writes, which is then deleted.
     */
    public static Path claim(Path dir, boolean force) {
        String what = "--out " + dir;
        try {
            return claim(dir, force, what);
        } catch (FileSystemException e) {
            throw new ConfigException(
                    what + ": " + FileProblem.of(e, dir) + "; give a new or empty directory this user may write");
        } catch (IOException e) {
            throw new ConfigException(
                    what + ": " + e.getMessage() + "; give a new or empty directory this user may write");
        }
    }

    private static Path claim(Path dir, boolean force, String what) throws IOException {
        if (!Files.exists(dir)) {
            Path parent = dir.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try {
                return withSpace(Files.createDirectory(dir), what);
            } catch (FileAlreadyExistsException raced) {
                // made meanwhile by someone else: checked as an existing one
            }
        }
        if (!Files.isDirectory(dir)) {
            if (Files.isSymbolicLink(dir) && !Files.exists(dir)) {
                throw new ConfigException(what + ": a symbolic link to " + Files.readSymbolicLink(dir)
                        + ", which does not exist; give a new or empty directory, or make the link's target first");
            }
            throw new ConfigException(what + ": a file, not a directory; give a new or empty directory");
        }
        if (!Files.isWritable(dir)) {
            throw new ConfigException(
                    what + ": not writable (permission denied); give a new or empty directory this user may write");
        }
        String first = RunDirectoryNames.firstEntry(dir);
        if (first != null && !force) {
            throw new ConfigException(
                    what + ": not empty (" + first + " is there); a run writes only into a new or empty directory: "
                            + "give another --out, or add --force to delete the previous run's files in it");
        }
        if (first != null) {
            String foreign = RunDirectoryNames.firstForeign(dir);
            if (foreign != null) {
                throw new ConfigException(
                        what + ": holds " + foreign + ", which no run writes; --force deletes only a previous run's "
                                + "files: give another --out");
            }
            RunDirectoryNames.deleteContents(dir);
        }
        return withSpace(dir, what);
    }

    /**
     * What a run needs free on its directory's disk before it starts: the reserve its logs hold for the summary
     * ({@link RunLog#RESERVE_BYTES}) and the logs' first blocks. With less, the reserve could not be made: the run
     * ended in a stack trace after the server had started, with no summary and the reserve's part left behind.
     */
    static final long MIN_FREE_BYTES = RunLog.RESERVE_BYTES + 64 * 1024;

    /** {@code dir}, when its disk has room for a run ({@link #MIN_FREE_BYTES}); else a one-line error. */
    private static Path withSpace(Path dir, String what) throws IOException {
        long free = Files.getFileStore(dir).getUsableSpace();
        if (free < MIN_FREE_BYTES) {
            throw new ConfigException(what + ": " + free / 1024 + " KiB free on its disk, less than the "
                    + MIN_FREE_BYTES / 1024 + " KiB a run needs to start (the " + RunLog.RESERVE_BYTES / 1024
                    + " KiB its logs keep for the summary, and their first lines); free some space or give an --out"
                    + " on another disk");
        }
        return dir;
    }
}
