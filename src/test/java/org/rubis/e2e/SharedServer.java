package org.rubis.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * One rubis-server JVM for the e2e tests whose assertions do not read the run's own server: {@code run --target}
 * {@link #target()} instead of an embedded server saves each such run a server JVM's start and its database's
 * population (about 3 s of CPU). Started on first use, by whichever test class comes first (classes run concurrently),
 * and stopped when the test JVM exits ({@code --exit-with-parent}: also if that JVM is killed). Its logs are in
 * {@code target/shared-server}.
 *
 * <p>Its requests.csv and stats.json hold every sharing test's requests, so a test that checks a run against the
 * server's ground truth (server/), sets server options ({@code -Dserver_*}, faults, TLS, a server model) or stops the
 * server must keep its own embedded server.
 */
final class SharedServer {

    private static final String READY = "rubis-server ready: ";
    private static String target;

    private SharedServer() {}

    /** The shared server's base URL (http://127.0.0.1:PORT), for {@code run --target}; starts it on first use. */
    static synchronized String target() throws IOException, InterruptedException {
        if (target == null) {
            target = start(Path.of("target", "shared-server").toAbsolutePath());
        }
        return target;
    }

    private static String start(Path dir) throws IOException, InterruptedException {
        if (Files.isDirectory(dir)) { // the previous build's logs
            try (Stream<Path> old = Files.walk(dir)) {
                for (Path f : old.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(f);
                }
            }
        }
        Files.createDirectories(dir);
        Process p = new ProcessBuilder(List.of(
                        Cli.java(),
                        "-jar",
                        Cli.serverJar().toAbsolutePath().toString(),
                        "--port",
                        "0",
                        "--size",
                        "0.02",
                        "--out",
                        dir.toString(),
                        "--exit-with-parent"))
                .redirectErrorStream(true)
                .start();
        Runtime.getRuntime().addShutdownHook(new Thread(p::destroy, "shared-server-stop"));
        // The ready line, read from the server's output; whatever it prints after is copied to server.out.
        CompletableFuture<String> ready = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("shared-server-output").start(() -> {
            try (BufferedReader in =
                    new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    Files.writeString(
                            dir.resolve("server.out"),
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
            ready.completeExceptionally(new IOException(
                    "the shared rubis-server exited before it was ready; see " + dir.resolve("server.out")));
        });
        String url;
        try {
            url = ready.get(120, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            p.destroyForcibly();
            throw new IOException("the shared rubis-server did not start: " + e.getMessage(), e);
        }
        // "http://127.0.0.1:PORT/PHP/ (model event, ...)": the base URL is what precedes /PHP/.
        return url.substring(0, url.indexOf("/PHP/"));
    }
}
