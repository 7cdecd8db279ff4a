package org.rubis.jmh;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ConfigLoader;
import org.rubis.client.workload.RequestGenerator;
import org.rubis.client.workload.UserSession;

/**
 * The client's per-request work (choose the next state, build the URL, scan the reply) under JVM
 * profiles given as forked JVM arguments: the default JIT, an interpreter only (-Xint, standing in
 * for the paper's GNU libgcj), and the 2010 default heap with the serial collector.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@State(Scope.Thread)
public class JvmProfileBenchmark {

    UserSession session;
    String page;
    RequestGenerator generator;
    ClientConfig config;
    long id;

    @Setup
    public void setup() {
        config = ConfigLoader.load((Path) null, Map.of());
        generator = new RequestGenerator(config.workload());
        page = ExtractionBenchmark.buildPage();
        session = new UserSession(config.workload(), generator, id++, 1);
    }

    private String step() {
        String path = session.nextPath();
        if (session.onReply(page, false) == UserSession.Next.END) {
            session = new UserSession(config.workload(), generator, id++, 1);
        }
        return path;
    }

    @Benchmark
    @Fork(1)
    public String defaultJit() {
        return step();
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = "-Xint")
    public String interpretedOnly() {
        return step();
    }

    @Benchmark
    @Fork(
            value = 1,
            jvmArgsAppend = {"-Xmx64m", "-XX:+UseSerialGC"})
    public String paperDefaultHeapSerialGc() {
        return step();
    }
}
