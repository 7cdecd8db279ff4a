package org.rubis.client.process;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.rubis.client.input.ConfigException;

/**
 * The RUBiS server in its own JVM, started with server flags chosen by an experiment (model, CPU
 * demand, TLS) rather than from a client configuration: the experiment then knows the port before
 * the client starts (so a packet capture can be set up around the run) and can read the server's
 * CPU time, which the embedded server started by {@code run} does not report. Its logs go to the
 * given directory (a run directory's {@code server/}, the same layout as the embedded server's).
 */
public final class StandaloneServer implements AutoCloseable {

    private static final String READY = "rubis-server ready: ";
    /** Flags an experiment may pass; values are checked to be plain tokens (no shell, no JVM options). */
    private static final Set<String> ALLOWED = Set.of("--model", "--demand-us", "--demand", "--tls", "--tls-resumption", "--size",
            "--keepalive-ms", "--workers", "--max-workers", "--event-threads", "--backlog", "--max-keepalive-requests");

    private final Process process;
    private final String baseUrl;

    private StandaloneServer(Process process, String baseUrl) {
        this.process = process;
        this.baseUrl = baseUrl;
    }

    /**
     * Starts {@code rubis-server} on a free loopback port with {@code flags}, logs in {@code dir}; returns once it accepts requests.
     *
     * @param dbFile a file-backed database (H2 path without {@code .mv.db}; populated on first use, reused after), or null for memory
     */
    public static StandaloneServer start(List<String> flags, Path dir, Path dbFile) throws IOException {
        for (String f : flags) {
            if (f.startsWith("--") && !ALLOWED.contains(f)) {
                throw new IllegalArgumentException("server flag not allowed here: " + f);
            }
            if (!f.matches("[A-Za-z0-9_.=:-]{1,64}")) {
                throw new IllegalArgumentException("server argument is not a plain token: " + f);
            }
        }
        Files.createDirectories(dir);
        List<String> cmd = new ArrayList<>();
        cmd.add(EmbeddedServerProcess.javaExecutable());
        cmd.add("-Xmx1g");
        cmd.addAll(EmbeddedServerProcess.quietJdkFlags());
        cmd.add("-cp");
        cmd.add(ChildJvm.selfJar());
        cmd.add("org.rubis.server.ServerMain");
        cmd.addAll(List.of("--port", "0", "--out", dir.toString(), "--exit-with-parent"));
        cmd.addAll(flags);
        if (dbFile != null) {
            cmd.addAll(List.of("--db-file", dbFile.toAbsolutePath().toString()));
        }
        Path log = dir.resolve("server.log");
        Process proc = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                if (line.startsWith(READY)) {
                    String url = line.substring(READY.length()).split(" ")[0];
                    String base = url.endsWith("/PHP/") ? url.substring(0, url.length() - "/PHP/".length()) : url;
                    return new StandaloneServer(proc, base);
                }
            }
            if (!proc.isAlive()) {
                throw new ConfigException("rubis-server exited with status " + proc.exitValue() + " before it was ready; see " + log);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                proc.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while starting rubis-server");
            }
        }
        proc.destroyForcibly();
        throw new ConfigException("rubis-server did not start within 120 s; see " + log);
    }

    /** The base URL ({@code http://127.0.0.1:PORT} or https). */
    public String baseUrl() {
        return baseUrl;
    }

    public int port() {
        return URI.create(baseUrl).getPort();
    }

    /** CPU time the server process has used so far (user + system), in seconds; NaN when the OS does not say. */
    public double cpuSeconds() {
        return process.toHandle().info().totalCpuDuration().map(Duration::toNanos).map(n -> n / 1e9).orElse(Double.NaN);
    }

    /** Stops the server (SIGTERM), waiting for it to flush its logs and write stats.json. */
    @Override
    public void close() {
        EmbeddedServerProcess.stop(process);
    }
}
