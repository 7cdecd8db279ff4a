package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The verdict names the right cause in real runs against the embedded server: a client slowed on
 * purpose (the rubis.test.client_stall_ms hook holds every user thread 1 s before each send) is
 * the CLIENT's fault, and so is its coordinated omission, which the response time from the
 * intended send shows; CPU-burning processes beside an idle client are the HOST's.
 */
@Isolated("the verdict judges the host's load: no other test may run beside it")
class VerdictRunTest {

    @TempDir
    static Path work;

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * A 3 s run of 10 users into {@code out}: against {@code target}, or against an embedded server of its own when
     * {@code target} is null (the verdict counts the embedded server's CPU as the server's, any other as the host's).
     */
    private static List<String> args(String out, String target) {
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--users",
                "10",
                "--ramp-up",
                "0",
                "--duration",
                "3s",
                "--ramp-down",
                "0",
                "--think-scale",
                "0.03",
                "--seed",
                "7",
                "--out",
                out,
                "--no-progress"));
        if (target == null) {
            args.addAll(List.of("-Dserver_size=0.02", "-Dserver_java_options=-Xmx512m"));
        } else {
            args.addAll(List.of("--target", target));
        }
        return args;
    }

    private static JsonNode run(String out, String target, List<String> jvmOptions) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Cli.java()));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-jar", Cli.clientJar().toString()));
        cmd.addAll(args(out, target));
        Path log = work.resolve(out + ".log");
        Process p = new ProcessBuilder(cmd)
                .directory(work.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (!p.waitFor(150, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("run did not finish: " + Files.readString(log));
        }
        assertEquals(0, p.exitValue(), Files.readString(log));
        return JSON.readTree(work.resolve(out).resolve("summary.json").toFile());
    }

    private static List<String> causes(JsonNode summary) {
        List<String> c = new ArrayList<>();
        summary.path("client_health").path("causes").forEach(x -> c.add(x.asText()));
        return c;
    }

    @Test
    void aClientSlowedOnPurposeIsBlamedAndItsWaitShowsFromTheIntendedSend() throws Exception {
        // The verdict reads only the client's own files here: the shared server saves a server JVM.
        JsonNode s = run("stalled", SharedServer.target(), List.of("-Drubis.test.client_stall_ms=1000"));
        JsonNode h = s.path("client_health");
        assertTrue(causes(s).contains("CLIENT"), h.path("verdict").asText());
        assertTrue(
                h.path("verdict").asText().contains("CLIENT: "),
                h.path("verdict").asText());
        assertTrue(
                h.path("verdict").asText().contains("Accuracy not measured"),
                h.path("verdict").asText());
        // Every request waited >= 1 s before its send: the service time does not show it, the time from the schedule
        // does.
        double fromIntendedP50 =
                s.path("response_time_from_intended_ms").path("run").path("p50").asDouble();
        double serviceP50 = s.path("response_time_ms").path("run").path("p50").asDouble();
        assertTrue(fromIntendedP50 >= 1000 + serviceP50 * 0.5, fromIntendedP50 + " vs service " + serviceP50);
        String text = Files.readString(work.resolve("stalled/summary.txt"), StandardCharsets.UTF_8);
        assertTrue(text.contains("Response time from the intended send instant"), text);
    }

    @Test
    void cpuBurningProcessesBesideTheClientAreBlamedOnTheHost() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/stat")), "needs Linux /proc");
        int cores = Runtime.getRuntime().availableProcessors();
        List<Process> burners = new ArrayList<>();
        JsonNode s;
        try {
            // Half the cores (at least one): twice the verdict's threshold (a quarter of the cores), not the whole
            // machine.
            for (int i = 0; i < Math.max(1, cores / 2); i++) {
                // bounded: each ends by itself after 90 s even if this test is killed
                burners.add(new ProcessBuilder(
                                "sh", "-c", "end=$(($(date +%s)+90)); while [ $(date +%s) -lt $end ]; do :; done")
                        .start());
            }
            s = run("busy-host", null, List.of());
        } finally {
            for (Process p : burners) {
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
            }
        }
        JsonNode h = s.path("client_health");
        assertTrue(causes(s).contains("HOST"), h.path("verdict").asText());
        assertTrue(
                h.path("verdict").asText().contains("HOST: other processes used"),
                h.path("verdict").asText());
        assertTrue(h.path("host_other_cpu_cores").asDouble() >= 0.25 * cores, h.toString());
        List<String> health = Files.readAllLines(work.resolve("busy-host/client-health.csv"));
        assertTrue(health.get(0).contains("host_other_cpu_cores"), health.get(0));
    }

    @Test
    void httpClientsStaleCheckIsMeasuredOnTheWireAndBlamedOnTheClientNotTheHost() throws Exception {
        // The stale check reads up to 1 ms before each reused connection's request, inside the response time: with the
        // capture and the reference probe in the run, the client is further from the wire than the probe, by that read.
        List<String> cmd =
                new ArrayList<>(List.of(Cli.java(), "-jar", Cli.clientJar().toString()));
        cmd.addAll(args("stale-check", null));
        cmd.addAll(List.of("--backend", "dedicated", "--capture", "--probe", "-Dclient_http_stale_check_ms=1"));
        Path log = work.resolve("stale-check.log");
        Process p = new ProcessBuilder(cmd)
                .directory(work.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (!p.waitFor(150, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("run did not finish: " + Files.readString(log));
        }
        assertEquals(0, p.exitValue(), Files.readString(log));
        JsonNode s = JSON.readTree(work.resolve("stale-check/summary.json").toFile());
        JsonNode w = s.path("wire_check");
        Assumptions.assumeFalse(
                w.path("status").asText().equals("not run"),
                "packet capture unavailable here: " + w.path("reason").asText());
        JsonNode acc = w.path("accuracy");
        String verdict = s.path("client_health").path("verdict").asText();
        assertTrue(
                acc.path("above_floor_mean_us").asDouble()
                        > acc.path("limit_us").asDouble(),
                acc.toString());
        assertTrue(causes(s).contains("CLIENT"), verdict);
        assertTrue(
                verdict.contains("above the wire, over the limit") && verdict.contains("the reference probe"), verdict);
        assertTrue(!verdict.contains("its floor: the run's times are INACCURATE"), verdict);
    }
}
