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
    void badJitWarmupIsOneLine() {
        Result r = run("run", "--jit-warmup", "fast");
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("error: --jit-warmup fast: expected auto, off or a number of requests"), r.err());
        assertTrue(r.status() != 0);
    }

    @Test
    void badBenchRateRoundsIsOneLine() {
        Result r = run("bench", "rate", "--rounds", "0");
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("error: --rounds 0: expected 1 to 100 rounds"), r.err());
        assertTrue(r.status() != 0);
        assertEquals("", r.out(), "nothing started");
    }

    @Test
    void unknownSubcommandIsOneLine() {
        Result r = run("rn");
        assertEquals(2, r.status());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("error: rn: unknown command") && r.err().contains("accepted: validate, run, bench"), r.err());
    }

    /** docs/SHARDING.md: a bad shard is stopped before anything is sent, with one line and status 1. */
    @Test
    void badShardInputIsOneLineBeforeAnythingIsSent() {
        String ahead = java.time.Instant.now().plusSeconds(600).toString();
        String[][] cases = {
            {"error: --shard 3/3: the index must be in 0..2 (shard I of N, 0-based)", "--shard", "3/3", "--start-at", ahead},
            {"error: --shard a/b: expected I/N with 0 <= I < N", "--shard", "a/b", "--start-at", ahead},
            {"error: --start-at 2020-01-01T00:00:00Z is ", "--shard", "0/2", "--start-at", "2020-01-01T00:00:00Z"},
            {"error: --start-at soon: expected an ISO-8601 instant", "--shard", "0/2", "--start-at", "soon"},
            {"error: --shard needs --start-at", "--shard", "0/2"},
        };
        for (String[] c : cases) {
            String[] args = new String[c.length + 5];
            args[0] = "run";
            System.arraycopy(c, 1, args, 1, c.length - 1);
            System.arraycopy(new String[] {"--target", "http://127.0.0.1:9", "--seed", "1", "--no-progress"}, 0, args, c.length, 5);
            Result r = run(args);
            assertEquals(1, r.status(), String.join(" ", args) + ": " + r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertTrue(r.err().startsWith(c[0]), r.err());
        }
        Result r = run("run", "--shard", "0/2", "--start-at", ahead, "--seed", "1", "--target", "embedded");
        assertEquals(1, r.status());
        assertTrue(r.err().startsWith("error: --shard with the embedded target would give each shard its own server"), r.err());
        Result s = run("run", "--shards", "2", "--shard", "0/2", "--seed", "1");
        assertEquals(1, s.status());
        assertTrue(s.err().startsWith("error: --shards 2 starts its own shards; leave out --shard"), s.err());
    }
}
