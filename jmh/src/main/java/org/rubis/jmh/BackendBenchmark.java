package org.rubis.jmh;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.rubis.client.backend.Backend;
import org.rubis.client.backend.Backends;
import org.rubis.client.backend.Reply;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ConfigLoader;
import org.rubis.client.process.EmbeddedServerProcess;

/**
 * Client-side cost of one request with each backend (legacy, pooled, dedicated, netty), all driven
 * alike ({@link Backends#execute}: the caller waits for the whole reply, for netty while its event
 * loop does the request), against the embedded server in its own JVM. Run with {@code -prof gc} for the
 * allocation per request. The server shares the machine, so compare backends with each other, not
 * with absolute figures elsewhere.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {
            "--add-opens",
            "java.base/sun.net.www.protocol.http=ALL-UNNAMED",
            "--add-opens",
            "java.base/sun.net.www.protocol.https=ALL-UNNAMED",
            "--add-opens",
            "java.base/sun.net.www.http=ALL-UNNAMED",
            "--add-opens",
            "java.base/sun.net=ALL-UNNAMED"
        })
@State(Scope.Benchmark)
public class BackendBenchmark {

    static final String PATH = "/PHP/ViewItem.php?itemId=7";

    /** Which backend a trial measures. */
    @Param({"legacy", "pooled", "dedicated", "netty"})
    public String backend;

    EmbeddedServerProcess server;
    Backend b;

    @Setup(Level.Trial)
    public void start() throws Exception {
        ClientConfig c = ConfigLoader.load(
                (Path) null,
                Map.of(
                        "server_size",
                        "0.02",
                        "server_java_options",
                        "-Xmx512m",
                        "client_backend",
                        backend,
                        "client_pool_max",
                        "64"));
        server = EmbeddedServerProcess.start(
                c, c.regionsFile(), c.categoriesFile(), Files.createTempDirectory("jmh-server"));
        b = Backends.create(c.execution(), server.baseUrl());
    }

    @TearDown(Level.Trial)
    public void stop() {
        b.close();
        server.close();
    }

    /** Per benchmark thread: its reply object and its session (its own connection for dedicated and netty). */
    @State(Scope.Thread)
    public static class UserState {
        final Reply reply = new Reply();
        Backend.Session session;

        @Setup(Level.Trial)
        public void open(BackendBenchmark bench) {
            session = bench.b.startSession();
        }

        @TearDown(Level.Trial)
        public void close(BackendBenchmark bench) {
            bench.b.endSession(session);
        }
    }

    @Benchmark
    public long request(UserState u) {
        Backends.execute(b, u.session, PATH, u.reply);
        return u.reply.bytes;
    }
}
