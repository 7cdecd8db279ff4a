package org.rubis.lab.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.rubis.client.cli.RunPhases;
import org.rubis.client.config.BackendKind;
import org.rubis.client.config.JitWarmupPolicy;
import org.rubis.client.input.ConfigException;
import org.rubis.client.process.ChildJvm;
import org.rubis.client.process.ClientCommandLine;
import org.rubis.client.report.Summary;
import org.rubis.client.report.SummaryFile;
import org.rubis.format.run.RunFiles;
import org.rubis.format.schema.SummaryJson;
import org.rubis.lab.Runs;
import org.rubis.lab.host.HostProgram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bench rate}: client CPU per request at the highest rate it can drive. A static 2 KB page
 * served by lighttpd (every path rewritten to it) pinned to one core, the client pinned to the
 * other (taskset), closed users with no think time; the client logs every request as in any run.
 * wrk and httperf, when installed, drive the same page from the same core for comparison. The
 * tools are only used when present: the benchmark prints a note instead (never needed by tests).
 *
 * <p>Rounds: on a shared 2-core VM one run per client moves by 0.5 us or more from one minute to the
 * next, as much as the difference being measured. So the clients run in turn, round after round
 * (netty, wrk, httperf, then again), each round's figures are printed, and the end gives each client's
 * median and range and the ratio of netty to wrk within each round (the same minute) and its median
 * ({@link RateRounds}).
 */
@Command(
        name = "rate",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        showDefaultValues = true,
        description = "Client CPU per request at the highest rate, a static 2 KB page on lighttpd (client and server "
                + "pinned to one core each), beside wrk and httperf when installed, --rounds times in turn.")
final class RateBench implements Callable<Integer> {

    /**
     * The netty client's JIT warm-up: a fixed 40,000 requests (about 11 s here) instead of the auto warm-up's 5 s cap. At
     * this rate RUBiS sessions end about 300 times a second, so the connect and close path reaches C2's 5,000 calls only
     * after the auto warm-up, inside a 15 s run phase: its compilation then cost 0.47-0.63 us per request and the path ran
     * in C1 meanwhile (10.2-10.9 us per request in all, against 9.2-9.4 with this warm-up; docs/BENCHMARKS.md). The figure
     * is the client's steady cost per request, as wrk's is.
     */
    static final int WARMUP_REQUESTS = 40_000;

    @Option(
            names = "--users",
            paramLabel = "N",
            defaultValue = "64",
            description = "Connections (closed users with no think time).")
    int users;

    @Mixin
    RunPhases phases = new RunPhases("5s", "20s");

    @Option(
            names = "--rounds",
            paramLabel = "N",
            defaultValue = "3",
            description = "How many times each client runs, in turn; the end prints each client's median and netty's "
                    + "ratio to wrk within each round.")
    int rounds;

    @Mixin
    Runs runs = new Runs("runs/bench");

    @Mixin
    ChildRunLogs logs = new ChildRunLogs();

    @Option(
            names = "--metrics-port",
            paramLabel = "N",
            description = "The netty client serves its live view on port N (run --metrics-port), read once a second "
                    + "as a Prometheus and an open page would: to measure its overhead, on and off in turn "
                    + "(docs/LIVE.md, Overhead).")
    Integer metricsPort;

    @Spec
    CommandSpec spec;

    private PrintWriter out;

    @Override
    public Integer call() throws Exception {
        if (rounds < 1 || rounds > 100) {
            throw new ConfigException(
                    "--rounds " + rounds + ": expected 1 to 100 rounds (bench rate runs each client once per round)");
        }
        LiveScrapes.check(metricsPort);
        out = spec.commandLine().getOut();
        Duration duration = phases.duration();
        ClientCommandLine client = ClientCommandLine.run()
                .backend(BackendKind.NETTY)
                .users(users)
                .thinkScale(0)
                .rampUp(phases.rampUp())
                .duration(duration)
                .rampDown(Duration.ZERO)
                .seed(1)
                .jitWarmup(JitWarmupPolicy.parse(String.valueOf(WARMUP_REQUESTS)))
                .noProgress()
                .jvmFlags(List.of("-Xmx512m"));
        if (metricsPort != null) {
            client = client.metricsPort(metricsPort);
        }
        Path dir = runs.dir().resolve("rate");
        Path lighttpd = HostProgram.which("lighttpd");
        Path taskset = HostProgram.which("taskset");
        if (lighttpd == null || taskset == null) {
            out.println(
                    "bench rate needs lighttpd and taskset (apt-get install -y lighttpd wrk httperf); not found, nothing measured");
            return 0;
        }
        int cores = Runtime.getRuntime().availableProcessors();
        String clientCore = "0";
        String serverCore = cores > 1 ? "1" : "0";
        Files.createDirectories(dir);
        LighttpdPage server = LighttpdPage.start(lighttpd, taskset, serverCore, dir);
        RateRounds all = new RateRounds();
        try {
            Thread.sleep(500);
            if (!server.alive()) {
                out.println("lighttpd did not start: see " + server.output());
                return 1;
            }
            out.printf(
                    Locale.ROOT,
                    "static 2 KB page on lighttpd (core %s), clients on core %s, %d connections, %d s "
                            + "each, %d round%s; netty after a JIT warm-up of %,d requests%n",
                    serverCore,
                    clientCore,
                    users,
                    duration.toSeconds(),
                    rounds,
                    rounds == 1 ? "" : "s (the clients in turn, round after round)",
                    WARMUP_REQUESTS);
            if (metricsPort != null) {
                out.printf(
                        Locale.ROOT,
                        "live view on: netty serves port %d, read once a second (/metrics and " + "/live.json)%n",
                        metricsPort);
            }
            for (int r = 1; r <= rounds; r++) {
                Path roundDir = rounds == 1 ? dir : dir.resolve("round-" + r);
                Files.createDirectories(roundDir);
                ClientCommandLine netty =
                        client.pinned(taskset, clientCore).target(server.base()).out(roundDir.resolve("netty"));
                List<RateRounds.Row> rows = List.of(
                        client(netty),
                        wrk(taskset, clientCore, server.base(), duration, roundDir),
                        httperf(taskset, clientCore, server.port(), duration));
                all.add(rows);
                printRound(r, rows);
            }
        } finally {
            server.stop();
        }
        if (rounds > 1) {
            out.println();
            all.summary().forEach(out::println);
        }
        out.println();
        out.println(
                "CPU us/request: the client's CPU per request with its fixed cost (measured idle before the first request) taken out;");
        out.println(
                "kernel: its system CPU per request (system calls, the network stack: the part no client code can cut; fixed cost included);");
        out.println(
                "gross: all its run-phase CPU over its requests. wrk and httperf have no samplers: their whole CPU counts.");
        out.flush();
        return 0;
    }

    /** One round's table: a row per client, then the netty client's CPU by thread. */
    private void printRound(int round, List<RateRounds.Row> rows) {
        out.println();
        if (rounds > 1) {
            out.printf(
                    Locale.ROOT,
                    "round %d of %d (ended %s)%n",
                    round,
                    rounds,
                    LocalTime.now().withNano(0));
        }
        out.println(RateRounds.HEADER);
        rows.forEach(row -> out.println(row.text()));
        rows.stream()
                .filter(row -> row.byThread() != null)
                .forEach(row -> out.println("rubis-client netty, CPU by thread: " + row.byThread()));
        out.flush();
    }

    @SuppressWarnings("try") // the live view's scrapes run beside the child run; the body only waits for it
    private RateRounds.Row client(ClientCommandLine line) throws Exception {
        Path runDir = line.out();
        try (LiveScrapes scrapes = LiveScrapes.of(metricsPort)) {
            ChildJvm.run(line, runDir.resolveSibling("netty.out"), null);
        }
        SummaryFile s = SummaryFile.read(runDir);
        logs.tidy(runDir);
        if (s == null) {
            return RateRounds.Row.missing(RateRounds.NETTY, "failed, see " + runDir.resolveSibling("netty.out"));
        }
        SummaryFile.Health h = s.health();
        String byThread;
        try {
            Map<String, Double> per = SummaryJson.read(RunFiles.summaryJson(runDir))
                    .clientHealth()
                    .runCpuUsPerRequestByThread();
            byThread = per != null ? Summary.byThread(per) : null;
        } catch (IOException e) {
            byThread = null;
        }
        return new RateRounds.Row(
                RateRounds.NETTY,
                s.throughputRps(),
                h.runRequestCpuUs() < 0 ? Double.NaN : h.runRequestCpuUs(),
                h.runSystemCpuUsPerRequest() < 0 ? Double.NaN : h.runSystemCpuUsPerRequest(),
                h.fixedCpuCores() < 0 ? Double.NaN : h.fixedCpuCores(),
                h.runCpuUsPerRequest(),
                byThread,
                null,
                s.verdict());
    }

    private RateRounds.Row wrk(Path taskset, String core, String base, Duration duration, Path dir) throws Exception {
        Path wrk = HostProgram.which("wrk");
        if (wrk == null) {
            return RateRounds.Row.missing(RateRounds.WRK, "not installed (apt-get install -y wrk)");
        }
        // bash's time keyword gives the CPU of the pinned wrk; TIMEFORMAT "%U %S" prints user and system seconds.
        String text = HostProgram.output(
                List.of(
                        "bash",
                        "-c",
                        "TIMEFORMAT='cpu %U %S'; time " + taskset + " -c " + core + " " + wrk + " -t1 -c" + users
                                + " -d" + duration.toSeconds() + "s " + base + "/page.html"),
                dir.resolve("wrk.out"));
        Matcher rate = Pattern.compile("Requests/sec:\\s+([0-9.]+)").matcher(text);
        Matcher total = Pattern.compile("([0-9]+) requests in").matcher(text);
        Matcher cpu = Pattern.compile("cpu ([0-9.]+) ([0-9.]+)").matcher(text);
        if (!rate.find() || !total.find() || !cpu.find()) {
            return RateRounds.Row.missing(RateRounds.WRK, "no figures, see " + dir.resolve("wrk.out"));
        }
        return RateRounds.Row.tool(
                RateRounds.WRK,
                Double.parseDouble(rate.group(1)),
                Double.parseDouble(cpu.group(1)),
                Double.parseDouble(cpu.group(2)),
                Long.parseLong(total.group(1)));
    }

    private RateRounds.Row httperf(Path taskset, String core, int port, Duration duration) throws Exception {
        Path httperf = HostProgram.which("httperf");
        if (httperf == null) {
            return RateRounds.Row.missing(RateRounds.HTTPERF, "not installed (apt-get install -y httperf)");
        }
        // Each of the connections sends its calls back to back; enough calls to last about the duration at wrk's rate.
        long seconds = duration.toSeconds();
        long calls = Math.max(1000, 100_000 * seconds / Math.max(1, users));
        String text = HostProgram.output(
                List.of(
                        taskset.toString(),
                        "-c",
                        core,
                        httperf.toString(),
                        "--server",
                        "127.0.0.1",
                        "--port",
                        String.valueOf(port),
                        "--uri",
                        "/page.html",
                        "--num-conns",
                        String.valueOf(users),
                        "--num-calls",
                        String.valueOf(calls),
                        "--rate",
                        "1000",
                        "--hog",
                        "--timeout",
                        "10"),
                Path.of(System.getProperty("java.io.tmpdir"), "httperf-" + port + ".out"));
        Matcher rate = Pattern.compile("Request rate: ([0-9.]+) req/s").matcher(text);
        Matcher cpu = Pattern.compile("CPU time \\[s\\]: user ([0-9.]+) system ([0-9.]+)")
                .matcher(text);
        Matcher total =
                Pattern.compile("Total: connections [0-9]+ requests ([0-9]+)").matcher(text);
        if (!rate.find() || !cpu.find() || !total.find()) {
            return RateRounds.Row.missing(
                    RateRounds.HTTPERF,
                    "no figures: " + text.lines().reduce((a, b) -> b).orElse(""));
        }
        return RateRounds.Row.tool(
                RateRounds.HTTPERF,
                Double.parseDouble(rate.group(1)),
                Double.parseDouble(cpu.group(1)),
                Double.parseDouble(cpu.group(2)),
                Long.parseLong(total.group(1)));
    }
}
