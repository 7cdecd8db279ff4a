package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rubis.client.config.ConfigLoader;
import org.rubis.client.config.ShardPlan;
import org.rubis.client.probe.ReferenceProbe;
import org.rubis.client.warmup.JitWarmup;
import org.rubis.format.io.Tls;
import org.rubis.server.FaultyServer;
import org.rubis.server.RubisServer;

/**
 * The JIT warm-up runs against its own loopback stub, never against the target: with the warm-up on,
 * the target's own log and connection accounting hold exactly the run's and the probe's requests and
 * connections (one per netty session, plus the probe's), and the summary records the warm-up; with it
 * off no stub starts; a warm-up that cannot start its stub is skipped with a warning, and the run
 * still completes.
 *
 * <p>Each case has its own server and mostly waits for its run: the cases run concurrently, except that a case that
 * counts the stubs this JVM started ({@link JitWarmup#stubsStarted()}) runs while no other case of this class can
 * start one (no other class turns the warm-up on).
 */
@Tag("concurrent")
@Execution(ExecutionMode.CONCURRENT)
class JitWarmupRunTest {

    /** The JVM's count of warm-up stubs: read exclusively by the cases that count them, shared by the others. */
    private static final String STUBS = "JitWarmup.stubsStarted";

    @TempDir
    Path tmp;

    private record Run(JsonNode summary, String out, Path dir, Path truth) {}

    private Run run(String backend, String warmup, InetAddress stubAddress, boolean probe) throws Exception {
        return run(backend, warmup, stubAddress, probe, null);
    }

    /** A run against an in-process server, over TLS with that resumption when {@code tlsResumption} is not null. */
    private Run run(String backend, String warmup, InetAddress stubAddress, boolean probe, Boolean tlsResumption)
            throws Exception {
        Path dir = tmp.resolve(backend + "-" + warmup + (tlsResumption == null ? "" : "-tls-" + tlsResumption));
        Path truth = dir.resolve("truth");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        try (RubisServer server = tlsResumption == null
                ? FaultyServer.start(RubisServer.Model.EVENT, "", truth)
                : tlsServer(tlsResumption, truth)) {
            String scheme = tlsResumption == null ? "http" : "https";
            Map<String, String> p = new HashMap<>(Map.of(
                    "client_target",
                    scheme + "://127.0.0.1:" + server.port(),
                    "client_backend",
                    backend,
                    "workload_number_of_clients_per_node",
                    "4",
                    "workload_up_ramp_time_in_ms",
                    "0",
                    "workload_down_ramp_time_in_ms",
                    "0",
                    "workload_session_run_time_in_ms",
                    "1500",
                    "workload_think_scale",
                    "0.005",
                    "client_progress",
                    "no",
                    "client_seed",
                    "7"));
            p.put("client_jit_warmup", warmup);
            if (tlsResumption != null) {
                p.put("client_tls_resumption", tlsResumption ? "yes" : "no");
            }
            RunSeams seams = stubAddress == null ? RunSeams.NONE : new RunSeams(-1, stubAddress, 0, 0);
            RunEngine engine = new RunEngine(ConfigLoader.load((Path) null, p), ShardPlan.SINGLE, dir, out, seams);
            if (probe) {
                engine.observe(new ReferenceProbe(20, false, out));
            }
            JsonNode s = engine.run().json();
            return new Run(s, bytes.toString(StandardCharsets.UTF_8), dir, truth);
        }
    }

    /** The embedded event server with the packaged loopback key, as {@code run --tls} starts it (here in this JVM). */
    private static RubisServer tlsServer(boolean resumption, Path truth) throws Exception {
        return FaultyServer.start(RubisServer.Model.EVENT, "", truth, Tls.load(null, null, resumption));
    }

    private static List<String[]> rows(Path csv) throws Exception {
        return Files.readAllLines(csv).stream()
                .skip(1)
                .map(l -> l.split(",", -1))
                .toList();
    }

    @Test
    @ResourceLock(value = STUBS, mode = ResourceAccessMode.READ_WRITE)
    void theTargetSeesNoWarmupRequestOrConnection() throws Exception {
        int stubs = JitWarmup.stubsStarted();
        Run r = run("netty", "400", null, true);
        JsonNode w = r.summary().get("jit_warmup");
        assertEquals("complete", r.summary().get("status").asText(), r.out());
        assertEquals("count", w.get("status").asText(), w.toString());
        assertTrue(w.get("requests").asLong() >= 400, w.toString());
        assertTrue(w.get("other_requests").get("reference_probe").asLong() > 0, "the probe's path is warmed too: " + w);
        assertEquals(stubs + 1, JitWarmup.stubsStarted(), "one stub");
        assertTrue(r.out().contains("JIT warm-up: " + w.get("requests").asLong() + " requests in "), r.out());
        assertTrue(Files.readString(r.dir().resolve("summary.txt")).contains("JIT warm-up (400)"));

        // The server's own log: every request it served is one of the run's or the probe's.
        List<String[]> server = rows(r.truth().resolve("requests.csv"));
        long client = rows(r.dir().resolve("requests.csv")).size();
        long probe = rows(r.dir().resolve("probe.csv")).size();
        assertTrue(client > 0, "requests: " + client);
        assertEquals(client + probe, server.size(), "server requests = run + probe, no warm-up request");
        // Its connection accounting: one connection per netty session, the probe's counted apart.
        Set<String> probeConns =
                rows(r.dir().resolve("probe.csv")).stream().map(f -> f[1]).collect(Collectors.toSet());
        JsonNode stats =
                new ObjectMapper().readTree(r.truth().resolve("stats.json").toFile());
        assertEquals(
                r.summary().get("sessions_started").asLong(),
                stats.get("connections_accepted").asLong(),
                "connections = sessions, the probe's apart: " + stats);
        assertEquals(probeConns.size(), stats.get("probe_connections").asLong(), stats.toString());
        assertEquals(client, stats.get("requests").asLong(), "the users' requests: " + stats);
        assertEquals(probe, stats.get("probe_requests").asLong(), "the probe's, apart: " + stats);
    }

    /**
     * An HTTPS target: the warm-up runs over TLS against its stub, which counts its own handshakes
     * (full ones, and resumed ones when resumption is on), while the target's accounting (requests,
     * connections, full and resumed handshakes) holds the run's connections only.
     */
    @ParameterizedTest(name = "resumption {0}")
    @ValueSource(booleans = {true, false})
    @ResourceLock(value = STUBS, mode = ResourceAccessMode.READ)
    void anHttpsTargetIsWarmedOverTlsAgainstTheStubOnly(boolean resumption) throws Exception {
        Run r = run("netty", "400", null, false, resumption);
        String what = "resumption " + resumption + ": ";
        JsonNode w = r.summary().get("jit_warmup");
        assertEquals("complete", r.summary().get("status").asText(), r.out());
        assertEquals("count", w.get("status").asText(), what + w);
        assertTrue(w.get("requests").asLong() >= 400, what + w);
        assertEquals(0, w.get("errors").asLong(), what + w);
        JsonNode h = w.get("tls");
        assertTrue(h != null && h.get("full_handshakes").asLong() > 0, what + "the stub made full handshakes: " + w);
        if (resumption) {
            assertTrue(h.get("resumed_handshakes").asLong() > 0, what + "and resumed ones: " + w);
        } else {
            assertEquals(0, h.get("resumed_handshakes").asLong(), what + w);
        }
        assertTrue(
                r.out()
                        .contains("JIT warm-up: " + w.get("requests").asLong() + " requests over TLS ("
                                + h.get("full_handshakes").asLong() + " full + "),
                r.out());
        assertTrue(Files.readString(r.dir().resolve("summary.txt")).contains(" over TLS ("), what + "summary.txt");

        // The target's own accounting: the run's requests and connections (one per netty session), no warm-up one.
        long client = rows(r.dir().resolve("requests.csv")).size();
        assertTrue(client > 0, "requests: " + client);
        assertEquals(client, rows(r.truth().resolve("requests.csv")).size(), what + "server requests = the run's");
        JsonNode stats =
                new ObjectMapper().readTree(r.truth().resolve("stats.json").toFile());
        long sessions = r.summary().get("sessions_started").asLong();
        assertEquals(sessions, stats.get("connections_accepted").asLong(), what + "connections = sessions: " + stats);
        assertEquals(
                sessions,
                stats.get("tls_full_handshakes").asLong()
                        + stats.get("tls_resumed_handshakes").asLong(),
                what + "one handshake per run connection: " + stats);
        if (!resumption) {
            assertEquals(0, stats.get("tls_resumed_handshakes").asLong(), what + stats);
        }
    }

    @Test
    @ResourceLock(value = STUBS, mode = ResourceAccessMode.READ_WRITE)
    void offStartsNoStubAndRecordsZero() throws Exception {
        int stubs = JitWarmup.stubsStarted();
        Run r = run("pooled", "off", null, false);
        JsonNode w = r.summary().get("jit_warmup");
        assertEquals("off", w.get("status").asText(), w.toString());
        assertEquals(0, w.get("requests").asLong());
        assertEquals(stubs, JitWarmup.stubsStarted(), "no stub started");
        assertTrue(r.out().contains("JIT warm-up: off"), r.out());
        assertEquals("complete", r.summary().get("status").asText());
    }

    @Test
    @ResourceLock(value = STUBS, mode = ResourceAccessMode.READ)
    void aStubThatCannotBindSkipsTheWarmupNotTheRun() throws Exception {
        // 192.0.2.1 (TEST-NET-1) is no address of this host: binding fails.
        Run r = run("legacy", "auto", InetAddress.getByName("192.0.2.1"), false);
        JsonNode w = r.summary().get("jit_warmup");
        assertEquals("skipped", w.get("status").asText(), w.toString());
        assertTrue(w.get("reason").asText().startsWith("the loopback stub could not start"), w.toString());
        assertTrue(r.out().contains("warning: JIT warm-up skipped: the loopback stub could not start"), r.out());
        assertEquals(
                "complete",
                r.summary().get("status").asText(),
                r.summary().get("stop_reason").asText());
        assertTrue(
                r.summary().get("requests").asLong() > 0,
                "the run sent requests: " + r.summary().get("requests"));
        assertTrue(Files.readString(r.dir().resolve("summary.txt"))
                .contains("skipped: the loopback stub could not start"));
    }
}
