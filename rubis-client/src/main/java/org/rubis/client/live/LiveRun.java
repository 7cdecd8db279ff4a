package org.rubis.client.live;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Labels;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import org.rubis.client.engine.RunClock;
import org.rubis.client.engine.RunObserver;
import org.rubis.client.log.RecordTap;
import org.rubis.client.report.HealthSample;
import org.rubis.client.report.IntervalPoint;
import org.rubis.client.report.RunPhaseTotals;
import org.rubis.client.report.RunStats;
import org.rubis.client.report.SummarySection;
import org.rubis.format.run.RunFiles;
import org.rubis.format.run.RunStatus;

/**
 * One run watched live: its Prometheus metrics ({@link LiveMetrics}, fed off the timing path) and its intervals for the
 * live page, from the run's interval snapshots, one a second; at the end the run's status and summary. Registered as a
 * run observer; what it serves goes through {@link LiveEndpoint}.
 */
public final class LiveRun implements RunObserver, LiveFeed {

    /** Intervals kept for the page: the last two hours (a page opened later sees those). */
    static final int MAX_POINTS = 7200;

    private final String runId;
    private final String shard;
    private final boolean capture;
    private final LiveMetrics metrics;
    private final ObjectMapper json = new ObjectMapper();
    private final Deque<Kept> points = new ArrayDeque<>();
    private RunStats intervals;
    private volatile RunClock clock;
    private volatile OpenConnections connections;
    private volatile WireFigures wire;
    private volatile String phase = "starting";
    private volatile String status = LiveMetrics.RUNNING;
    private volatile String summary;
    private volatile double summaryRunSeconds = -1;
    private long requests;
    private long errors;
    private long nextSeq;

    /**
     * An interval as the feed gives it: its figures, its client minus wire, and the connections: open at its end (-1:
     * unknown), opened in it, and the run's requests per connection opened so far.
     */
    private record Kept(IntervalPoint point, WireFigures.Groups wire, long open, long opened, double perConnection) {}

    /** Connections opened up to the last interval kept. */
    private long openedBefore;

    /**
     * @param runId   the run's id (the label {@code run} of every metric)
     * @param shard   the shard's index in a sharded run, else null
     * @param capture whether the run captures its packets (its client minus wire is shown)
     */
    public LiveRun(String runId, Integer shard, boolean capture) {
        this.runId = runId;
        this.shard = shard == null ? null : String.valueOf(shard);
        this.capture = capture;
        this.metrics = new LiveMetrics(
                shard == null ? Labels.of("run", runId) : Labels.of("run", runId, "shard", this.shard), capture);
    }

    /** What the run is, for {@code rubis_run_info}. */
    public LiveRun describe(String backend, String execution, String arrivals) {
        metrics.info(backend, execution, arrivals);
        return this;
    }

    PrometheusRegistry registry() {
        return metrics.registry();
    }

    // ---- the run's hooks

    @Override
    public void clock(RunClock c) {
        clock = c;
    }

    @Override
    public void beforeRun(String baseUrl, Path runDir) {
        URI u = URI.create(baseUrl);
        connections = new OpenConnections(u.getPort() >= 0 ? u.getPort() : "https".equals(u.getScheme()) ? 443 : 80);
    }

    @Override
    public RecordTap recordTap() {
        return metrics;
    }

    @Override
    public synchronized void intervals(RunStats s) {
        intervals = s;
        metrics.stats(s);
        s.encodeHistograms(shard != null); // a shard's page is summed by its coordinator
    }

    @Override
    public void healthSample(HealthSample sample) {
        IntervalPoint p = intervals == null ? null : intervals.latest();
        OpenConnections c = connections;
        metrics.second(sample, p, c == null ? -1 : c.count());
        RunClock k = clock;
        if (k != null) {
            long now = System.nanoTime();
            phase(
                    now < k.startNano()
                            ? "starting"
                            : now >= k.endNano() ? "draining" : k.phase(now).label());
        }
        keep(p);
    }

    @Override
    public void afterRun(Path runDir) {
        phase("draining");
    }

    /** After the logs closed: the last interval (every record in it) is the run's final state. */
    @Override
    public SummarySection summarySection(Path runDir) {
        keep(intervals == null ? null : intervals.latest());
        phase("ended");
        return null;
    }

    private void phase(String p) {
        phase = p;
        metrics.phase(p);
    }

    private synchronized void keep(IntervalPoint p) {
        if (p == null || p.seq() < nextSeq) {
            return;
        }
        nextSeq = p.seq() + 1;
        requests += p.requests();
        errors += p.errors();
        WireFigures w = wire;
        long opened = metrics.connectionsOpened();
        points.addLast(new Kept(
                p,
                w == null ? null : w.interval(),
                metrics.openConnections(),
                opened - openedBefore,
                opened == 0 ? Double.NaN : requests / (double) opened));
        openedBefore = opened;
        while (points.size() > MAX_POINTS) {
            points.removeFirst();
        }
    }

    /** The run's own error so far (the capture's live join). */
    public void wire(WireFigures w) {
        wire = w;
        metrics.wire(w);
    }

    /** The run has ended and written its summary: its status, and summary.json for the page. */
    public void finished(RunStatus s, Path runDir) {
        String text;
        try {
            text = Files.readString(RunFiles.summaryJson(runDir), StandardCharsets.UTF_8);
            summaryRunSeconds = json.readTree(text).path("run_seconds").asDouble(-1);
        } catch (IOException e) {
            text = null;
        }
        // The status and phase first: a page that sees the summary stops reading the feed, so the feed it read last
        // must already say how the run ended (a page once kept "running" beside the summary).
        status = s.label();
        metrics.status(s);
        phase("ended");
        summary = text;
    }

    /** summary.json once the run has written it, else null. */
    String summary() {
        return summary;
    }

    // ---- the feed

    @Override
    public synchronized String json(long from, boolean histograms) {
        ObjectNode o = json.createObjectNode();
        o.put("run", runId);
        if (shard != null) {
            o.put("shard", shard);
        }
        o.put("status", status);
        o.put("phase", phase);
        o.put("capture", capture);
        RunClock k = clock;
        if (k != null) {
            ObjectNode phases = o.putObject("phases");
            phases.put("up_end", FeedJson.r3((k.upEndNano() - k.startNano()) / 1e9));
            phases.put("run_end", FeedJson.r3((k.runEndNano() - k.startNano()) / 1e9));
            phases.put("end", FeedJson.r3((k.endNano() - k.startNano()) / 1e9));
            o.put("t", FeedJson.r3((System.nanoTime() - k.startNano()) / 1e9));
        }
        o.put("requests", requests);
        o.put("errors", errors);
        long first = points.isEmpty() ? nextSeq : points.getFirst().point().seq();
        o.put("first", first);
        o.put("next", nextSeq);
        ArrayNode list = o.putArray("points");
        for (Kept kept : points) {
            if (kept.point().seq() >= from) {
                ObjectNode po = list.addObject();
                FeedJson.point(po, kept.point(), kept.wire(), histograms);
                FeedJson.connections(po, kept.point(), kept.open(), kept.opened(), kept.perConnection());
            }
        }
        IntervalPoint last = points.isEmpty() ? null : points.getLast().point();
        RunPhaseTotals run = last == null ? RunPhaseTotals.NONE : last.run();
        ObjectNode rp = o.putObject("run_phase");
        FeedJson.runPhase(rp, run, runSeconds(k));
        if (histograms && last != null && last.encoded() != null) {
            ObjectNode h = rp.putObject("hist");
            h.put("run", last.encoded().run());
            h.put("min_ns", last.encoded().runMinNs());
            h.put("max_ns", last.encoded().runMaxNs());
            h.put("sum_ns", last.encoded().runSumNs());
        }
        WireFigures w = wire;
        if (w != null) {
            ObjectNode wo = o.putObject("wire");
            wo.put("complete", w.complete());
            wo.put("packets", w.packets());
            wo.put("kernel_drops", w.kernelDrops());
            wo.put("interface_drops", w.interfaceDrops());
            ObjectNode total = wo.putObject("total");
            FeedJson.diff(total.putObject("all"), w.total().all());
            FeedJson.diff(total.putObject("reused"), w.total().reused());
            FeedJson.diff(total.putObject("new"), w.total().fresh());
        }
        o.put("summary", summary != null);
        return o.toString();
    }

    /** The run phase's length so far: the summary's once written, else the clock's. */
    private double runSeconds(RunClock k) {
        if (summaryRunSeconds >= 0) {
            return summaryRunSeconds;
        }
        return k == null ? 0 : k.runSecondsUntil(System.nanoTime());
    }
}
