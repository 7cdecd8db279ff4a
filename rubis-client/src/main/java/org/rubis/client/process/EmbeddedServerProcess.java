package org.rubis.client.process;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.JvmOptions;
import org.rubis.client.input.ConfigException;
import org.rubis.client.input.Source;
import org.rubis.client.workload.DatabasePolicy;
import org.rubis.format.run.RunFiles;

/**
 * The embedded RUBiS server in its own JVM (never inside the client's: it would share the CPU,
 * heap and GC whose effect we measure). Started from this jar's classpath on a free loopback port,
 * its logs written straight into the run directory's {@code server/}: from a client configuration
 * ({@code run}), or with server flags chosen by an experiment ({@code reproduce}: model, CPU demand,
 * TLS, a pre-populated database), which then also reads the server's CPU time.
 */
public final class EmbeddedServerProcess implements AutoCloseable {

    private static final String READY = "rubis-server ready: ";

    private final Process process;
    private final String baseUrl;

    private EmbeddedServerProcess(Process process, String baseUrl) {
        this.process = process;
        this.baseUrl = baseUrl;
    }

    public String baseUrl() {
        return baseUrl;
    }

    public long pid() {
        return process.pid();
    }

    public int port() {
        return URI.create(baseUrl).getPort();
    }

    /** CPU time the server process has used so far (user + system), in seconds; NaN when the OS does not say. */
    public double cpuSeconds() {
        return process.toHandle()
                .info()
                .totalCpuDuration()
                .map(Duration::toNanos)
                .map(n -> n / 1e9)
                .orElse(Double.NaN);
    }

    /** Starts the server and waits until it accepts requests. */
    public static EmbeddedServerProcess start(ClientConfig c, Source regions, Source categories, Path dir)
            throws IOException {
        Files.createDirectories(dir);
        Path props = dir.resolve(RunFiles.SERVER_PROPERTIES);
        DatabasePolicy p = c.workload().policy();
        StringBuilder b = new StringBuilder("# database policy handed to the embedded server by rubis-client\n");
        b.append("database_number_of_users = ")
                .append(p.users())
                .append('\n')
                .append("database_number_of_old_items = ")
                .append(p.oldItems())
                .append('\n')
                .append("database_percentage_of_unique_items = ")
                .append(p.percentUniqueItems())
                .append('\n')
                .append("database_percentage_of_items_with_reserve_price = ")
                .append(p.percentReservePrice())
                .append('\n')
                .append("database_percentage_of_buy_now_items = ")
                .append(p.percentBuyNow())
                .append('\n')
                .append("database_max_quantity_for_multiple_items = ")
                .append(p.maxQuantityForMultipleItems())
                .append('\n')
                .append("database_item_description_length = ")
                .append(p.itemDescriptionLength())
                .append('\n')
                .append("database_max_bids_per_item = ")
                .append(p.maxBidsPerItem())
                .append('\n')
                .append("database_max_comments_per_user = ")
                .append(p.maxCommentsPerUser())
                .append('\n')
                .append("database_comment_max_length = ")
                .append(p.commentMaxLength())
                .append('\n');
        appendFile(b, "database_regions_file", regions, dir);
        appendFile(b, "database_categories_file", categories, dir);
        Files.writeString(props, b.toString(), StandardCharsets.ISO_8859_1);

        List<String> args = new ArrayList<>(List.of(
                "--model",
                c.server().model().label(),
                "--size",
                String.valueOf(c.server().size()),
                "--keepalive-ms",
                String.valueOf(c.server().keepAliveMs()),
                "-p",
                props.toString()));
        if (!c.server().faults().isEmpty()) {
            args.addAll(List.of("--faults", c.server().faults()));
        }
        if (c.server().tls()) {
            args.addAll(List.of("--tls", "--tls-resumption", c.server().tlsResumption() ? "on" : "off"));
        }
        return launch(
                JvmOptions.parse(c.server().javaOptions(), "server_java_options")
                        .flags(),
                args,
                dir);
    }

    /**
     * Starts the server as an experiment chose it (1 GB heap), logs in {@code dir}; returns once it accepts requests.
     *
     * @param dbFile a file-backed database (H2 path without {@code .mv.db}; populated on first use, reused after), or null for memory
     */
    public static EmbeddedServerProcess start(ServerChoice choice, Path dir, Path dbFile) throws IOException {
        Files.createDirectories(dir);
        List<String> args = new ArrayList<>(choice.arguments());
        if (dbFile != null) {
            args.addAll(List.of("--db-file", dbFile.toAbsolutePath().toString()));
        }
        return launch(List.of("-Xmx1g"), args, dir);
    }

    /** Starts {@code ServerMain} with these JVM flags and server arguments on a free port, logs in {@code dir}, and waits until it is ready. */
    private static EmbeddedServerProcess launch(List<String> jvmFlags, List<String> serverArgs, Path dir)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(javaExecutable());
        cmd.addAll(jvmFlags);
        cmd.addAll(quietJdkFlags());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("org.rubis.server.ServerMain");
        cmd.add("--exit-with-parent"); // a kill -9 of this client must not leave the server running
        cmd.addAll(List.of("--port", "0", "--out", dir.toString()));
        cmd.addAll(serverArgs);
        Path log = dir.resolve(RunFiles.SERVER_LOG);
        Process proc = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                if (line.startsWith(READY)) {
                    String url = line.substring(READY.length()).split(" ")[0];
                    String base = url.endsWith("/PHP/") ? url.substring(0, url.length() - "/PHP/".length()) : url;
                    return new EmbeddedServerProcess(proc, base);
                }
            }
            if (!proc.isAlive()) {
                List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
                throw new ConfigException(
                        "the embedded server exited with status " + proc.exitValue() + " before it was ready: "
                                + StartFailure.cause(lines, "rubis-server: ") + " (full log: " + log + ")");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                proc.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while starting the embedded server");
            }
        }
        proc.destroyForcibly();
        throw new ConfigException("the embedded server did not start within 120 s; see " + log);
    }

    private static void appendFile(StringBuilder b, String key, Source s, Path dir) throws IOException {
        if (s instanceof Source.FileSource f) {
            b.append(key)
                    .append(" = ")
                    .append(f.path().toAbsolutePath().toString().replace("\\", "/"))
                    .append('\n');
        } else {
            // A packaged file: copy it beside the properties so the server reads the same data.
            Path copy = dir.resolve(key.replace("database_", "").replace("_file", "") + ".txt");
            Files.write(copy, s.readLines(), StandardCharsets.ISO_8859_1);
            b.append(key).append(" = ").append(copy.getFileName()).append('\n');
        }
    }

    /** The java of this process: the embedded server runs on the same JDK. */
    public static String javaExecutable() {
        return ProcessHandle.current()
                .info()
                .command()
                .filter(cmd -> cmd.endsWith("java") || cmd.endsWith("java.exe"))
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /** Netty on JDK 24+ warns about Unsafe and native access unless told it may. */
    private static List<String> quietJdkFlags() {
        List<String> flags = new ArrayList<>();
        int feature = Runtime.version().feature();
        if (feature >= 22) {
            flags.add("--enable-native-access=ALL-UNNAMED");
        }
        if (feature >= 24) {
            flags.add("--sun-misc-unsafe-memory-access=allow");
        }
        return flags;
    }

    /** Stops the server (SIGTERM), waiting for it to flush its logs and write stats.json. */
    @Override
    public void close() {
        stop(process);
    }

    /** SIGTERM, then up to 30 s for the server to flush its logs and write stats.json, then SIGKILL. */
    private static void stop(Process process) {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
