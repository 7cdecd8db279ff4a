package org.rubis.client.shard;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.rubis.analysis.io.AnalysisException;
import org.rubis.analysis.merge.RunMerge;
import org.rubis.client.config.Arrivals;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.input.ConfigException;
import org.rubis.client.process.ChildJvm;
import org.rubis.client.process.ClientCommandLine;
import org.rubis.client.process.EmbeddedServerProcess;
import org.rubis.client.process.StartHandshake;
import org.rubis.client.report.ExitStatus;
import org.rubis.format.run.RunFiles;
import org.rubis.format.run.RunStatus;
import org.rubis.format.text.Printable;

/**
 * {@code run --shards N}: the sharded run of docs/SHARDING.md on one host, for a machine too big
 * for one client JVM and for the tests. Starts one embedded server for all shards (so its log is
 * the ground truth of the whole run), forks N client JVMs with {@code --shard I/N}, gives them a
 * common start instant as soon as every one is ready (or the user's {@code --start-at}), waits for
 * them, and merges their directories into the run directory with {@code rubis-analysis merge}'s
 * code. Ctrl-C stops every shard cleanly and still merges what they wrote once they had started.
 */
public final class LocalShards {

    /**
     * How long the shards have to get ready: 3 client JVMs starting at once on 2 cores under a load of 30 (class
     * loading, configuration, JIT warm-up, backend) took up to 19 s; on a quiet host 1-2 s. A host that needs more than
     * six times the worst seen cannot run them, and nothing is run.
     */
    static final Duration READY_BOUND = Duration.ofSeconds(120);

    /**
     * How far ahead of the moment the last shard is ready the common start instant is. It must reach every shard before
     * it passes: the parent writes it without forcing it to disk, each shard looks for it every
     * {@link StartHandshake#POLL_NS} and then anchors its clock and builds its session executor before it waits; 3
     * shards anchored theirs 19 to 26 ms after the decision on the loaded 2-core build machine (docs/SHARDING.md), so
     * half a second leaves a JVM that is descheduled for a moment time to spare, and costs a run half a second.
     */
    static final Duration START_MARGIN = Duration.ofMillis(500);

    private final ClientConfig config;
    private final int count;
    private final Path dir;
    private final PrintStream out;
    private final List<Process> children = new ArrayList<>();
    /** The first shard's live-view port (the next ones follow), or 0 without a live view. */
    private int firstMetricsPort;

    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean interrupted;
    /** A shard was not ready in time: the shards were stopped here, their ends are no news. */
    private volatile boolean notReady;

    /**
     * @param config the loaded configuration (validated by the parent before any child starts)
     * @param count  N, the number of shards
     * @param dir    the run directory: shards in {@code dir/shard-I}, the merged run in {@code dir}
     */
    public LocalShards(ClientConfig config, int count, Path dir, PrintStream out) {
        if (count < 1) {
            throw new ConfigException("--shards " + count + ": expected at least 1 shard");
        }
        if (config.arrivals() == Arrivals.CLOSED && count > config.users()) {
            throw new ConfigException("--shards " + count + " leaves shards without users (" + config.users()
                    + " users): use at most " + config.users() + " shards");
        }
        this.config = config;
        this.count = count;
        this.dir = dir;
        this.out = out;
    }

    /**
     * How long a shard's live view stays up after its run: the coordinator's page reads the shards' last seconds
     * before they exit.
     */
    static final Duration SHARD_LINGER = Duration.ofSeconds(3);

    /** Each shard serves its live view, shard I on port {@code firstPort + I} (the coordinator sums them). */
    public LocalShards metricsPorts(int firstPort) {
        this.firstMetricsPort = firstPort;
        return this;
    }

    /**
     * Runs the shards and merges them; returns the exit status (0 when every shard completed).
     *
     * @param child    each shard's command line: its JVM (java, a profile's flags) and the user's arguments
     *                 of {@code run}; the shard, the start instant, the target, the seed and the run directory
     *                 are set here
     * @param startAt  the common start instant, or null for as soon as every shard is ready
     */
    public int run(ClientCommandLine child, Instant startAt) throws IOException, InterruptedException {
        checkEmpty(dir);
        Files.createDirectories(dir);
        EmbeddedServerProcess server = null;
        String target = config.target();
        if (config.embedded()) {
            out.println("Starting one embedded RUBiS server for " + count + " shards ("
                    + config.server().model() + " model)...");
            server = EmbeddedServerProcess.start(
                    config, config.regionsFile(), config.categoriesFile(), RunFiles.serverDir(dir));
            target = server.baseUrl();
            out.println("Embedded server ready at " + target + "/PHP/ (pid " + server.pid() + ")");
        }
        Thread hook = new Thread(this::stopAll, "shards-stop");
        try {
            Runtime.getRuntime().addShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // Ctrl-C or SIGTERM while the server started, before any shard: nothing was sent, nothing to merge.
            if (server != null) {
                server.close();
            }
            interrupted = true;
            finished.countDown();
            return notStarted(ExitStatus.PARTIAL);
        }
        List<Path> shardDirs = new ArrayList<>();
        List<StartHandshake> handshakes = new ArrayList<>();
        int status;
        boolean started;
        try {
            out.println("Starting " + count + " shards" + (startAt != null ? " at " + startAt : "") + " (seed "
                    + config.seed() + ", target " + target + ")" + (startAt != null ? "" : "..."));
            long t0 = System.nanoTime();
            for (int i = 0; i < count; i++) {
                Path sd = RunFiles.shardDir(dir, i);
                Files.createDirectories(sd);
                shardDirs.add(sd);
                handshakes.add(new StartHandshake(sd));
                ClientCommandLine shard = child.shard(i, count)
                        .target(target)
                        .seed(config.seed())
                        .noProgress()
                        .out(sd);
                shard = startAt != null ? shard.startAt(startAt) : shard.startWhenReady();
                if (firstMetricsPort > 0) {
                    shard = shard.metricsPort(firstMetricsPort + i).metricsLinger(SHARD_LINGER);
                }
                synchronized (children) {
                    if (interrupted) {
                        break;
                    }
                    children.add(ChildJvm.start(shard, sd.resolve(RunFiles.SHARD_CONSOLE)));
                }
            }
            started = startAt != null || startTogether(handshakes, t0);
            status = notReady ? ExitStatus.NOT_MERGED : await();
        } finally {
            stopAll();
            if (server != null) {
                out.println("Stopping the embedded server...");
                server.close();
            }
        }
        try {
            return started ? merge(shardDirs, status) : notStarted(status);
        } finally {
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running: it waits for us
            }
        }
    }

    /**
     * Waits until every shard is ready, then gives them all one start instant, {@link #START_MARGIN} ahead. False when
     * they were not started: one ended first ({@link #await} names it and stops the others), one was not ready in time
     * (stopped here, with every other), or the user stopped the run.
     */
    private boolean startTogether(List<StartHandshake> handshakes, long t0) throws IOException, InterruptedException {
        List<Process> started;
        synchronized (children) {
            started = List.copyOf(children);
        }
        ReadyWait.Result r = ReadyWait.await(started, handshakes, t0, READY_BOUND, () -> interrupted);
        switch (r.outcome()) {
            case READY -> {
                Instant start = Instant.now().plus(START_MARGIN).truncatedTo(ChronoUnit.MILLIS);
                for (StartHandshake h : handshakes) {
                    h.start(start);
                }
                out.println(String.format(
                        Locale.ROOT,
                        "%d shards ready after %.1f s; starting together at %s",
                        count,
                        r.elapsedNs() / 1e9,
                        start));
                return true;
            }
            case NOT_READY -> {
                List<Integer> late = r.shards();
                String who = late.size() == 1
                        ? "shard " + late.get(0) + " was"
                        : "shards " + late.stream().map(String::valueOf).collect(Collectors.joining(", ")) + " were";
                System.err.println("error: " + who + " not ready within " + READY_BOUND.toSeconds() + " s ("
                        + Printable.escape(
                                lastLine(RunFiles.shardDir(dir, late.get(0)).resolve(RunFiles.SHARD_CONSOLE)))
                        + "); this host cannot start " + count + " client JVMs in time: nothing was run (use fewer "
                        + "shards, or a less loaded host)");
                notReady = true;
                stopAll();
                return false;
            }
            default -> {
                return false;
            }
        }
    }

    /** The shards were stopped before they were given a start instant: nothing was sent, there is nothing to merge. */
    private int notStarted(int status) {
        System.err.println("error: not merged: stopped before the shards started (nothing was sent); each shard's "
                + "output is in " + dir.resolve("shard-I").resolve(RunFiles.SHARD_CONSOLE));
        return status == 0 ? ExitStatus.NOT_MERGED : status;
    }

    /** Waits for every shard; the first that fails stops the others (their runs would not add up to the workload). */
    private int await() throws InterruptedException {
        int status = 0;
        List<Process> left = new ArrayList<>(children);
        while (!left.isEmpty()) {
            for (Process p : List.copyOf(left)) {
                if (!p.isAlive()) {
                    left.remove(p);
                    int s = p.exitValue();
                    if (s != 0 && status == 0) {
                        status = s;
                        int i = children.indexOf(p);
                        if (!interrupted && !notReady) {
                            System.err.println("error: shard " + i + " ended with status " + s + ": "
                                    + Printable.escape(
                                            lastLine(RunFiles.shardDir(dir, i).resolve(RunFiles.SHARD_CONSOLE)))
                                    + " (stopping the other shards)");
                            stopAll();
                        }
                    }
                }
            }
            if (!left.isEmpty()) {
                left.get(0).waitFor(100, TimeUnit.MILLISECONDS);
            }
        }
        return interrupted && status == 0 ? ExitStatus.PARTIAL : status;
    }

    /** SIGTERM to every running shard (each stops its run cleanly and writes its summary), then wait for them. */
    private void stopAll() {
        boolean hook = Thread.currentThread().getName().equals("shards-stop");
        if (hook) {
            interrupted = true;
        }
        List<Process> list;
        synchronized (children) {
            list = List.copyOf(children);
        }
        for (Process p : list) {
            if (p.isAlive()) {
                p.destroy();
            }
        }
        for (Process p : list) {
            try {
                if (!p.waitFor(90, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        if (hook) {
            // Ctrl-C: the main thread merges what the shards wrote; the JVM exits when it is done.
            try {
                finished.await(120, TimeUnit.SECONDS);
            } catch (InterruptedException ignored) {
                // exiting anyway
            }
        }
    }

    private int merge(List<Path> shardDirs, int status) {
        List<Path> missing = shardDirs.stream()
                .filter(d -> !Files.isRegularFile(RunFiles.summaryJson(d)))
                .toList();
        if (shardDirs.size() < count || !missing.isEmpty()) {
            System.err.println("error: not merged: "
                    + (shardDirs.size() < count ? "not every shard was started" : "no summary.json in " + missing)
                    + "; each shard's output is in its console.txt");
            // Nothing was merged: that is the status (a shard killed by SIGKILL exited 137, no run status).
            return interrupted && status == ExitStatus.PARTIAL ? status : ExitStatus.NOT_MERGED;
        }
        RunMerge.Result r;
        try {
            r = RunMerge.mergeInPlace(shardDirs, dir);
        } catch (AnalysisException e) {
            if (interrupted) { // stopped as the start instant was given: a shard may have ended without it
                System.err.println("error: not merged: " + Printable.escape(e.getMessage()));
                return status;
            }
            throw new ConfigException("merging the shards: " + e.getMessage());
        }
        out.println();
        try {
            out.print(Files.readString(RunFiles.summaryText(dir), StandardCharsets.UTF_8));
        } catch (IOException e) {
            out.println("(summary.txt unreadable: " + e.getMessage() + ")");
        }
        out.println();
        r.warnings().forEach(w -> System.err.println("warning: " + Printable.escape(w)));
        out.println("Merged " + count + " shards into " + dir
                + " (requests.csv, sessions.csv, summary.json); each shard's run is in " + dir.resolve("shard-I"));
        if (status == 0 && r.status() != RunStatus.COMPLETE) {
            System.err.println("error: the run did not complete: "
                    + Printable.escape(r.summary().path("stop_reason").asText()));
            return r.status().exitCode();
        }
        return status;
    }

    private static void checkEmpty(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                if (s.findAny().isPresent()) {
                    throw new ConfigException(
                            "--out " + dir
                                    + ": not empty; run --shards writes the shards and the merged run there, choose a new directory");
                }
            }
        } else if (Files.exists(dir)) {
            throw new ConfigException("--out " + dir + ": not a directory");
        }
    }

    private static String lastLine(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8).stream()
                    .filter(l -> !l.isBlank())
                    .toList();
            return lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1) + " (full output: " + log + ")";
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }
}
