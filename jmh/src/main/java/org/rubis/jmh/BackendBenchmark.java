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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.rubis.client.backend.Backend;
import org.rubis.client.backend.DedicatedBackend;
import org.rubis.client.backend.LegacyBackend;
import org.rubis.client.backend.PooledBackend;
import org.rubis.client.backend.Reply;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ConfigLoader;
import org.rubis.client.engine.EmbeddedServerProcess;

/**
 * Client-side cost of one request with each blocking backend, against the embedded server in its
 * own JVM. Run with {@code -prof gc} for the allocation per request. The server shares the machine,
 * so compare backends with each other, not with absolute figures elsewhere.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-opens", "java.base/sun.net.www.protocol.http=ALL-UNNAMED", "--add-opens",
        "java.base/sun.net.www.http=ALL-UNNAMED", "--add-opens", "java.base/sun.net=ALL-UNNAMED"})
@State(Scope.Benchmark)
public class BackendBenchmark {

    static final String PATH = "/PHP/ViewItem.php?itemId=7";

    EmbeddedServerProcess server;
    LegacyBackend legacy;
    PooledBackend pooled;
    DedicatedBackend dedicated;

    @Setup(Level.Trial)
    public void start() throws Exception {
        ClientConfig c = ConfigLoader.load((Path) null, Map.of("server_size", "0.02", "server_java_options", "-Xmx512m"));
        server = EmbeddedServerProcess.start(c, c.regionsFile(), c.categoriesFile(), Files.createTempDirectory("jmh-server"));
        String base = server.baseUrl();
        legacy = new LegacyBackend(base, 10_000, 10_000, false);
        pooled = new PooledBackend(base, 10_000, 10_000, 64, false);
        dedicated = new DedicatedBackend(base, 10_000, 10_000, false);
    }

    @TearDown(Level.Trial)
    public void stop() {
        legacy.close();
        pooled.close();
        dedicated.close();
        server.close();
    }

    /** Per benchmark thread: its reply object and its dedicated connection. */
    @State(Scope.Thread)
    public static class UserState {
        final Reply reply = new Reply();
        Backend.Session dedicated;

        @Setup(Level.Trial)
        public void open(BackendBenchmark b) {
            dedicated = b.dedicated.startSession();
        }

        @TearDown(Level.Trial)
        public void close(BackendBenchmark b) {
            b.dedicated.endSession(dedicated);
        }
    }

    @Benchmark
    public long legacy(UserState u) {
        legacy.execute(null, PATH, u.reply);
        return u.reply.bytes;
    }

    @Benchmark
    public long pooled(UserState u) {
        pooled.execute(null, PATH, u.reply);
        return u.reply.bytes;
    }

    @Benchmark
    public long dedicated(UserState u) {
        dedicated.execute(u.dedicated, PATH, u.reply);
        return u.reply.bytes;
    }
}
