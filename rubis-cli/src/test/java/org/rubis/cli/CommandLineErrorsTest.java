package org.rubis.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.client.TestFiles;
import org.rubis.client.report.ExitStatus;
import org.rubis.format.run.RunStatus;
import picocli.CommandLine;

/** A mistyped option or value is one line naming the option and what it accepts, exit status 64 (EX_USAGE): never the usage text. */
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
        assertEquals(ExitStatus.USAGE, r.status());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("error: --users: 'abc' is not an int, accepted: an integer"), r.err());
        assertTrue(r.err().strip().endsWith("; see rubis-client run --help"), r.err());
        assertEquals("", r.out());
    }

    @Test
    void unknownOptionIsOneLineWithASuggestion() {
        Result r = run("run", "--user", "20");
        assertEquals(ExitStatus.USAGE, r.status());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("error: --user: unknown option, did you mean --users"), r.err());
    }

    @Test
    void badJitWarmupIsOneLine() {
        Result r = run("run", "--jit-warmup", "fast");
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("error: --jit-warmup fast: expected auto, off or a number of requests"), r.err());
        assertEquals(ExitStatus.USAGE, r.status());
    }

    @Test
    void badBenchRateRoundsIsOneLine() {
        Result r = run("bench", "rate", "--rounds", "0");
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("error: --rounds 0: expected 1 to 100 rounds"), r.err());
        assertEquals(ExitStatus.USAGE, r.status());
        assertEquals("", r.out(), "nothing started");
    }

    @Test
    void unknownSubcommandIsOneLine() {
        Result r = run("rn");
        assertEquals(ExitStatus.USAGE, r.status());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(
                r.err().startsWith("error: rn: unknown command")
                        && r.err().contains("accepted: validate, run, profile, bench"),
                r.err());
    }

    /** docs/SHARDING.md: a bad shard is stopped before anything is sent, with one line and the usage status. */
    @Test
    void badShardInputIsOneLineBeforeAnythingIsSent() {
        String ahead = Instant.now().plusSeconds(600).toString();
        String[][] cases = {
            {
                "error: --shard 3/3: the index must be in 0..2 (shard I of N, 0-based)",
                "--shard",
                "3/3",
                "--start-at",
                ahead
            },
            {"error: --shard a/b: expected I/N with 0 <= I < N", "--shard", "a/b", "--start-at", ahead},
            {"error: --start-at 2020-01-01T00:00:00Z is ", "--shard", "0/2", "--start-at", "2020-01-01T00:00:00Z"},
            {"error: --start-at soon: expected an ISO-8601 instant", "--shard", "0/2", "--start-at", "soon"},
            {"error: --shard needs --start-at", "--shard", "0/2"},
        };
        for (String[] c : cases) {
            String[] args = new String[c.length + 5];
            args[0] = "run";
            System.arraycopy(c, 1, args, 1, c.length - 1);
            System.arraycopy(
                    new String[] {"--target", "http://127.0.0.1:9", "--seed", "1", "--no-progress"},
                    0,
                    args,
                    c.length,
                    5);
            Result r = run(args);
            assertEquals(ExitStatus.USAGE, r.status(), String.join(" ", args) + ": " + r.err());
            List<String> errors = r.err()
                    .lines()
                    .filter(l -> !l.startsWith("warning: "))
                    .toList(); // the configuration's warnings come first
            assertEquals(1, errors.size(), r.err());
            assertTrue(errors.get(0).startsWith(c[0]), r.err());
        }
        Result r = run("run", "--shard", "0/2", "--start-at", ahead, "--seed", "1", "--target", "embedded");
        assertEquals(ExitStatus.USAGE, r.status());
        assertTrue(
                r.err()
                        .lines()
                        .filter(l -> !l.startsWith("warning: "))
                        .findFirst()
                        .orElse("")
                        .startsWith("error: --shard with the embedded target would give each shard its own server"),
                r.err());
        Result s = run("run", "--shards", "2", "--shard", "0/2", "--seed", "1");
        assertEquals(ExitStatus.USAGE, s.status());
        assertTrue(
                s.err()
                        .lines()
                        .filter(l -> !l.startsWith("warning: "))
                        .findFirst()
                        .orElse("")
                        .startsWith("error: --shards 2 starts its own shards; leave out --shard"),
                s.err());
    }

    @Test
    void noSubcommandPrintsTheUsageToStderrAndIsAUsageError() {
        Result r = run();
        assertEquals(ExitStatus.USAGE, r.status());
        assertEquals("", r.out(), "a script's output stays clean");
        assertTrue(r.err().startsWith("Usage: rubis-client") && r.err().contains("run "), r.err());
    }

    /** A script must tell a mistake from a run that measured nothing: the usage status is no run status's. */
    @Test
    void theUsageStatusIsNoRunStatus() {
        for (RunStatus status : RunStatus.values()) {
            assertNotEquals(ExitStatus.USAGE, status.exitCode(), status.label());
            assertNotEquals(ExitStatus.BUG, status.exitCode(), status.label());
            assertNotEquals(ExitStatus.NOT_MERGED, status.exitCode(), status.label());
        }
    }

    @Test
    void outOfRangeValuesAreUsageErrorsNamingTheOption() {
        String[][] cases = {
            {"error: --users 0: too small; expected at least 1 users", "--users", "0"},
            {"error: --duration 0: too small; expected at least 1 ms", "--duration", "0"},
            {"error: --duration -5s: not a duration", "--duration", "-5s"},
            {"error: --max-sessions -1: negative", "--max-sessions", "-1"},
            {"error: --users 2000000000: more than the maximum", "--users", "2000000000"},
            {"error: --target http://127.0.0.1:99999: port 99999 is out of range", "--target", "http://127.0.0.1:99999"
            },
        };
        for (String[] c : cases) {
            Result r = run("run", c[1], c[2], "--no-progress");
            assertEquals(ExitStatus.USAGE, r.status(), r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertTrue(r.err().startsWith(c[0]), r.err());
            assertFalse(r.err().contains("_in_ms"), "names the option, not the property behind it: " + r.err());
        }
    }

    /** An unknown key typed on the command line is refused before anything starts, with the key it was probably meant to be. */
    @Test
    void unknownDefineIsRefusedWithTheNearestKey() {
        Result r = run("run", "-Dworkload_number_of_client_per_node=50", "--duration", "2s", "--no-progress");
        assertEquals(ExitStatus.USAGE, r.status(), r.err());
        assertEquals(
                "error: -Dworkload_number_of_client_per_node=50: unknown key, did you mean workload_number_of_clients_per_node?; nothing was run",
                r.err().strip());
        assertEquals("", r.out(), "nothing started");
        Result far = run("run", "-Dcompletely_unrelated=1", "--no-progress");
        assertEquals(ExitStatus.USAGE, far.status());
        assertEquals(
                "error: -Dcompletely_unrelated=1: unknown key (check its spelling); nothing was run",
                far.err().strip());
    }

    /** A misspelt key of a properties file is a warning printed before the run begins (here: before the shard check stops it). */
    @Test
    void fileKeyTypoIsWarnedBeforeTheRun(@TempDir Path tmp) throws Exception {
        String shipped = Files.readString(TestFiles.propertiesDir().resolve("rubis.properties"));
        shipped = shipped.endsWith("\n") ? shipped : shipped + "\n";
        Path props = Files.writeString(
                tmp.resolve("typo.properties"), shipped + "workload_number_of_client_per_node = 50\n");
        long line = shipped.lines().count() + 1;
        Result r = run(
                "run",
                "-p",
                props.toString(),
                "-Dworkload_transition_table=" + TestFiles.propertiesDir().resolve("default_transitions.txt"),
                "-Ddatabase_regions_file=" + TestFiles.propertiesDir().resolve("ebay_regions.txt"),
                "-Ddatabase_categories_file=" + TestFiles.propertiesDir().resolve("ebay_simple_categories.txt"),
                "--shard",
                "0/2",
                "--seed",
                "1",
                "--target",
                "http://127.0.0.1:9",
                "--no-progress");
        List<String> lines = r.err().strip().lines().toList();
        assertEquals(
                "warning: " + props + ":" + line
                        + ": workload_number_of_client_per_node: unknown key, ignored (check its spelling; did you mean "
                        + "workload_number_of_clients_per_node?)",
                lines.get(0),
                r.err());
        assertTrue(lines.get(lines.size() - 1).startsWith("error: --shard needs --start-at"), r.err());
    }

    /** Every option of every command says what it does (a help line with no description is a finding of the audit). */
    @Test
    void everyOptionHasADescription() {
        CommandLine cl = new CommandLine(new RubisClientMain());
        List<String> missing = new ArrayList<>();
        collect(cl, missing);
        assertEquals(List.of(), missing);
    }

    private static void collect(CommandLine cl, List<String> missing) {
        for (CommandLine.Model.OptionSpec o : cl.getCommandSpec().options()) {
            if (!o.hidden() && String.join("", o.description()).isBlank()) {
                missing.add(cl.getCommandSpec().qualifiedName() + " " + o.longestName());
            }
        }
        cl.getSubcommands().values().forEach(sub -> collect(sub, missing));
    }

    @Test
    void helpShowsTheDefaultsOfRampModeSourceAddressesAndAccuracysOptions() {
        String run = run("run", "--help").out().replaceAll("\\s+", " ");
        assertTrue(
                run.contains("--ramp-mode=MODE Closed mode")
                        && run.matches(".*--ramp-mode=MODE .*? Default: stationary --source-addresses.*"),
                run);
        assertTrue(run.matches(".*--source-addresses=N .*? Default: 1 --think-scale.*"), run);
        assertTrue(run.contains("a bare number is seconds (--duration 500 = 500 s"), run);
        String accuracy = run("accuracy", "--help").out().replaceAll("\\s+", " ");
        for (String o : List.of(
                "--ramp-up=TIME Up-ramp length (a bare number is seconds). Default: 10s",
                "--duration=TIME Length of the run (measured) " + "phase",
                "--out=DIR Directory for the runs, one per measurement. Default: runs/accuracy")) {
            assertTrue(accuracy.contains(o), accuracy);
        }
    }

    /** Each benchmark is a subcommand with its own defaults, shown by its help; shared option blocks read alike. */
    @Test
    void eachBenchmarkShowsItsOwnDefaults() {
        String backends = run("bench", "backends", "--help").out().replaceAll("\\s+", " ");
        assertTrue(
                backends.contains("--users=N Emulated users. Default: 200")
                        && backends.contains("Default: legacy,pooled,dedicated,netty"),
                backends);
        String soak = run("bench", "soak", "--help").out().replaceAll("\\s+", " ");
        assertTrue(
                soak.contains("--users=N Emulated users. Default: 4000")
                        && soak.contains("Default: 30m")
                        && soak.contains("Default: netty"),
                soak);
        String capacity = run("capacity", "--help").out().replaceAll("\\s+", " ");
        assertTrue(
                capacity.contains("--jvm-profile=NAME Run the client in a JVM with this profile's flags")
                        && capacity.contains("Default: 15s"),
                capacity);
    }

    @Test
    void aMissingOrUnknownBenchmarkIsOneLine() {
        Result none = run("bench");
        assertEquals(ExitStatus.USAGE, none.status());
        assertEquals(
                "error: missing benchmark, accepted: backends, server, accuracy, scale, rate, soak, report; see "
                        + "rubis-client bench --help",
                none.err().strip());
        Result typo = run("bench", "backend");
        assertEquals(ExitStatus.USAGE, typo.status());
        assertEquals(1, typo.err().strip().lines().count(), typo.err());
        assertTrue(typo.err().startsWith("error: backend: unknown command, did you mean backends"), typo.err());
        assertTrue(typo.err().contains("accepted: backends, server, accuracy, scale, rate, soak, report"), typo.err());
    }

    @Test
    void aMistypedEnumOrDurationOfALabCommandIsOneLine() {
        Result execution = run("capacity", "--execution", "threads");
        assertEquals(ExitStatus.USAGE, execution.status());
        assertTrue(
                execution
                        .err()
                        .startsWith("error: --execution: invalid value 'threads', accepted: platform, virtual, netty"),
                execution.err());
        Result duration = run("bench", "server", "--duration", "soon");
        assertEquals(ExitStatus.USAGE, duration.status());
        String expected = "error: --duration soon: not a duration; expected e.g. 60s, 2m, 500ms or 1h";
        assertEquals(expected, duration.err().strip());
        assertEquals("", duration.out(), "nothing started");
    }

    /** docs/FAULTS.md: a value quoted from an input file reaches the terminal with its control characters escaped. */
    @Test
    void escapeSequencesFromAnInputFileArePrintedEscaped(@TempDir Path dir) throws Exception {
        Path shipped = TestFiles.propertiesDir();
        String base = Files.readString(shipped.resolve("rubis.properties"))
                        .replaceAll("(?m)^workload_number_of_clients_per_node.*$", "")
                + "\n";
        String[] files = {
            "-Dworkload_transition_table=" + shipped.resolve("default_transitions.txt"),
            "-Ddatabase_regions_file=" + shipped.resolve("ebay_regions.txt"),
            "-Ddatabase_categories_file=" + shipped.resolve("ebay_simple_categories.txt")
        };
        Path props = dir.resolve("esc.properties");
        Files.writeString(props, base + "workload_number_of_clients_per_node = \u001b]0;owned\u0007\u001b[2J5\n");
        Result r = run("validate", "-p", props.toString(), files[0], files[1], files[2]);
        assertEquals(ExitStatus.USAGE, r.status());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("\\x1b]0;owned\\x07\\x1b[2J5"), r.err());
        assertTrue(
                r.err().strip().chars().noneMatch(c -> c < 0x20 || c == 0x7f),
                "no control character reaches stderr: " + r.err());
        Files.writeString(props, base + "workload_number_of_clients_per_node = 5\nclient_sede\u001b[31m = 1\n");
        Result w = run("validate", "-p", props.toString(), files[0], files[1], files[2]);
        assertEquals(0, w.status(), w.err());
        assertTrue(
                w.out().contains("client_sede\\x1b[31m") && w.err().isEmpty(),
                "validate lists the warning, escaped: " + w.out());
    }

    /** Options that contradict each other are one line naming both, never one of them ignored; so is a -D with no value. */
    @Test
    void conflictingOptionsAreOneLine() {
        String[][] cases = {
            {
                "error: --users and --session-rate: --users sets a closed population, --session-rate hybrid arrivals (sessions against the clock; "
                        + "--max-sessions caps them); give one of them",
                "--session-rate",
                "5",
                "--users",
                "3"
            },
            {
                "error: --arrivals closed and --session-rate: --session-rate sets hybrid arrivals; drop it, or give --arrivals hybrid",
                "--arrivals",
                "closed",
                "--session-rate",
                "5"
            },
            {
                "error: --users and --arrivals hybrid: --users sets a closed population, --arrivals hybrid asks for hybrid arrivals (sessions against the "
                        + "clock; --max-sessions caps them); give one of them",
                "--arrivals",
                "hybrid",
                "--users",
                "3"
            },
            {
                "error: --sessions-per-user and --max-sessions: --sessions-per-user sets a closed population, --max-sessions hybrid arrivals "
                        + "(sessions against the clock; --max-sessions caps them); give one of them",
                "--max-sessions",
                "4",
                "--sessions-per-user",
                "2"
            },
            {
                "error: --session-rate and --rate-schedule: both say when sessions arrive; give one of them",
                "--session-rate",
                "5",
                "--rate-schedule",
                "s.txt"
            },
            {
                "error: --interarrival and --interarrival-file: the file gives the inter-arrival times themselves; drop --interarrival",
                "--interarrival-file",
                "ia.txt",
                "--interarrival",
                "deterministic"
            },
        };
        for (String[] c : cases) {
            List<String> args = new ArrayList<>(List.of("run", "--duration", "1s", "--out", "never-created"));
            args.addAll(List.of(c).subList(1, c.length));
            Result r = run(args.toArray(String[]::new));
            assertEquals(ExitStatus.USAGE, r.status(), r.err());
            assertEquals(c[0], r.err().strip(), String.join(" ", args));
        }
        assertFalse(Files.exists(Path.of("never-created")), "nothing was created");
        Result d = run("validate", "-Dclient_seed");
        assertEquals(ExitStatus.USAGE, d.status(), d.err());
        assertEquals(1, d.err().strip().lines().count(), d.err());
        assertTrue(d.err().startsWith("error: -D: ") && d.err().contains("client_seed"), d.err());
    }
}
