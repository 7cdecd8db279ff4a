package org.rubis.format.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** A failed file operation in one line, naming the file the user meant. */
class FileProblemTest {

    @Test
    void namesTheFileMeantAndTheCauseInWords() {
        assertEquals(
                "run/report.html: permission denied",
                FileProblem.of(new AccessDeniedException("run/.report.html.tmp")));
        assertEquals(
                "cmp: is a directory", FileProblem.of(new FileSystemException(".cmp.tmp", "cmp", "Is a directory")));
        assertEquals(
                "permission denied",
                FileProblem.of(new AccessDeniedException("/x/ro/run"), Path.of("/x/ro/../ro/run")));
        assertEquals(
                "/x/ro: permission denied", FileProblem.of(new AccessDeniedException("/x/ro"), Path.of("/x/ro/run")));
    }
}
