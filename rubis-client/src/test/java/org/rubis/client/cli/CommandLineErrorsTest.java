package org.rubis.client.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** A mistyped option or value is one line naming the option and what it accepts, exit status 2: never the usage text. */
class CommandLineErrorsTest {

    private record Result(int status, String out, String err) {}

    private static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = RubisClientMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(status, out.toString(), err.toString());
    }

    @Test
    void badNumberIsOneLine() {
        Result r = run("run", "--users", "abc");
        assertEquals(2, r.status());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("error: --users: 'abc' is not an int, accepted: an integer"), r.err());
        assertTrue(r.err().strip().endsWith("; see rubis-client run --help"), r.err());
        assertEquals("", r.out());
    }

    @Test
    void unknownOptionIsOneLineWithASuggestion() {
        Result r = run("run", "--user", "20");
        assertEquals(2, r.status());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("error: --user: unknown option, did you mean --users"), r.err());
    }

    @Test
    void unknownSubcommandIsOneLine() {
        Result r = run("rn");
        assertEquals(2, r.status());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("error: rn: unknown command") && r.err().contains("accepted: validate, run, bench"), r.err());
    }
}
