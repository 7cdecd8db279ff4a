package org.rubis.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A run with its live view on, started in the background as a user would (the shaded jar), for the tests that watch
 * it from outside: Prometheus, a browser. Knows the endpoint's port and reads its output as it comes.
 */
final class LiveRunProcess implements AutoCloseable {

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    final int port;
    final Path dir;
    private final Path out;
    private final Process process;

    private LiveRunProcess(int port, Path dir, Path out, Process process) {
        this.port = port;
        this.dir = dir;
        this.out = out;
        this.process = process;
    }

    /** {@code run ARGS --metrics-port P --out DIR}: P a free loopback port. */
    static LiveRunProcess start(Path work, int port, String... args) throws IOException {
        Path dir = work.resolve("run");
        Path out = work.resolve("client-out.txt");
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--metrics-port", String.valueOf(port), "--out", dir.toString()));
        Process p = Cli.client(work, all.toArray(String[]::new))
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        return new LiveRunProcess(port, dir, out, p);
    }

    /**
     * A loopback port nobody listens on now, below the kernel's ephemeral range: the run binds it a JVM start later,
     * and a port of that range (what {@code new ServerSocket(0)} gives) can meanwhile become the local port of any
     * connection the host opens (a busy host's tests open thousands: "Address already in use").
     */
    static int freePort() throws IOException {
        int below = ephemeralLow();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 100; attempt++) {
            int p = random.nextInt(10_000, below);
            try (ServerSocket s = new ServerSocket(p, 1, InetAddress.getLoopbackAddress())) {
                return s.getLocalPort();
            } catch (IOException taken) {
                // another listener's: try the next
            }
        }
        throw new IOException("no free loopback port below " + below + " in 100 tries");
    }

    /** The lowest port the kernel gives connections ({@code ip_local_port_range}; Linux's default 32768). */
    private static int ephemeralLow() {
        try { // by lines: Files.readString of this /proc file gave "3" (JDK 25)
            List<String> range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range"));
            int low = Integer.parseInt(range.get(0).trim().split("\\s+")[0]);
            return low > 11_024 ? low : 32768;
        } catch (IOException | RuntimeException e) {
            return 32768;
        }
    }

    String base() {
        return "http://127.0.0.1:" + port;
    }

    String output() throws IOException {
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    boolean alive() {
        return process.isAlive();
    }

    /** Waits until {@code condition} holds (checked every 100 ms); after {@code seconds}, fails with the output. */
    void await(String what, long seconds, BooleanSupplier condition) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("waited " + seconds + " s for " + what + "; the run's output:\n" + output());
            }
            Thread.sleep(100);
        }
    }

    /** Waits for a line of the run's output containing {@code text}. */
    void awaitOutput(String text, long seconds) throws Exception {
        await("\"" + text + "\" in the run's output", seconds, () -> {
            try {
                return output().contains(text);
            } catch (IOException e) {
                return false;
            }
        });
    }

    /** The run's exit status, once it has ended (lingering included). */
    int exitStatus(long seconds) throws Exception {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the run did not end in " + seconds + " s:\n" + output());
        }
        return process.exitValue();
    }

    /** GET {@code path} on the endpoint: the status and body, or status -1 when it does not answer. */
    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(base() + path))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /** The live feed, or null when the endpoint does not answer yet. */
    JsonNode feed() {
        try {
            HttpResponse<String> r = get("/live.json");
            return r.statusCode() == 200 ? new ObjectMapper().readTree(r.body()) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
