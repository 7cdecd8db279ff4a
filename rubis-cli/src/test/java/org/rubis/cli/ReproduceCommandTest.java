package org.rubis.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.client.report.ExitStatus;

/** Mistakes on the reproduce command line are one line each, before any run starts. */
class ReproduceCommandTest {

    @TempDir
    Path work;

    private static String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = RubisClientMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new String[] {String.valueOf(status), out.toString(), err.toString()};
    }

    @Test
    void unknownExperimentNamesTheChoices() {
        String[] r =
                run("reproduce", "conection-sharing", "--out", work.resolve("a").toString());
        assertEquals(String.valueOf(ExitStatus.USAGE), r[0]);
        assertEquals(1, r[2].strip().lines().count(), r[2]);
        assertTrue(r[2].contains("no such experiment") && r[2].contains("connection-sharing"), r[2]);
        assertTrue(!Files.exists(work.resolve("a")), "nothing written");
    }

    @Test
    void targetMustBeAnHttpUrl() {
        String[] r = run(
                "reproduce",
                "all",
                "--target",
                "ftp://x",
                "--out",
                work.resolve("b").toString());
        assertEquals(String.valueOf(ExitStatus.USAGE), r[0]);
        assertEquals(1, r[2].strip().lines().count(), r[2]);
        assertTrue(r[2].startsWith("error: --target ftp://x"), r[2]);
    }

    @Test
    void aNonEmptyOutputDirectoryIsRefused() throws Exception {
        Files.writeString(work.resolve("old.txt"), "a previous reproduction");
        String[] r = run("reproduce", "tls", "--out", work.toString());
        assertEquals(String.valueOf(ExitStatus.USAGE), r[0]);
        assertTrue(r[2].contains("not empty"), r[2]);
    }

    @Test
    void twoScalesAreOneLineBeforeAnyRun() {
        String[] r = run(
                "reproduce",
                "tls",
                "--quick",
                "--smoke",
                "--out",
                work.resolve("c").toString());
        assertEquals(String.valueOf(ExitStatus.USAGE), r[0]);
        assertEquals(1, r[2].strip().lines().count(), r[2]);
        assertTrue(r[2].contains("--quick and --smoke"), r[2]);
        assertTrue(!Files.exists(work.resolve("c")), "nothing written");
    }
}
