package org.rubis.format.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** summary.txt's long values: wrapped at spaces under their label, the verdict a clause a line, nothing lost. */
class SummaryLinesTest {

    /** A verdict of the length the issue found (a HOST finding with four pieces of evidence, the server, accuracy). */
    private static final String VERDICT =
            "SUSPECT: HOST: other processes used 1.46 of 2 cores, 4.6 runnable threads on 2"
                    + " cores on average (procs_running), an idle client thread woke up to 17.0 ms late (p99), the client's own CPU"
                    + " was 0.05 cores and its idle threads woke as late, so its p99 send lateness of 24.7 ms is the host's; the"
                    + " client itself was fine (0.05 cores, GC max 6 ms); embedded server 0.07 cores. Accuracy not measured (no"
                    + " packet capture): the figures above are indicators only.";

    private static String words(String s) {
        return s.replaceAll("\\s+", " ").strip();
    }

    @Test
    void theVerdictIsItsWordThenAClauseALine() {
        String text = SummaryLines.verdict(VERDICT);
        List<String> lines = text.lines().toList();
        assertEquals("verdict:                 SUSPECT", lines.get(0));
        assertTrue(lines.get(1).startsWith("  HOST: other processes used 1.46 of 2 cores"), text);
        assertTrue(lines.stream().allMatch(l -> l.length() <= SummaryLines.WIDTH), text);
        assertTrue(
                lines.stream().anyMatch(l -> l.equals("  the client itself was fine (0.05 cores, GC max 6 ms)")), text);
        assertTrue(lines.stream().anyMatch(l -> l.equals("  embedded server 0.07 cores.")), text);
        assertTrue(lines.get(lines.size() - 1).startsWith("  Accuracy not measured"), text);
        // Nothing lost or reordered: the clauses joined back are the verdict.
        String joined = words(String.join(" ", lines.subList(1, lines.size())));
        assertEquals(words(VERDICT.substring("SUSPECT: ".length())).replace("; ", " "), joined.replace("; ", " "));
    }

    @Test
    void okAndInvalidVerdicts() {
        assertEquals(
                "verdict:                 OK\n  no cause found: client 0.05 cores\n",
                SummaryLines.verdict("OK: no cause found: client 0.05 cores"));
        assertTrue(SummaryLines.verdict("INVALID: the run did not measure the target (out of memory)")
                .startsWith(
                        "verdict:                 INVALID\n  the run did not measure the target (out of memory)\n"));
    }

    @Test
    void aLongValueWrapsUnderItself() {
        String value =
                "yes: Little's law N/(X(R+Z)) = 0.944 (steady: 0.931..1.069, 2.58 standard errors of 2.7 % for a run"
                        + " phase this short or a population this small); throughput trend -0.122 req/s per s (99% CI -0.965..+0.722,"
                        + " 20 windows of 1 s), first half 45.0, second half 42.4 req/s";
        String text = SummaryLines.line("run phase steady", value);
        List<String> lines = text.lines().toList();
        assertTrue(lines.size() >= 2, text);
        assertTrue(lines.get(0).startsWith("run phase steady:        yes: Little's law"), text);
        lines.forEach(l -> assertTrue(l.length() <= SummaryLines.WIDTH, l));
        lines.subList(1, lines.size())
                .forEach(l -> assertTrue(
                        l.startsWith(" ".repeat(SummaryLines.VALUE_COLUMN))
                                && l.charAt(SummaryLines.VALUE_COLUMN) != ' ',
                        l));
        assertEquals(value, words(text.substring(SummaryLines.VALUE_COLUMN)));
        // A word longer than the width keeps its own line whole (a path).
        String path = "/" + "d".repeat(150);
        assertEquals("run directory:           " + path + "\n", SummaryLines.line("run directory", path));
    }
}
