package org.rubis.client.log;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import org.rubis.client.input.ConfigException;

/**
 * Gives a run a directory of its own. Two runs started in the same second used to share {@code runs/<timestamp>}
 * and write their logs into each other's files. A new directory is created atomically ({@link Files#createDirectory}),
 * its name the start time with {@code -2}, {@code -3}, ... when another run took it first: no two runs get it.
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
    public static Path createNew(Path parent, LocalDateTime now) throws IOException {
        Files.createDirectories(parent);
        String base = now.format(NAME);
        for (int i = 1; i <= MAX_SAME_SECOND; i++) {
            Path p = parent.resolve(i == 1 ? base : base + "-" + i);
            try {
                return Files.createDirectory(p);
            } catch (FileAlreadyExistsException taken) {
                // another run's (or anything else): the next name
            }
        }
        throw new ConfigException(parent.resolve(base) + "-" + MAX_SAME_SECOND + ": every name of this second is taken; give --out DIR");
    }
}
