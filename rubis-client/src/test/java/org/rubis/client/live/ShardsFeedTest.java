package org.rubis.client.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.client.log.RequestRecord;
import org.rubis.client.report.GcTotals;
import org.rubis.client.report.HealthSample;
import org.rubis.client.report.RunStats;
import org.rubis.client.workload.Interaction;
import org.rubis.format.run.ErrorClass;
import org.rubis.format.run.Phase;
import org.rubis.format.run.RunFiles;
import org.rubis.format.run.RunStatus;
import org.rubis.format.stats.LatencyStats;

/**
 * The page of a sharded run sums its shards: two shards serve their feeds over HTTP, and the summed view's intervals
 * add up to every record logged, its run-phase figures to those of one set of statistics fed every shard's records
 * (counts, errors, percentiles from the merged histograms, to the nanosecond), and it ends with the merged summary.
 */
class ShardsFeedTest {

    @TempDir
    Path tmp;

    @Test
    void theShardsAreSummedByHistogramsNotByAveragingPercentiles() throws Exception {
        check(false);
    }

    /** A shard whose endpoint answers only after the other's seconds were read still has all its seconds summed. */
    @Test
    void aShardThatAnswersLateIsSummedFromItsFirstSecond() throws Exception {
        check(true);
    }

    private void check(boolean lateSecondShard) throws Exception {
        Random rnd = new Random(3);
        RunStats all = new RunStats();
        List<LiveEndpoint> endpoints = new ArrayList<>();
        List<String> bases = new ArrayList<>();
        long records = 0;
        long start = System.currentTimeMillis() * 1_000_000L;
        LiveEndpoint late = null;
        LiveRun lateRun = null;
        try {
            for (int shard = 0; shard < 2; shard++) {
                LiveEndpoint e = LiveEndpoint.bind("127.0.0.1", 0);
                endpoints.add(e);
                bases.add("http://127.0.0.1:" + e.port());
                LiveRun run = new LiveRun("sharded", shard, false);
                RunStats s = new RunStats();
                run.intervals(s);
                s.clock(start, start, Long.MAX_VALUE - 1, Long.MAX_VALUE);
                if (lateSecondShard && shard == 1) {
                    late = e;
                    lateRun = run;
                } else {
                    e.serve(run);
                }
                for (int interval = 0; interval < 4; interval++) {
                    int n = 50 + rnd.nextInt(200);
                    for (int i = 0; i < n; i++) {
                        // the second shard is slower: the median of the sum is no average of the medians
                        long ns = (long) ((shard + 1) * 1_000_000 * Math.exp(rnd.nextGaussian()));
                        boolean error = rnd.nextInt(30) == 0;
                        long t = start + 1_000_000_000L;
                        RequestRecord r = new RequestRecord(
                                1,
                                "u",
                                0,
                                Interaction.HOME,
                                "/x",
                                Phase.RUN,
                                t,
                                t,
                                ns / 2,
                                ns,
                                10,
                                error ? 0 : 200,
                                error ? ErrorClass.RESET : null,
                                false,
                                "c",
                                false,
                                "netty",
                                0,
                                0,
                                0,
                                0,
                                "",
                                null);
                        s.accept(r);
                        all.accept(r);
                        records++;
                    }
                    s.roll(null, 1);
                    run.healthSample(new HealthSample(1, 0.5, 1, 1, 2, 3, 4, 5, GcTotals.now()));
                }
                Path dir = Files.createDirectories(tmp.resolve("shard-" + shard));
                Files.writeString(RunFiles.summaryJson(dir), "{\"status\": \"complete\", \"run_seconds\": 4.0}");
                run.finished(RunStatus.COMPLETE, dir);
            }
            Files.writeString(RunFiles.summaryJson(tmp), "{\"status\": \"complete\", \"merged\": true}");
            try (ShardsFeed feed = new ShardsFeed("sharded", bases)) {
                ObjectMapper json = new ObjectMapper();
                long deadline = System.nanoTime() + 20_000_000_000L;
                JsonNode f = json.readTree(feed.json(0, false));
                if (late != null) {
                    // the first shard read (its phase shown) while the second does not answer yet; then it does
                    while (f.path("phase").asText().equals("starting") && System.nanoTime() < deadline) {
                        Thread.sleep(100);
                        f = json.readTree(feed.json(0, false));
                    }
                    late.serve(lateRun);
                }
                while (f.path("run_phase").path("requests").asLong() < records && System.nanoTime() < deadline) {
                    Thread.sleep(200);
                    f = json.readTree(feed.json(0, false));
                }
                feed.finished(RunStatus.COMPLETE, tmp);
                f = json.readTree(feed.json(0, false));
                LatencyStats run = all.totals().phaseTotal(Phase.RUN);
                JsonNode rp = f.path("run_phase");
                assertEquals(run.count(), rp.path("requests").asLong());
                assertEquals(run.errors(), rp.path("errors").asLong());
                assertEquals(
                        Math.round(run.percentileMs(50) * 1000) / 1000.0,
                        rp.path("p50").asDouble(),
                        0);
                assertEquals(
                        Math.round(run.percentileMs(99) * 1000) / 1000.0,
                        rp.path("p99").asDouble(),
                        0);
                long summed = 0;
                long errors = 0;
                for (JsonNode p : f.path("points")) {
                    summed += p.path("requests").asLong();
                    errors += p.path("errors").asLong();
                }
                assertEquals(records, summed, "the summed intervals hold every record of both shards");
                assertEquals(run.errors(), errors);
                assertEquals(2, f.path("shards").asInt());
                assertEquals("complete", f.path("status").asText());
                assertEquals("ended", f.path("phase").asText());
                assertTrue(f.path("summary").asBoolean());
                assertTrue(feed.summary().contains("merged"));
            }
        } finally {
            endpoints.forEach(LiveEndpoint::close);
        }
    }
}
