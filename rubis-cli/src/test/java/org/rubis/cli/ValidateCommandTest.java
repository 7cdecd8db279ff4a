package org.rubis.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.client.TestFiles;
import org.rubis.client.report.ExitStatus;

class ValidateCommandTest {

    @TempDir
    Path tmp;

    private record Result(int status, String out, String err) {}

    private static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = RubisClientMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(status, out.toString(), err.toString());
    }

    @Test
    void shippedPropertiesAreLoadableWithTheColumnSumReport() {
        Result r = run(
                "validate",
                "-p",
                TestFiles.propertiesDir().resolve("rubis.properties").toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("name: Default transition set"), r.out());
        assertTrue(r.out().contains(" 9 ViewItem"), r.out());
        assertTrue(
                r.out()
                        .matches(
                                "(?s).*Column sums differing from 1 by more than 0.001 \\(\\d+ of 27\\):.*Home\\s+0\\.9700.*"),
                r.out());
        assertTrue(r.out().contains("OK: loadable"));
    }

    @Test
    void browsingMixByOverride() {
        Result r = run(
                "validate",
                "-p",
                TestFiles.propertiesDir().resolve("rubis.properties").toString(),
                "-Dworkload_transition_table=browse_only_transitions.txt");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("browse_only_transitions.txt"), r.out());
    }

    @Test
    void unloadableFileExitsWithTheUsageStatusOneLineAndNoStackTrace() {
        Path p = TestFiles.write(
                tmp,
                "bad.properties",
                "workload_transition_table = nothere.txt\nworkload_session_run_time_in_ms = 1000\n");
        Result r = run("validate", "-p", p.toString());
        assertEquals(ExitStatus.USAGE, r.status());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(
                r.err().startsWith("error: " + p + ":1: workload_transition_table = \"nothere.txt\": file not found"),
                r.err());
        assertFalse(r.err().contains("at org."), r.err());
    }

    @Test
    void missingPropertiesFile() {
        Result r = run("validate", "-p", tmp.resolve("none.properties").toString());
        assertEquals(ExitStatus.USAGE, r.status());
        assertTrue(r.err().contains("none.properties: file not found"), r.err());
    }
}
