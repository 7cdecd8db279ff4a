package org.rubis.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * rubis-analysis merge on a real run directory (the client's own log format and the embedded
 * server's logs), made a one-shard run by adding the summary fields of docs/SHARDING.md: the
 * merged run keeps every request, its recomputed summary agrees with the client's, and report and
 * compare read it, the client-vs-server join included. (The client cannot write shards yet.)
 */
class MergeTest {

    @TempDir
    Path work;

    @Test
    void aRealRunMergedAsOneShardKeepsItsFiguresAndItsServerJoin() throws Exception {
        // The shared closed run, copied: its summary is rewritten below.
        Path real = SharedRuns.copy(SharedRuns.closed().dir(), work.resolve("real"));
        ObjectMapper json = new ObjectMapper();
        ObjectNode s = (ObjectNode) json.readTree(real.resolve("summary.json").toFile());
        Instant started = Instant.parse(s.get("started_at").asText());
        long anchor = started.getEpochSecond() * 1_000_000_000L + started.getNano();
        s.put("config_sha256", "0".repeat(64));
        s.putObject("shard")
                .put("index", 0)
                .put("count", 1)
                .put("start_at", started.toString())
                .put("start_at_epoch_ns", anchor);
        s.putObject("clock").put("anchor_epoch_ns", anchor).put("run_start_epoch_ns", anchor);
        Files.writeString(real.resolve("summary.json"), json.writeValueAsString(s));

        Cli.Result m = Cli.analysis(work, "merge", real.toString(), "--out", "merged");
        assertEquals(0, m.status(), m.out() + m.err());
        Path merged = work.resolve("merged");
        JsonNode ms = json.readTree(merged.resolve("summary.json").toFile());
        long requests = new RunDir(real).csv("requests.csv").size();
        assertEquals(requests, new RunDir(merged).csv("requests.csv").size());
        for (String k : List.of(
                "requests",
                "errors",
                "sessions_started",
                "sessions_completed",
                "sessions_aborted_at_end",
                "connections_opened",
                "distinct_connections")) {
            assertEquals(
                    s.get(k).asLong(), ms.get(k).asLong(), k + ": recomputed from the log = the client's own count");
        }
        JsonNode mine = ms.get("response_time_ms").get("run");
        JsonNode client = s.get("response_time_ms").get("run");
        assertEquals(client.get("count").asLong(), mine.get("count").asLong());
        for (String p : List.of("mean", "min", "max", "p50", "p90", "p99")) {
            double c = client.get(p).asDouble();
            // Both from HdrHistogram with 3 significant digits, rounded to the microsecond.
            assertEquals(c, mine.get(p).asDouble(), c * 0.002 + 0.002, p);
        }
        assertTrue(Files.isRegularFile(merged.resolve("server/requests.csv")), "the embedded server's logs are kept");

        Cli.Result r = Cli.analysis(work, "report", merged.toString());
        assertEquals(0, r.status(), r.err());
        JsonNode a = new RunDir(merged).json("analysis.json");
        assertEquals(
                requests,
                a.get("client_vs_server").get("matched").asLong(),
                "every request joined with the server's record");
        assertEquals(0, a.get("client_vs_server").get("path_mismatches").asLong());
        Cli.Result c =
                Cli.analysis(work, "compare", merged.toString(), real.toString(), "--out", "cmp/comparison.html");
        assertEquals(0, c.status(), c.err());
        JsonNode cmp = new RunDir(work.resolve("cmp")).json("comparison.json");
        assertEquals(1.0, cmp.get("runs").get(1).get("mean_ratio").asDouble(), 1e-9, "the merged run is the run");
    }
}
