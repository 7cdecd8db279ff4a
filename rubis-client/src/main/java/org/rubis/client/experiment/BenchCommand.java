package org.rubis.client.experiment;

import org.rubis.client.config.Durations;
import org.rubis.client.report.SummaryFile;
import org.rubis.format.RunFiles;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Benchmark commands that print figures (not tests: the machine is shared and noisy). Each
 * measurement is a separate client JVM running {@code run}, so JIT state and CPU accounting are
 * its own; the figures come from that run's summary.json and the server's ground truth.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Benchmarks. 'bench backends': the same closed workload with each connection backend; prints client CPU per request "
                + "and connections used. 'bench server': the browse mix against each server model with no think time; prints requests/s "
                + "and mean service time. 'bench accuracy': each backend (and netty with --busy-poll) with the packet capture and the reference "
                + "probe on; prints client minus wire, the host's floor, the overhead above it, retries and CPU (defaults: 300 users, TPC-W think "
                + "time, 60 s). "
                + "'bench scale': --users (default 18000) users with their own connections and TPC-W think time in one "
                + "client JVM with --heap (default 512m), with netty and with virtual threads; prints users reached, connect errors, run-phase "
                + "p99 send lateness, heap per user and CPU. 'bench rate': client CPU per request at the highest rate, a static 2 KB page "
                + "on lighttpd (client and server pinned to one core each), beside wrk and httperf when installed, --rounds times in turn (default 3). 'bench soak': one long run (default 4,000 users, netty, 30m); prints heap, file "
                + "descriptors and threads over time and whether each is flat."})
public final class BenchCommand implements Callable<Integer> {

    @picocli.CommandLine.Parameters(index = "0", paramLabel = "backends|server|accuracy|scale|rate|soak", description = "What to benchmark.")
    String what;
    @Option(names = "--users", description = "Emulated users (default: 200 for backends, 16 for server, 300 for accuracy, 18000 for scale, 64 for rate, 4000 for soak).")
    Integer users;
    @Option(names = "--duration", description = "Run phase of each measurement; a bare number is seconds (default: 30s for backends, server and scale, 60s for accuracy, "
            + "20s for rate, 30m for soak).")
    String duration;
    @Option(names = "--ramp-up", description = "Warm-up before each measurement; a bare number is seconds (default: 5s for backends, server and soak, 10s for "
            + "accuracy, 30s for scale; rate has none).")
    String rampUp;
    @Option(names = "--think-scale", description = "Think-time scale (default: 0.1 for backends, 0 for server, 1 (TPC-W) for accuracy).")
    Double thinkScale;
    @Option(names = "--list", split = ",", description = "Backends (default legacy,pooled,dedicated,netty; accuracy adds netty+busy-poll; "
            + "accuracy takes BACKEND+no-warmup for a run without the JIT warm-up, e.g. netty,netty+no-warmup) or server models (default event,prefork).")
    List<String> list;
    @Option(names = "--out", description = "Directory for the runs (default runs/bench; accuracy runs/bench-accuracy).")
    Path out;
    @Option(names = "--heap", description = "bench scale and soak: the client JVM's -Xmx (default 512m for scale, 1g for soak, so that "
            + "collections happen and the heap after them can be judged).")
    String heap;
    @Option(names = "--rounds", description = "bench rate: how many times each client runs, in turn (default 3); the end prints each "
            + "client's median and netty's ratio to wrk within each round.")
    Integer rounds;
    @Spec CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if ("rate".equals(what)) {
            if (rounds != null && (rounds < 1 || rounds > 100)) {
                throw new org.rubis.client.input.ConfigException("--rounds " + rounds + ": expected 1 to 100 rounds (bench rate runs each client once per round)");
            }
            return new RateBench(spec.commandLine().getOut()).run(users != null ? users : 64, duration != null ? duration : "20s",
                    rounds != null ? rounds : 3, (out != null ? out : Path.of("runs/bench")).resolve("rate"));
        }
        if ("scale".equals(what)) {
            return new ScaleBench(spec.commandLine().getOut()).run(users != null ? users : 18_000, rampUp != null ? rampUp : "30s",
                    duration != null ? duration : "30s", heap != null ? heap : "512m", list != null ? list : List.of("netty", "virtual"), out != null ? out : Path.of("runs/bench"));
        }
        if (what.equals("accuracy")) {
            return AccuracyBench.run(spec.commandLine().getOut(), list != null ? list : AccuracyBench.BACKENDS, users != null ? users : 300,
                    duration != null ? duration : "60s", rampUp != null ? rampUp : "10s", thinkScale != null ? thinkScale : 1.0,
                    out != null ? out : Path.of("runs/bench-accuracy"));
        }
        if (duration == null) {
            duration = "30s";
        }
        if (rampUp == null) {
            rampUp = "5s";
        }
        if (out == null) {
            out = Path.of("runs/bench");
        }
        if (what.equals("soak")) {
            return soak();
        }
        boolean server = switch (what) {
            case "backends" -> false;
            case "server" -> true;
            default -> throw new org.rubis.client.input.ConfigException("bench " + what + ": expected 'bench backends', 'bench server', 'bench accuracy', 'bench scale', 'bench rate' or 'bench soak'");
        };
        List<String> items = list != null ? list : server ? List.of("event", "prefork") : List.of("legacy", "pooled", "dedicated", "netty");
        int n = users != null ? users : server ? 16 : 200;
        double scale = thinkScale != null ? thinkScale : server ? 0 : 0.1;
        PrintWriter pw = spec.commandLine().getOut();
        List<String> rows = new ArrayList<>();
        for (String item : items) {
            Path dir = out.resolve((server ? "server-" : "backend-") + item);
            List<String> cmd = new ArrayList<>(List.of(org.rubis.client.process.EmbeddedServerProcess.javaExecutable(), "-jar",
                    org.rubis.client.process.ChildJvm.selfJar(), "run", org.rubis.client.process.ChildJvm.CHILD,
                    "--users", String.valueOf(n), "--duration", duration, "--ramp-up", rampUp, "--ramp-down", "0",
                    "--think-scale", String.valueOf(scale), "--seed", "1", "--out", dir.toString(), "--no-progress"));
            if (server) {
                cmd.addAll(List.of("--server-model", item, "--backend", "dedicated", "-Dworkload_transition_table=browse_only_transitions.txt"));
            } else {
                cmd.addAll(List.of("--backend", item));
            }
            pw.println("measuring " + item + ": " + String.join(" ", cmd.subList(3, cmd.size())));
            pw.flush();
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            int status = p.waitFor();
            SummaryFile s = SummaryFile.read(dir);
            if (s == null) {
                rows.add(String.format(Locale.ROOT, "%-10s failed (exit %d)", item, status));
                continue;
            }
            rows.add(server ? serverRow(item, dir, s) : backendRow(item, s));
        }
        pw.println();
        pw.println(server
                ? String.format(Locale.ROOT, "%-10s %10s %12s %12s %12s %10s", "model", "req/s", "service ms", "client ms", "p99 ms", "conns max")
                : String.format(Locale.ROOT, "%-10s %9s %9s %11s %12s %11s %11s %9s %9s %9s %10s", "backend", "requests", "req/s", "run CPU s",
                        "CPU us/req", "fixed cores", "conns (srv)", "max conc", "mean ms", "p99 ms", "late p99"));
        rows.forEach(pw::println);
        pw.flush();
        return 0;
    }

    /**
     * A long run at many users in a child JVM with a bounded heap (so that collections happen); then
     * the trend of the heap after collections (client-gc.csv), open file descriptors and threads
     * (client-health.csv) after the warm-up, and the figures per 5 minutes.
     */
    private int soak() throws Exception {
        int n = users != null ? users : 4000;
        String d = spec.commandLine().getParseResult().hasMatchedOption("--duration") ? duration : "30m";
        String backend = list != null && !list.isEmpty() ? list.get(0) : "netty";
        double scale = thinkScale != null ? thinkScale : 1.0;
        String xmx = heap != null ? heap : "1g";
        if (!xmx.matches("[0-9]{1,6}[kKmMgG]?")) {
            throw new org.rubis.client.input.ConfigException("bench soak --heap " + xmx + ": expected a size such as 1g or 768m");
        }
        Path dir = out.resolve("soak-" + backend);
        Files.createDirectories(dir);
        PrintWriter pw = spec.commandLine().getOut();
        List<String> cmd = org.rubis.client.process.ChildJvm.command(org.rubis.client.process.EmbeddedServerProcess.javaExecutable(), "soak",
                List.of("-Xmx" + xmx), dir, List.of("--users", String.valueOf(n), "--duration", d, "--ramp-up", rampUp, "--ramp-down", "0",
                        "--think-scale", String.valueOf(scale), "--seed", "1", "--no-progress", "--backend", backend));
        pw.println("soak: " + String.join(" ", cmd.subList(1, cmd.size())));
        pw.flush();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("client.out").toFile()).start();
        int status = p.waitFor();
        SummaryFile s = SummaryFile.read(dir);
        if (s == null || !Files.isRegularFile(RunFiles.clientHealth(dir))) {
            pw.println("soak failed (exit " + status + "), see " + dir);
            pw.flush();
            return 2;
        }
        double skip = Durations.millis("--ramp-up", rampUp) / 1000.0 + 60; // judge after the ramp and a minute of warm-up
        SoakTrend.Trend trend = SoakTrend.read(dir, skip);
        pw.println();
        pw.println(String.format(Locale.ROOT, "%d users, %s, backend %s, -Xmx%s: %d requests, %.1f req/s, status %s (exit %d); %s",
                n, d, backend, xmx, s.requests(), s.throughputRps(), s.status(), status, trend.judgedFrom(skip)));
        trend.windows(5, skip).forEach(pw::println);
        pw.println("heap judged on the " + trend.heapSource());
        trend.series().forEach(t -> pw.println(t.line()));
        pw.flush();
        // Not judged (too short a run) measured nothing: 2, as an invalid run; GROWING or a failed run 1.
        return !trend.judged() ? 2 : trend.flat() && status == 0 ? 0 : 1;
    }

    private static String backendRow(String backend, SummaryFile s) {
        // CPU per request without the fixed cost (the idle client's cores, printed beside it): at low rates the ratio
        // of CPU to requests is mostly the fixed cost.
        SummaryFile.Health h = s.health();
        return String.format(Locale.ROOT, "%-10s %9d %9.1f %11.2f %12s %11s %11d %9d %9.3f %9.3f %10.3f", backend, s.requests(),
                s.throughputRps(), h.runCpuSeconds(), h.runRequestCpuUs() < 0 ? String.format(Locale.ROOT, "%.1f gross", h.runCpuUsPerRequest())
                        : String.format(Locale.ROOT, "%.1f", h.runRequestCpuUs()),
                h.fixedCpuCores() < 0 ? "n/a" : String.format(Locale.ROOT, "%.4f", h.fixedCpuCores()),
                s.server().connectionsAccepted(), s.server().maxConcurrentConnections(), s.run().mean(),
                s.run().p99(), s.health().runSendLatenessP99Ms());
    }

    private static String serverRow(String model, Path dir, SummaryFile s) throws Exception {
        // Mean service time from the server's own log (arrival to end of response write).
        double sum = 0;
        long n = 0;
        try (var lines = Files.lines(RunFiles.serverRequests(dir))) {
            for (String line : (Iterable<String>) lines.skip(1)::iterator) {
                String[] f = line.split(",", 5);
                sum += Long.parseLong(f[3]);
                n++;
            }
        }
        return String.format(Locale.ROOT, "%-10s %10.1f %12.3f %12.3f %12.3f %10d", model, s.throughputRps(), n == 0 ? 0 : sum / n / 1e6,
                s.run().mean(), s.run().p99(), s.server().maxConcurrentConnections());
    }
}
