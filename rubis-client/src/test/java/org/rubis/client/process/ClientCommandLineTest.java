package org.rubis.client.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rubis.client.cli.Choices;
import org.rubis.client.cli.RunCommand;
import org.rubis.client.config.BackendKind;
import org.rubis.client.config.JitWarmupPolicy;
import org.rubis.client.config.ServerModel;
import org.rubis.client.config.ThreadModel;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * The child's run command line: every option it writes is one run accepts, with the value meant; the user's own are
 * passed on.
 */
class ClientCommandLineTest {

    private static final Path DIR = Path.of("runs", "child");

    /** Parses {@code line}'s arguments with run's own command line, as the child will. */
    private static ParseResult parse(ClientCommandLine line) {
        List<String> args = line.runArguments();
        assertEquals("run", args.get(0));
        CommandLine run = new CommandLine(new RunCommand());
        Choices.register(run);
        return run.parseArgs(args.subList(1, args.size()).toArray(String[]::new));
    }

    @Test
    void everyOptionWrittenIsOneOfRunsWithItsValue() {
        ClientCommandLine line = ClientCommandLine.run()
                .users(300)
                .duration(Duration.ofSeconds(60))
                .rampUp(Duration.ofMillis(1500))
                .rampDown(Duration.ZERO)
                .thinkScale(0.25)
                .seed(7)
                .maxTransitions(10)
                .backend(BackendKind.NETTY)
                .threads(ThreadModel.VIRTUAL)
                .serverModel(ServerModel.PREFORK)
                .sessionRate(2.5)
                .target("http://127.0.0.1:8080")
                .sourceAddresses(4)
                .jitWarmup(JitWarmupPolicy.OFF)
                .tlsResumption(false)
                .capture()
                .probe()
                .busyPoll()
                .heapPerUser()
                .noProgress()
                .shard(1, 3)
                .startAt(Instant.parse("2026-11-22T06:00:00Z"))
                .property("workload_up_ramp_slowdown_factor", "1")
                .out(DIR);
        ParseResult r = parse(line);
        assertEquals(300, (Integer) r.matchedOptionValue("--users", null));
        assertEquals("60s", r.matchedOptionValue("--duration", null));
        assertEquals("1500ms", r.matchedOptionValue("--ramp-up", null));
        assertEquals("0s", r.matchedOptionValue("--ramp-down", null));
        assertEquals(0.25, (Double) r.matchedOptionValue("--think-scale", null));
        assertEquals(7L, (Long) r.matchedOptionValue("--seed", null));
        assertEquals(BackendKind.NETTY, r.matchedOptionValue("--backend", null));
        assertEquals(ThreadModel.VIRTUAL, r.matchedOptionValue("--threads", null));
        assertEquals(ServerModel.PREFORK, r.matchedOptionValue("--server-model", null));
        assertEquals(2.5, (Double) r.matchedOptionValue("--session-rate", null));
        assertEquals("off", r.matchedOptionValue("--jit-warmup", null));
        assertEquals("1/3", r.matchedOptionValue("--shard", null));
        assertEquals(DIR, r.matchedOptionValue("--out", null));
        for (String flag : List.of("--capture", "--probe", "--busy-poll", "--heap-per-user", "--no-progress")) {
            assertTrue(r.hasMatchedOption(flag), flag);
        }
        assertTrue(line.runArguments().contains("-Dworkload_up_ramp_slowdown_factor=1"), line.toString());
    }

    @Test
    void theUsersArgumentsArePassedOnWithoutTheParentsOwnAndThoseSetHere() {
        List<String> user = List.of(
                "--users",
                "50",
                "--jvm-profile",
                "no-jit",
                "-Dx=1",
                "--out=runs/a",
                "--java",
                "/usr/bin/java",
                "--duration",
                "10s",
                "--shards",
                "2",
                "--seed=3",
                "--no-progress",
                "--target",
                "http://example.org");
        ClientCommandLine line = ClientCommandLine.run()
                .forwarding(user)
                .seed(9)
                .target("http://127.0.0.1:1")
                .noProgress()
                .out(DIR);
        assertEquals(
                List.of(
                        "run",
                        "--child",
                        "--users",
                        "50",
                        "-Dx=1",
                        "--duration",
                        "10s",
                        "--seed",
                        "9",
                        "--target",
                        "http://127.0.0.1:1",
                        "--no-progress",
                        "--out",
                        DIR.toString()),
                line.runArguments());
        parse(line);
    }

    @Test
    void anOptionSetAgainKeepsTheLastValue() {
        ClientCommandLine base = ClientCommandLine.run().users(10).seed(1);
        assertEquals(
                List.of("run", "--child", "--seed", "1", "--users", "20", "--out", DIR.toString()),
                base.users(20).out(DIR).runArguments());
        assertEquals(
                List.of("run", "--child", "--users", "10", "--seed", "1", "--out", DIR.toString()),
                base.out(DIR).runArguments(),
                "the base unchanged");
    }

    @Test
    void aProfileAddsItsFlagsAGcLogInTheRunDirectoryAndItsName() {
        ClientCommandLine line = ClientCommandLine.run()
                .java("/opt/java/bin/java")
                .profile("paper-default", List.of("-Xmx64m", "-XX:+UseSerialGC"))
                .jvmFlags(List.of("-XX:+UseZGC"))
                .pinned(Path.of("/usr/bin/taskset"), "0")
                .out(DIR);
        assertEquals(
                List.of(
                        "/usr/bin/taskset",
                        "-c",
                        "0",
                        "/opt/java/bin/java",
                        "-Xmx64m",
                        "-XX:+UseSerialGC",
                        "-XX:+UseZGC",
                        "-Xlog:gc*:file=\"" + DIR.resolve("gc.log") + "\":time,uptime,level,tags",
                        "-Drubis.jvm.profile=paper-default"),
                line.jvm());
    }

    @Test
    void timesAndNumbersAreWrittenAsUsersTypeThem() {
        assertWritten("30s", "--duration", ClientCommandLine.run().duration(Duration.ofSeconds(30)));
        assertWritten("1800s", "--ramp-up", ClientCommandLine.run().rampUp(Duration.ofMinutes(30)));
        assertWritten("250ms", "--ramp-down", ClientCommandLine.run().rampDown(Duration.ofMillis(250)));
        assertWritten("0.1", "--think-scale", ClientCommandLine.run().thinkScale(0.1));
        assertWritten("1", "--think-scale", ClientCommandLine.run().thinkScale(1.0));
        assertWritten("0", "--think-scale", ClientCommandLine.run().thinkScale(0));
        assertWritten("0.0001", "--session-rate", ClientCommandLine.run().sessionRate(1e-4));
        assertWritten("off", "--tls-resumption", ClientCommandLine.run().tlsResumption(false));
    }

    private static void assertWritten(String text, String option, ClientCommandLine line) {
        List<String> args = line.out(DIR).runArguments();
        assertEquals(text, args.get(args.indexOf(option) + 1), args.toString());
    }

    @Test
    void aShardOfRunShardsStartsWhenReadyInPlaceOfAnInstant() {
        ParseResult r =
                parse(ClientCommandLine.run().shard(0, 2).startWhenReady().out(DIR));
        assertTrue(r.hasMatchedOption("--start-when-ready"));
        assertFalse(r.hasMatchedOption("--start-at"));
        assertEquals("0/2", r.matchedOptionValue("--shard", null));
    }
}
