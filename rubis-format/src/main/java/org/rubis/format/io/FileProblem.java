package org.rubis.format.io;

import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * A file that cannot be read or written, said in one line for the user: which file (the one they named, not the
 * temporary file {@link AtomicFile} writes through) and why, in words ("permission denied", "a directory"). A
 * read-only folder or an output path that is a directory is the user's to fix, not a bug with a stack trace.
 */
public final class FileProblem {

    private FileProblem() {}

    /** {@code FILE: why} for a failed file operation. */
    public static String of(FileSystemException e) {
        return of(e, null);
    }

    /** As {@link #of(FileSystemException)}, but only {@code why} when the file is {@code named} (the message names it already). */
    public static String of(FileSystemException e, Path named) {
        String file = file(e);
        boolean same = named != null
                && file != null
                && Path.of(file)
                        .toAbsolutePath()
                        .normalize()
                        .equals(named.toAbsolutePath().normalize());
        return same ? reason(e) : (file == null ? "a file" : file) + ": " + reason(e);
    }

    private static String file(FileSystemException e) {
        String file = e.getOtherFile() != null ? e.getOtherFile() : e.getFile();
        if (file != null) {
            Path p = Path.of(file);
            String name = p.getFileName() == null ? "" : p.getFileName().toString();
            if (name.startsWith(".") && name.endsWith(".tmp") && name.length() > 5) {
                file = p.resolveSibling(name.substring(1, name.length() - 4))
                        .toString(); // AtomicFile's temporary: the file meant
            }
        }
        return file;
    }

    private static String reason(FileSystemException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof NotDirectoryException) {
            return "not a directory";
        }
        if (e instanceof FileAlreadyExistsException) {
            return "a file is in the way";
        }
        if (e instanceof DirectoryNotEmptyException) {
            return "a directory";
        }
        String r = e.getReason();
        return r == null
                ? String.valueOf(e.getMessage())
                : r.isEmpty() ? r : Character.toLowerCase(r.charAt(0)) + r.substring(1);
    }
}
