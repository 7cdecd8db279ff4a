package org.rubis.lab.reproduce;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.rubis.client.config.JitWarmupPolicy;
import org.rubis.client.config.JvmProfiles;
import org.rubis.client.process.ChildJvm;
import org.rubis.client.process.ClientCommandLine;
import org.rubis.client.process.EmbeddedServerProcess;
import org.rubis.client.process.ServerChoice;
import org.rubis.client.report.SummaryFile;
import org.rubis.format.run.RunFiles;

/**
 * Where the experiments run their clients. Each run is a child JVM ({@code rubis-client run} with
 * the spec's JVM profile) writing its own run directory under {@code OUT/EXPERIMENT/LABEL}; every
 * directory is kept. Without {@code --target}, each run gets a fresh {@code rubis-server} JVM of its
 * own (so its logs in {@code server/} hold that run only, and its CPU time is that run's), started
 * before the client on a known port. A captured run is the client's own {@code run --capture}.
 */
public final class Lab {

    /** A run longer than this is stopped (the longest full-scale run is a few minutes). */
    private static final Duration RUN_LIMIT = Duration.ofMinutes(20);

    private final Path out;
    private final Scale scale;
    private final String target;
    private final PrintWriter log;
    private final JvmProfiles profiles;
    private boolean captureUnavailableSaid;
    private Path dbTemplate;
    /** The servers of the runs in progress (several at smoke scale, whose experiments run side by side). */
    private final Set<EmbeddedServerProcess> current = ConcurrentHashMap.newKeySet();
    /** Set on Ctrl-C: the experiments still running start no further run. */
    private volatile boolean stopping;

    /**
     * @param out    the reproduction directory
     * @param scale  full, quick (small N, short runs, few points) or smoke (the fewest, shortest runs)
     * @param target base URL of a real deployment, or null for a server of our own per run
     * @param log    progress lines
     */
    public Lab(Path out, Scale scale, String target, PrintWriter log) throws IOException {
        this.out = out;
        this.scale = scale;
        this.target = target;
        this.log = log;
        this.profiles = JvmProfiles.load(null);
        // Ctrl-C: start no further run, and stop the servers of the runs in progress (the client children are stopped
        // by their own hooks).
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            stopping = true;
                            List.copyOf(current).forEach(EmbeddedServerProcess::close);
                        },
                        "reproduce-server-stop"));
    }

    /**
     * Populating the database takes seconds (over ten on a loaded 2-core machine), more than a quick run lasts: it is
     * populated once into a file, and each run's server starts on a fresh copy of it (deleted after the run), so every
     * run still sees the same initial data and no run sees another's bids.
     */
    private synchronized Path database(Path runServerDir) throws IOException {
        if (dbTemplate == null) {
            Path dir = out.resolve(".database");
            // the server populates the database as it starts; stopping it closes the file
            EmbeddedServerProcess s = EmbeddedServerProcess.start(ServerChoice.DEFAULTS, dir, dir.resolve("rubis"));
            current.add(s);
            s.close();
            current.remove(s);
            dbTemplate = dir.resolve("rubis.mv.db");
            if (!Files.isRegularFile(dbTemplate)) {
                throw new IOException(
                        "rubis-server wrote no database file " + dbTemplate + "; see " + dir.resolve("server.log"));
            }
        }
        Files.createDirectories(runServerDir);
        Files.copy(dbTemplate, runServerDir.resolve("rubis.mv.db"));
        return runServerDir.resolve("rubis");
    }

    /** True at quick and smoke scale: the experiments' reduced designs (fewer variants, fewer points). */
    public boolean quick() {
        return scale != Scale.FULL;
    }

    /** True at smoke scale only. */
    public boolean smoke() {
        return scale == Scale.SMOKE;
    }

    /** True when the runs use our own server (ground truth, CPU time, server models); false with --target. */
    public boolean ownServer() {
        return target == null;
    }

    public Path out() {
        return out;
    }

    /** The quick or the full value; smoke scale takes the quick one. */
    public <T> T pick(T quickValue, T fullValue) {
        return quick() ? quickValue : fullValue;
    }

    /** The smoke, the quick or the full value. */
    public <T> T pick(T smokeValue, T quickValue, T fullValue) {
        return switch (scale) {
            case SMOKE -> smokeValue;
            case QUICK -> quickValue;
            case FULL -> fullValue;
        };
    }

    /** A progress line. */
    public void say(String line) {
        synchronized (log) {
            log.println(line);
            log.flush();
        }
    }

    /**
     * The seed of a run against {@code --target}: the experiment's seed (1 when it gives none) plus a number of the
     * run's name, so that each run of a reproduction has a seed of its own, the same in every reproduction. A fresh
     * server of our own per run needs no such care; a real deployment keeps its database from run to run, and two
     * runs with one seed would draw the same requests against a database the first has changed.
     */
    static long targetSeed(String experiment, String label, Long given) {
        long base = given == null ? 1 : given;
        return base + ((experiment + "/" + label).hashCode() & 0x7fffffffL);
    }

    /** Runs one client (and, without --target, its own server) into OUT/experiment/label. */
    public ClientRun run(String experiment, String label, ClientSpec spec) throws IOException, InterruptedException {
        if (stopping) {
            throw new InterruptedException("stopping: " + experiment + "/" + label + " not started");
        }
        Path dir = out.resolve(experiment).resolve(label);
        Files.createDirectories(dir);
        EmbeddedServerProcess server = null;
        String base = target;
        double cpuBefore = Double.NaN;
        double cpuAfter = Double.NaN;
        long t0 = System.nanoTime();
        try {
            if (target == null) {
                Path serverDir = dir.resolve("server");
                server = EmbeddedServerProcess.start(spec.server(), serverDir, database(serverDir));
                current.add(server);
                base = server.baseUrl();
            }
            ClientCommandLine client = smoke() ? spec.client().jitWarmup(JitWarmupPolicy.OFF) : spec.client();
            if (target != null) {
                client = client.seed(targetSeed(experiment, label, client.givenSeed()));
                say("  " + experiment + "/" + label + ": seed " + client.givenSeed() + " (a seed of its own: " + target
                        + " keeps what earlier runs wrote)");
            }
            ClientCommandLine line = client.profile(spec.profile(), profiles.flags(spec.profile()))
                    .target(base)
                    .noProgress()
                    .out(dir);
            Files.writeString(dir.resolve("command.txt"), String.join(" ", line.command()) + "\n");
            if (server != null) {
                cpuBefore = server.cpuSeconds();
            }
            try {
                ChildJvm.run(line, dir.resolve(RunFiles.CLIENT_LOG), RUN_LIMIT);
            } finally {
                if (server != null) {
                    cpuAfter = server.cpuSeconds();
                }
            }
        } finally {
            if (server != null) {
                server.close();
                current.remove(server);
                Files.deleteIfExists(dir.resolve("server").resolve("rubis.mv.db"));
            }
        }
        SummaryFile summary = SummaryFile.read(dir);
        String note = summary == null || summary.wireCheckNotRun() == null
                ? null
                : "not captured: " + summary.wireCheckNotRun();
        if (note != null && !captureUnavailableSaid) {
            say("  packet capture unavailable (" + summary.wireCheckNotRun()
                    + "); errors are measured against the server's log instead");
            captureUnavailableSaid = true;
        }
        JsonNode stats = null;
        Path statsFile = dir.resolve("server").resolve("stats.json");
        if (Files.isRegularFile(statsFile)) {
            stats = new ObjectMapper().readTree(statsFile.toFile());
        }
        say(String.format(
                Locale.ROOT,
                "  %s/%s: %s, %d requests, %.0f s",
                experiment,
                label,
                summary == null ? "no summary" : summary.status(),
                summary == null ? 0 : summary.requests(),
                (System.nanoTime() - t0) / 1e9));
        return new ClientRun(dir, summary, cpuAfter - cpuBefore, stats, note);
    }
}
