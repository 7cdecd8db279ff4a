package org.rubis.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A rubis-server JVM of a test's own, started apart from the client as a user's own deployment would be, and given to
 * the client with {@code --target}: its database lives as long as this process, across the runs against it. Its
 * output goes to {@code server.out} in its directory; stopped by {@link #close} (and with the test JVM:
 * {@code --exit-with-parent}).
 */
final class ForeignServer implements AutoCloseable {

    private static final String READY = "rubis-server ready: ";

    private final Process process;
    private final String base;

    private ForeignServer(Process process, String base) {
        this.process = process;
        this.base = base;
    }

    /** Starts {@code rubis-server --port 0 --exit-with-parent ARGS} with its output in {@code dir/server.out}. */
    static ForeignServer start(Path dir, String... args) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        List<String> cmd = new ArrayList<>(List.of(
                Cli.java(),
                "-XX:TieredStopAtLevel=1",
                "-Xmx512m",
                "-jar",
                Cli.serverJar().toAbsolutePath().toString(),
                "--port",
                "0",
                "--exit-with-parent"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        CompletableFuture<String> ready = new CompletableFuture<>();
        Path log = dir.resolve("server.out");
        Thread.ofPlatform().daemon().name("foreign-server-output").start(() -> {
            try (BufferedReader in =
                    new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    Files.writeString(
                            log,
                            line + "\n",
                            StandardCharsets.UTF_8,
                            StandardOpenOption.CREATE,
                            StandardOpenOption.APPEND);
                    if (line.startsWith(READY)) {
                        ready.complete(line.substring(READY.length()));
                    }
                }
            } catch (IOException e) {
                ready.completeExceptionally(e);
            }
            ready.completeExceptionally(new IOException("rubis-server exited before it was ready; see " + log));
        });
        try {
            String url = ready.get(180, TimeUnit.SECONDS);
            return new ForeignServer(p, url.substring(0, url.indexOf("/PHP/")));
        } catch (ExecutionException | TimeoutException e) {
            p.destroyForcibly();
            throw new IOException("rubis-server did not start: " + e.getMessage() + "; see " + log, e);
        }
    }

    /** http://127.0.0.1:PORT */
    String target() {
        return base;
    }

    long pid() {
        return process.pid();
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
