package org.rubis.format.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** summary.json and summary.txt are replaced whole or not at all: a kill during the write leaves no torn file. */
class AtomicFileTest {

    @TempDir
    Path dir;

    @Test
    void aFileIsWrittenWholeAndTheTemporaryFileIsGone() throws IOException {
        Path f = dir.resolve("summary.json");
        AtomicFile.writeString(f, "{\"status\": \"complete\"}\n");
        assertEquals("{\"status\": \"complete\"}\n", Files.readString(f));
        assertFalse(Files.exists(AtomicFile.temporary(f)), "the temporary file was renamed");
        try (var list = Files.list(dir)) {
            assertEquals(1, list.count(), "nothing else left in the run directory");
        }
    }

    @Test
    void anExistingFileIsReplacedWholeNotOverwrittenInPlace() throws IOException {
        Path f = dir.resolve("summary.txt");
        String longer = "x".repeat(100_000);
        AtomicFile.writeString(f, longer);
        Object before = Files.readAttributes(f, BasicFileAttributes.class).fileKey();
        AtomicFile.writeString(f, "short\n");
        assertEquals("short\n", Files.readString(f), "no tail of the longer old text");
        Object after = Files.readAttributes(f, BasicFileAttributes.class).fileKey();
        if (before != null && after != null) {
            assertFalse(before.equals(after), "a new file (inode) took the name: the old one was never truncated");
        }
        // a reader that opened the old file keeps reading the old text whole while the new one is written
        AtomicFile.writeString(f, longer);
        try (var reader = Files.newBufferedReader(f)) {
            AtomicFile.writeString(f, "replaced\n");
            assertEquals(longer, reader.readLine());
        }
        assertEquals("replaced\n", Files.readString(f));
    }

    @Test
    void aFailedWriteLeavesWhatWasThereAndNoTemporary() throws IOException {
        Path blocked = dir.resolve("summary.json");
        Files.createDirectory(blocked); // a non-empty directory in the way: the rename over it fails
        Files.writeString(blocked.resolve("x"), "kept");
        assertThrows(IOException.class, () -> AtomicFile.writeString(blocked, "new\n"));
        assertFalse(Files.exists(AtomicFile.temporary(blocked)), "the temporary file is removed on failure");
        assertEquals("kept", Files.readString(blocked.resolve("x")), "what was there is left as it was");
    }

    /** A link at the file or at its temporary file is replaced, never written through: the target outside stays as it was. */
    @Test
    void aLinkIsReplacedNotFollowed() throws IOException {
        Path victim = Files.writeString(dir.resolve("victim.txt"), "precious");
        Path run = Files.createDirectories(dir.resolve("run"));
        Path f = run.resolve("summary.json");
        Files.createSymbolicLink(f, victim);
        Files.createSymbolicLink(AtomicFile.temporary(f), victim);
        assertThrows(
                IOException.class, () -> AtomicFile.writeString(f, "{}"), "the link at the temporary file is refused");
        assertEquals("precious", Files.readString(victim));
        assertFalse(
                Files.exists(AtomicFile.temporary(f), LinkOption.NOFOLLOW_LINKS), "the failed write removed the link");
        AtomicFile.writeString(f, "{}");
        assertFalse(Files.isSymbolicLink(f), "the link was replaced by the file");
        assertEquals("{}", Files.readString(f));
        assertEquals("precious", Files.readString(victim));
    }

    @Test
    void aFreshRegularFileRefusesALink() throws IOException {
        Path victim = Files.writeString(dir.resolve("victim.txt"), "precious");
        Path link = Files.createSymbolicLink(dir.resolve("requests.csv"), victim);
        IOException e = assertThrows(IOException.class, () -> RegularFile.fresh(link));
        assertEquals(
                link + " is a symbolic link; a run never writes through one (delete it, or give a new --out)",
                e.getMessage());
        assertEquals("precious", Files.readString(victim));
        Path plain = Files.writeString(dir.resolve("sessions.csv"), "old");
        RegularFile.fresh(plain);
        assertEquals("", Files.readString(plain), "a regular file is emptied");
    }
}
