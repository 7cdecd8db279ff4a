package org.rubis.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.rubis.analysis.cli.AnalysisMain;

/**
 * Parse errors of rubis-analysis are one line with exit status 2, no command is a usage error; every subcommand's help
 * describes its arguments.
 */
class CommandLineErrorsTest {

    private static String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = AnalysisMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new String[] {String.valueOf(status), out.toString(), err.toString()};
    }

    @Test
    void missingRequiredOptionIsOneLine() {
        String[] r = run("export-httperf", "some-run");
        assertEquals("2", r[0]);
        assertEquals(1, r[2].strip().lines().count(), r[2]);
        assertTrue(
                r[2].startsWith(
                        "error: --out: missing, accepted: a path (DIR); see rubis-analysis export-httperf --help"),
                r[2]);
    }

    @Test
    void unknownOptionIsOneLine() {
        String[] r = run("report", "--ot", "x.html", "run");
        assertEquals("2", r[0]);
        assertEquals(1, r[2].strip().lines().count(), r[2]);
        assertTrue(
                r[2].startsWith("error: --ot: unknown option")
                        && r[2].strip().endsWith("; see rubis-analysis report --help"),
                r[2]);
    }

    /** No command is a usage error, as in rubis-client: the usage on stderr (stdout stays clean), status 2. */
    @Test
    void noCommandIsAUsageError() {
        String[] r = run();
        assertEquals("2", r[0]);
        assertEquals("", r[1]);
        assertTrue(r[2].startsWith("Usage: rubis-analysis") && r[2].contains("report"), r[2]);
    }

    @Test
    void everySubcommandDescribesItsArguments() {
        for (String sub : new String[] {"report", "compare", "export-httperf", "merge"}) {
            String[] r = run(sub, "--help");
            assertEquals("0", r[0]);
            assertTrue(r[1].contains("_DIR") && r[1].contains("run director"), sub + ":\n" + r[1]);
            assertTrue(r[1].contains("--out="), sub + ":\n" + r[1]);
            assertFalse(r[1].contains("Default: null"), sub + ":\n" + r[1]);
        }
        assertTrue(run("compare", "--help")[1].contains("Default: comparison.html"));
    }

    /** An escape sequence in what an error quotes (here a directory name) reaches the terminal escaped. */
    @Test
    void quotedInputIsPrintedEscaped() {
        String[] r = run("report", "no-such-run\u001b[2J\u009b31m\u202e");
        assertEquals("1", r[0]);
        assertEquals(1, r[2].strip().lines().count(), r[2]);
        assertTrue(r[2].contains("no-such-run\\x1b[2J\\x9b31m<U+202E>: no such directory"), r[2]);
        assertTrue(r[2].strip().chars().noneMatch(c -> c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x202e), r[2]);
    }
}
