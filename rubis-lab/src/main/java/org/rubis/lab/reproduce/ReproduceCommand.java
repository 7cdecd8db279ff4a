package org.rubis.lab.reproduce;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.rubis.client.input.ConfigException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code rubis-client reproduce NAME|all}: runs the experiments that reproduce the published
 * findings (docs/REPRODUCTION.md), keeps every run directory, and writes reproduction.html and
 * reproduction.json with our figure beside the published one and whether the effect's shape held.
 */
@Command(
        name = "reproduce",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Reproduce the papers' findings: each experiment's runs, our figure beside the published one, a plot, and whether "
                    + "the effect's shape was reproduced. Writes OUT/reproduction.html and OUT/reproduction.json; keeps every run directory.",
            "Experiments: error-vs-load, heap-capacity, ms-timers, connection-sharing, flash-crowd, closed-vs-open, principles-ab, tls."
        })
public final class ReproduceCommand implements Callable<Integer> {

    /**
     * Experiments run side by side at smoke scale: its runs mostly wait on think times and child JVMs, and what it
     * checks (every experiment's runs, plots and report; the shapes robust to load) does not need the machine alone.
     * Quick and full scale run one experiment at a time, as their measurements need.
     */
    private static final int SMOKE_SIDE_BY_SIDE = 3;

    @Parameters(
            index = "0",
            paramLabel = "NAME|all",
            description = "An experiment's name, several separated by commas, or all.")
    String which;

    @Option(
            names = "--quick",
            description =
                    "Small N, short runs, few points (a few minutes in all): checks the shapes that hold at small scale.")
    boolean quick;

    @Option(
            names = "--smoke",
            description =
                    "The fewest, shortest runs that take every experiment end to end (runs, plots, report), three "
                            + "experiments side by side: checks the tool, not the findings.")
    boolean smoke;

    @Option(
            names = "--target",
            paramLabel = "URL",
            description = "A real deployment's base URL; experiments that need our own server "
                    + "(its ground truth, CPU time or server models) are then skipped.")
    String target;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = "Reproduction directory (default runs/reproduce-<timestamp>); must be new or empty.")
    Path out;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        List<Experiment> chosen = choose(which);
        if (quick && smoke) {
            throw new ConfigException("--quick and --smoke: give one scale (--smoke is the smaller)");
        }
        Scale scale = smoke ? Scale.SMOKE : quick ? Scale.QUICK : Scale.FULL;
        if (target != null) {
            checkTarget();
        }
        Path dir = outDirectory();
        Files.createDirectories(dir);
        PrintWriter pw = spec.commandLine().getOut();
        Lab lab = new Lab(dir, scale, target, pw);
        ObjectNode meta = meta(scale);
        Finding[] findings = new Finding[chosen.size()];
        int parallel = scale == Scale.SMOKE ? SMOKE_SIDE_BY_SIDE : 1;
        ExecutorService pool = Executors.newFixedThreadPool(
                parallel, Thread.ofPlatform().name("experiment-", 0).factory());
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < chosen.size(); i++) {
                int k = i;
                running.add(pool.submit(() -> {
                    findings[k] = runOne(chosen.get(k), lab, dir, parallel > 1);
                    synchronized (findings) {
                        ReproductionReport.write(
                                dir,
                                meta,
                                Arrays.stream(findings).filter(Objects::nonNull).toList());
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get();
            }
        } catch (ExecutionException ex) {
            pool.shutdownNow();
            if (ex.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw ex;
        } catch (InterruptedException ex) {
            pool.shutdownNow();
            throw ex;
        } finally {
            pool.shutdown();
        }
        pw.println("report: " + dir.resolve(ReproductionReport.HTML));
        pw.flush();
        return Arrays.stream(findings).anyMatch(f -> f.verdict() == Verdict.FAILED) ? 1 : 0;
    }

    /** A given --target is an http(s) base URL, else a one-line error. */
    private void checkTarget() {
        URI u;
        try {
            u = URI.create(target);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("--target " + target + ": not a URL; give a base URL such as http://host:8080");
        }
        if (!("http".equals(u.getScheme()) || "https".equals(u.getScheme())) || u.getHost() == null) {
            throw new ConfigException("--target " + target + ": expected http://host[:port] or https://host[:port]");
        }
    }

    /** The reproduction's directory: --out, which must be new or empty, else runs/reproduce-DATE. */
    private Path outDirectory() throws IOException {
        Path dir = (out != null
                        ? out
                        : Path.of(
                                "runs",
                                "reproduce-"
                                        + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))))
                .toAbsolutePath();
        if (Files.isDirectory(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                if (s.findAny().isPresent()) {
                    throw new ConfigException(
                            "--out " + dir + ": not empty; a reproduction keeps every run, so give a new directory");
                }
            }
        }
        return dir;
    }

    /** What the report says of the reproduction: its command, scale, target and host. */
    private ObjectNode meta(Scale scale) {
        ObjectNode meta = JsonNodeFactory.instance.objectNode();
        meta.put(
                "command",
                "rubis-client reproduce " + which + (scale == Scale.FULL ? "" : " --" + scale.label())
                        + (target != null ? " --target " + target : ""));
        meta.put("scale", scale.label());
        meta.put("target", target != null ? target : "a rubis-server of our own per run (loopback)");
        meta.put("started", LocalDateTime.now().toString());
        meta.put(
                "host",
                Runtime.getRuntime().availableProcessors() + " cores, " + System.getProperty("os.name") + ", Java "
                        + Runtime.version() + ", load average at start "
                        + String.format(
                                Locale.ROOT,
                                "%.2f",
                                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()));
        return meta;
    }

    /** Runs one experiment (or skips it, with --target) and prints its verdict. */
    private Finding runOne(Experiment e, Lab lab, Path dir, boolean sideBySide) throws Exception {
        long t0 = System.nanoTime();
        lab.say(e.name() + ": " + e.title());
        Finding f;
        if (target != null && e.needsOwnServer() != null) {
            f = Finding.skipped(e, "with --target: " + e.needsOwnServer());
        } else {
            try {
                f = e.run(lab);
            } catch (ConfigException | InterruptedException ex) {
                throw ex;
            } catch (Exception ex) {
                f = Finding.failed(e, "the experiment failed: " + ex, List.of(dir.resolve(e.name())));
            }
        }
        lab.say(String.format(
                Locale.ROOT,
                "%s -> %s: %s (%.0f s)",
                sideBySide ? e.name() : " ",
                f.verdict().label(),
                f.why(),
                (System.nanoTime() - t0) / 1e9));
        return f;
    }

    private static List<Experiment> choose(String which) {
        List<Experiment> all = Experiments.all();
        if (which.equals("all")) {
            return all;
        }
        List<Experiment> chosen = new ArrayList<>();
        for (String name : which.split(",")) {
            Experiment e = all.stream()
                    .filter(x -> x.name().equals(name.trim()))
                    .findFirst()
                    .orElseThrow(() -> new ConfigException("reproduce " + name
                            + ": no such experiment; expected all or one of " + Experiments.names()));
            chosen.add(e);
        }
        return chosen;
    }
}
