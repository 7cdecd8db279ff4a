package org.rubis.client.live;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
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
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.rubis.client.report.IntervalPoint;
import org.rubis.client.report.RunPhaseTotals;
import org.rubis.format.run.RunFiles;
import org.rubis.format.run.RunStatus;
import org.rubis.format.stats.Percentiles;

/**
 * The live page of {@code run --shards N}: the shards summed. Once a second it reads every shard's feed (each shard
 * serves its own endpoint and metrics) with their interval histograms, and adds up the intervals of the same second of
 * the run (the shards share the start instant): counts and rates summed, percentiles from the merged histograms, the
 * run phase's figures from the merged run-phase histograms (at the end, the merged run's). At the end it serves the
 * merged summary.
 */
public final class ShardsFeed implements LiveFeed, AutoCloseable {

    private static final long POLL_MS = 1000;
    private final String runId;
    private final List<Shard> shards = new ArrayList<>();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private final ObjectMapper json = new ObjectMapper();
    private final Thread poller;
    /** The summed intervals by second of the run, once every shard has passed that second. */
    private final TreeMap<Long, ObjectNode> merged = new TreeMap<>();

    private volatile boolean running = true;
    private volatile String status = LiveMetrics.RUNNING;
    private volatile String summary;

    /** What was read from one shard. */
    private static final class Shard {
        final URI feed;
        long next;
        boolean seen;
        boolean ended;
        JsonNode last;
        final TreeMap<Long, List<FeedJson.Read>> bySecond = new TreeMap<>();

        Shard(URI feed) {
            this.feed = feed;
        }

        long lastSecond() {
            return bySecond.isEmpty() ? -1 : bySecond.lastKey();
        }
    }

    /**
     * @param runId the run's id
     * @param bases each shard's endpoint, e.g. {@code http://127.0.0.1:9401}
     */
    public ShardsFeed(String runId, List<String> bases) {
        this.runId = runId;
        for (String b : bases) {
            shards.add(new Shard(URI.create(b + "/live.json")));
        }
        poller = new Thread(this::poll, "live-shards");
        poller.setDaemon(true);
        poller.start();
    }

    private void poll() {
        while (running) {
            for (Shard s : shards) {
                read(s);
            }
            synchronized (this) {
                try {
                    mergeReady(false);
                } catch (RuntimeException e) {
                    // the page must not stop the run: it shows what was summed so far
                    System.err.println("warning: the live view could not sum the shards' last second: " + e);
                }
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void read(Shard s) {
        if (s.ended) {
            return;
        }
        try {
            HttpRequest req = HttpRequest.newBuilder(URI.create(s.feed + "?hist=1&from=" + s.next))
                    .timeout(Duration.ofSeconds(2))
                    .GET()
                    .build();
            HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            if (r.statusCode() != 200) {
                return;
            }
            JsonNode n = json.readTree(r.body());
            synchronized (this) {
                s.seen = true;
                s.last = n;
                for (JsonNode p : n.path("points")) {
                    FeedJson.Read read = FeedJson.read(p);
                    s.bySecond
                            .computeIfAbsent(Math.round(read.t()), k -> new ArrayList<>())
                            .add(read);
                }
                s.next = n.path("next").asLong(s.next);
                s.ended = "ended".equals(n.path("phase").asText())
                        && !n.path("status").asText().equals(LiveMetrics.RUNNING);
            }
        } catch (IOException | RuntimeException e) {
            // not up yet, or gone: read again next second
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    /**
     * Sums the seconds every shard has passed, or at the end ({@code toTheEnd}) every second left. A shard that has not
     * answered yet holds every second back (summed without it, its first seconds would be missing from the sum for
     * good); one that ended holds nothing back.
     */
    private void mergeReady(boolean toTheEnd) {
        long upTo = Long.MAX_VALUE;
        if (!toTheEnd) {
            for (Shard s : shards) {
                if (!s.ended) {
                    upTo = Math.min(upTo, s.seen ? s.lastSecond() - 1 : Long.MIN_VALUE);
                }
            }
        }
        long from = merged.isEmpty() ? Long.MIN_VALUE : merged.lastKey() + 1;
        if (from > upTo) {
            return;
        }
        TreeMap<Long, List<FeedJson.Read>> all = new TreeMap<>();
        for (Shard s : shards) {
            s.bySecond
                    .subMap(from, true, upTo, true)
                    .forEach((k, v) ->
                            all.computeIfAbsent(k, x -> new ArrayList<>()).addAll(v));
        }
        all.forEach((second, reads) -> merged.put(second, sum(second, reads)));
        while (merged.size() > LiveRun.MAX_POINTS) {
            merged.pollFirstEntry();
        }
    }

    private ObjectNode sum(long second, List<FeedJson.Read> reads) {
        Histogram response = Percentiles.newHistogram();
        Histogram lateness = Percentiles.newHistogram();
        long requests = 0;
        long errors = 0;
        long active = 0;
        long started = 0;
        double rps = 0;
        double cpu = 0;
        double heap = 0;
        double gc = 0;
        Map<String, Long> byClass = new TreeMap<>();
        String phase = null;
        for (FeedJson.Read r : reads) {
            requests += r.requests();
            errors += r.errors();
            active += r.active();
            started += r.started();
            rps += r.seconds() <= 0 ? 0 : r.requests() / r.seconds();
            cpu += r.cpu();
            heap += r.heapMb();
            gc += r.gcMs();
            r.errorsByClass().forEach((k, v) -> byClass.merge(k, v, Long::sum));
            if (r.response() != null) {
                response.add(IntervalPoint.decoded(r.response()));
            }
            if (r.lateness() != null) {
                lateness.add(IntervalPoint.decoded(r.lateness()));
            }
            phase = r.phase() == null ? "draining" : r.phase().label();
        }
        ObjectNode o = json.createObjectNode();
        o.put("seq", second);
        o.put("t", second);
        o.put("s", 1.0);
        o.put("phase", phase);
        o.put("requests", requests);
        o.put("rps", FeedJson.r3(rps));
        o.put("errors", errors);
        ObjectNode bc = o.putObject("errors_by_class");
        byClass.forEach(bc::put);
        o.put("p50", ms(response, 50));
        o.put("p90", ms(response, 90));
        o.put("p99", ms(response, 99));
        o.put("max", response.getTotalCount() == 0 ? 0 : FeedJson.r3(response.getMaxValue() / 1e6));
        o.put("late_p99", ms(lateness, 99));
        o.put("late_max", lateness.getTotalCount() == 0 ? 0 : FeedJson.r3(lateness.getMaxValue() / 1e6));
        o.put("active", active);
        o.put("started", started);
        o.put("cpu", FeedJson.r3(cpu));
        o.put("heap_mb", FeedJson.r3(heap));
        o.put("gc_ms", FeedJson.r3(gc));
        o.put("shards", reads.size());
        return o;
    }

    private static double ms(Histogram h, double p) {
        return h.getTotalCount() == 0 ? 0 : FeedJson.r3(h.getValueAtPercentile(p) / 1e6);
    }

    /** The run phase so far, from every shard's latest run-phase histogram. */
    private RunPhaseTotals runPhase() {
        Histogram h = Percentiles.newHistogram();
        long errors = 0;
        long min = Long.MAX_VALUE;
        long max = 0;
        long sum = 0;
        for (Shard s : shards) {
            JsonNode rp = s.last == null ? null : s.last.path("run_phase");
            if (rp == null || !rp.path("hist").has("run")) {
                continue;
            }
            h.add(IntervalPoint.decoded(rp.path("hist").path("run").asText()));
            errors += rp.path("errors").asLong();
            min = Math.min(min, rp.path("hist").path("min_ns").asLong(Long.MAX_VALUE));
            max = Math.max(max, rp.path("hist").path("max_ns").asLong());
            sum += rp.path("hist").path("sum_ns").asLong();
        }
        return RunPhaseTotals.of(h, errors, min, max, sum);
    }

    @Override
    public synchronized String json(long from, boolean histograms) {
        ObjectNode o = json.createObjectNode();
        o.put("run", runId);
        o.put("shards", shards.size());
        o.put("status", status);
        JsonNode first = shards.stream()
                .map(s -> s.last)
                .filter(n -> n != null)
                .findFirst()
                .orElse(null);
        boolean allEnded = shards.stream().allMatch(s -> s.ended);
        o.put(
                "phase",
                summary != null || allEnded
                        ? "ended"
                        : first == null ? "starting" : first.path("phase").asText());
        o.put("capture", false);
        if (first != null && first.has("phases")) {
            o.set("phases", first.path("phases"));
            o.put("t", first.path("t").asDouble());
        }
        long requests = 0;
        long errors = 0;
        double seconds = 0;
        for (Shard s : shards) {
            if (s.last != null) {
                requests += s.last.path("requests").asLong();
                errors += s.last.path("errors").asLong();
                seconds = Math.max(
                        seconds, s.last.path("run_phase").path("seconds").asDouble());
            }
        }
        o.put("requests", requests);
        o.put("errors", errors);
        o.put("first", merged.isEmpty() ? 0 : merged.firstKey());
        o.put("next", merged.isEmpty() ? 0 : merged.lastKey() + 1);
        ArrayNode list = o.putArray("points");
        merged.tailMap(from, true).values().forEach(list::add);
        FeedJson.runPhase(o.putObject("run_phase"), runPhase(), seconds);
        o.put("summary", summary != null);
        return o.toString();
    }

    /** The merged run's summary once written (null before). */
    String summary() {
        return summary;
    }

    /** The shards are merged: their status and summary. */
    public void finished(RunStatus s, Path runDir) {
        synchronized (this) {
            for (Shard sh : shards) {
                read(sh); // the shards' last state, if they still answer
            }
            mergeReady(true);
        }
        try {
            summary = Files.readString(RunFiles.summaryJson(runDir), StandardCharsets.UTF_8);
        } catch (IOException e) {
            summary = null;
        }
        status = s.label();
    }

    /** The shards ended without a merged run. */
    public void failed(int exitStatus) {
        status = exitStatus == 0 ? RunStatus.COMPLETE.label() : RunStatus.FAILED.label();
    }

    @Override
    public void close() {
        running = false;
        poller.interrupt();
    }
}
