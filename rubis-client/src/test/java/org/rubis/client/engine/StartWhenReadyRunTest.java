package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.rubis.client.config.ConfigLoader;
import org.rubis.client.config.ShardPlan;
import org.rubis.client.process.StartHandshake;
import org.rubis.client.report.Summary;
import org.rubis.format.run.RunFiles;
import org.rubis.server.FaultyServer;
import org.rubis.server.RubisServer;

/**
 * A shard of run --shards N as the engine runs it: it gets ready, says so, and starts at the instant its parent then
 * gives, as a shard given that instant up front would (summary {@code shard.start_at}, the clock's t = 0); by the
 * server's own log nothing reached the target before that instant. Stopped while it waits, it sends nothing and its
 * summary claims no start instant.
 */
@Tag("concurrent") // whole runs that mostly wait, each case its own server (docs/DEVELOPING.md)
@Execution(ExecutionMode.CONCURRENT)
class StartWhenReadyRunTest {

    @TempDir
    Path tmp;

    private final PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());

    private static Map<String, String> settings(RubisServer server) {
        return Map.of(
                "client_target",
                "http://127.0.0.1:" + server.port(),
                "client_seed",
                "27",
                "client_jit_warmup",
                "off",
                "workload_number_of_clients_per_node",
                "4",
                "workload_up_ramp_time_in_ms",
                "0",
                "workload_down_ramp_time_in_ms",
                "0",
                "workload_session_run_time_in_ms",
                "1000",
                "workload_think_scale",
                "0.005",
                "client_progress",
                "no");
    }

    /** The engine of shard 0 of 1, run directory {@code dir}, that waits for its start instant there. */
    private RunEngine shardEngine(RubisServer server, Path dir) {
        return new RunEngine(
                        ConfigLoader.load((Path) null, settings(server)),
                        new ShardPlan(0, 1, null, null, true),
                        dir,
                        quiet)
                .startWhenReady(new StartHandshake(dir));
    }

    /** The engine's run on a thread of its own. */
    private static FutureTask<Summary> start(RunEngine engine) {
        FutureTask<Summary> run = new FutureTask<>(engine::run);
        Thread.ofPlatform().name("shard-run").start(run);
        return run;
    }

    /** Waits (at most a minute) until the shard says it is ready. */
    private static void awaitReady(Path dir, FutureTask<Summary> run) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(dir.resolve(RunFiles.SHARD_READY))) {
            assertFalse(
                    run.isDone(),
                    "the run ended before it was ready: "
                            + (run.isDone() ? run.get().text() : ""));
            assertTrue(System.nanoTime() < deadline, "the shard never said it was ready");
            Thread.sleep(5);
        }
    }

    /** The server's requests.csv: its arrival instants (epoch ns), one per request it received. */
    private static List<Long> arrivals(Path truth) throws Exception {
        List<String> lines = Files.readAllLines(truth.resolve(RunFiles.SERVER_REQUESTS));
        int column = List.of(lines.get(0).split(",")).indexOf("arrival_epoch_ns");
        assertTrue(column >= 0, lines.get(0));
        return lines.subList(1, lines.size()).stream()
                .map(l -> Long.parseLong(l.split(",")[column]))
                .toList();
    }

    private static long epochNs(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    @Test
    void aReadyShardStartsAtTheInstantItIsGivenAndNothingReachesTheTargetBefore() throws Exception {
        Path dir = tmp.resolve("shard-0");
        Path truth = tmp.resolve("server");
        Instant start;
        JsonNode s;
        try (RubisServer server = FaultyServer.start(RubisServer.Model.EVENT, "", truth)) {
            RunEngine engine = shardEngine(server, dir);
            FutureTask<Summary> run = start(engine);
            awaitReady(dir, run);
            start = Instant.now().plusMillis(300);
            new StartHandshake(dir).start(start); // the parent's side
            s = run.get(60, TimeUnit.SECONDS).json();
        }
        assertEquals("complete", s.get("status").asText(), s.toString());
        assertEquals(start.toString(), s.get("shard").get("start_at").asText(), "the instant given");
        assertEquals(epochNs(start), s.get("shard").get("start_at_epoch_ns").asLong());
        assertTrue(
                s.get("clock").get("run_start_epoch_ns").asLong() >= epochNs(start),
                "t = 0 at the instant given: " + s.get("clock"));
        assertFalse(Files.exists(dir.resolve(RunFiles.SHARD_READY)), "the handshake's files are removed");
        assertFalse(Files.exists(dir.resolve(RunFiles.SHARD_START_AT)));

        List<Long> arrived = arrivals(truth);
        assertTrue(arrived.size() >= 10, "the run sent requests: " + arrived.size());
        // The server stamps arrivals on its own anchored clock: 1 ms allows for the two anchors' disagreement.
        long first = arrived.stream().mapToLong(Long::longValue).min().orElseThrow();
        assertTrue(
                first >= epochNs(start) - 1_000_000L,
                "a request arrived " + (epochNs(start) - first) / 1e6 + " ms before the start instant");
    }

    @Test
    void aShardStoppedWhileItWaitsSendsNothingAndClaimsNoStartInstant() throws Exception {
        Path dir = tmp.resolve("shard-0");
        Path truth = tmp.resolve("server");
        JsonNode s;
        try (RubisServer server = FaultyServer.start(RubisServer.Model.EVENT, "", truth)) {
            RunEngine engine = shardEngine(server, dir);
            FutureTask<Summary> run = start(engine);
            awaitReady(dir, run);
            engine.requestStop("interrupted (SIGINT/SIGTERM)");
            s = run.get(60, TimeUnit.SECONDS).json();
        }
        assertEquals("partial", s.get("status").asText(), s.toString());
        assertEquals(0, s.get("requests").asLong(), s.toString());
        assertEquals(0, s.get("shard").get("index").asInt());
        assertFalse(s.get("shard").has("start_at"), "never given one: " + s.get("shard"));
        assertFalse(Files.exists(dir.resolve(RunFiles.SHARD_READY)), "the handshake's files are removed");
        assertEquals(List.of(), arrivals(truth), "the server received nothing");
    }
}
