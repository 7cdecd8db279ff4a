package org.rubis.client.live;

import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.core.metrics.Info;
import io.prometheus.metrics.core.metrics.StateSet;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.List;
import java.util.function.Consumer;
import org.rubis.client.log.RecordTap;
import org.rubis.client.log.RequestRecord;
import org.rubis.client.report.HealthSample;
import org.rubis.client.report.IntervalPoint;
import org.rubis.client.report.RunStats;
import org.rubis.client.report.RunTotals;
import org.rubis.format.run.Phase;
import org.rubis.format.run.RunStatus;

/**
 * The run's metrics for Prometheus (docs/LIVE.md lists them), with the official client: the counts of requests,
 * sessions and connections read at scrape time from the run's statistics ({@link RunStats}: the summary's own totals),
 * the histograms fed by the log writer's thread as it takes each record (a {@link RecordTap}, never between a
 * request's marks: Prometheus' buckets are its own), the rest read at scrape time from the latest second the
 * client-health sampler took. Every metric carries the run's id and, in a sharded run, the shard as labels.
 */
final class LiveMetrics implements RecordTap {

    /** Classic buckets from 100 us to 10 s (1, 2.5, 5 per decade), beside the native histogram's exponential ones. */
    static final double[] BUCKETS = {
        0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
    };
    /** The run's phases as rubis_run_phase states: before the clock, the three phases, the drain, the end. */
    static final List<String> RUN_PHASES = List.of("starting", "up", "run", "down", "draining", "ended");

    static final String RUNNING = "running";

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Histogram responseTime;
    private final Histogram lateness;
    private final StateSet phase;
    private final StateSet status;
    private final Info info;
    // Data points looked up once (the writer thread only): no label lookup per record.
    private final DistributionDataPoint[] responseByPhase = new DistributionDataPoint[Phase.values().length];
    private final DistributionDataPoint[] latenessByPhase = new DistributionDataPoint[Phase.values().length];
    /** The run's statistics, given when its logs open. */
    private volatile RunStats stats;

    private volatile HealthSample health;
    private volatile IntervalPoint point;
    /** The run has written its summary: every session has ended, whatever the last second's sample said. */
    private volatile boolean ended;

    private volatile long openConnections = -1;
    private volatile WireFigures wire;

    /**
     * @param constant the labels of every metric: the run's id, and the shard in a sharded run
     * @param capture  whether the run captures its packets (the capture's and the wire's metrics are registered)
     */
    LiveMetrics(Labels constant, boolean capture) {
        CounterWithCallback.builder()
                .name("rubis_requests_total")
                .constLabels(constant)
                .help("Requests logged, by interaction (state), run phase and outcome (success or the error class)")
                .labelNames("state", "phase", "outcome")
                .callback(cb ->
                        totals(t -> t.requests((p, s, outcome, n) -> cb.call(n, s.label(), p.label(), outcome))))
                .register(registry);
        responseTime = Histogram.builder()
                .name("rubis_response_time_seconds")
                .unit(Unit.SECONDS)
                .constLabels(constant)
                .help("Response time: the send mark to the last byte (docs/ARCHITECTURE.md), by run phase")
                .labelNames("phase")
                .classicUpperBounds(BUCKETS)
                .register(registry);
        lateness = Histogram.builder()
                .name("rubis_send_lateness_seconds")
                .unit(Unit.SECONDS)
                .constLabels(constant)
                .help("How late each request was sent after its intended instant, by run phase")
                .labelNames("phase")
                .classicUpperBounds(BUCKETS)
                .register(registry);
        CounterWithCallback.builder()
                .name("rubis_sessions_ended_total")
                .constLabels(constant)
                .help("Sessions ended, by how they ended (sessions.csv's end reason)")
                .labelNames("reason")
                .callback(cb -> totals(t -> t.sessionEnds().forEach((r, n) -> cb.call(n, r.label()))))
                .register(registry);
        CounterWithCallback.builder()
                .name("rubis_connections_opened_total")
                .constLabels(constant)
                .help("Connections the client's requests opened")
                .callback(cb -> totals(t -> cb.call(t.newConnections())))
                .register(registry);
        phase = StateSet.builder()
                .name("rubis_run_phase")
                .constLabels(constant)
                .help("The run's phase")
                .states(RUN_PHASES.toArray(String[]::new))
                .register(registry);
        status = StateSet.builder()
                .name("rubis_run_status")
                .constLabels(constant)
                .help("The run's status: running, then the summary's")
                .states(statuses())
                .register(registry);
        info = Info.builder()
                .name("rubis_run_info")
                .constLabels(constant)
                .help("What runs: backend, execution model, arrivals")
                .labelNames("backend", "execution", "arrivals")
                .register(registry);
        GaugeWithCallback.builder()
                .name("rubis_active_sessions")
                .constLabels(constant)
                .help("Sessions in progress")
                .callback(cb -> {
                    IntervalPoint p = point;
                    if (ended) {
                        cb.call(0); // during the linger: the last sample's sessions have all ended since
                    } else if (p != null) {
                        cb.call(p.activeSessions());
                    }
                })
                .register(registry);
        CounterWithCallback.builder()
                .name("rubis_sessions_started_total")
                .constLabels(constant)
                .help("Sessions begun")
                .callback(cb -> {
                    IntervalPoint p = point;
                    if (p != null) {
                        cb.call(p.sessionsStarted());
                    }
                })
                .register(registry);
        GaugeWithCallback.builder()
                .name("rubis_connections_open")
                .constLabels(constant)
                .help("The client's TCP connections to the target, established (from /proc, once a second)")
                .callback(cb -> {
                    if (openConnections >= 0) {
                        cb.call(openConnections);
                    }
                })
                .register(registry);
        health(constant);
        if (capture) {
            capture(constant);
        }
        for (String s : RUN_PHASES) {
            phase.setFalse(s);
        }
        phase.setTrue("starting");
        status.setTrue(RUNNING);
    }

    private static String[] statuses() {
        String[] s = new String[RunStatus.values().length + 1];
        s[0] = RUNNING;
        for (RunStatus r : RunStatus.values()) {
            s[r.ordinal() + 1] = r.label();
        }
        return s;
    }

    /** The client's own figures, from the health sampler's latest second. */
    private void health(Labels constant) {
        CounterWithCallback.builder()
                .name("rubis_client_cpu_seconds_total")
                .constLabels(constant)
                .help("The client process's CPU time")
                .callback(cb -> sample(h -> cb.call(h.cpuSeconds())))
                .register(registry);
        GaugeWithCallback.builder()
                .name("rubis_client_heap_used_bytes")
                .constLabels(constant)
                .help("The client's heap in use")
                .callback(cb -> sample(h -> cb.call(h.heapUsedBytes())))
                .register(registry);
        GaugeWithCallback.builder()
                .name("rubis_client_heap_max_bytes")
                .constLabels(constant)
                .help("The client's heap limit")
                .callback(cb -> sample(h -> cb.call(h.heapMaxBytes())))
                .register(registry);
        GaugeWithCallback.builder()
                .name("rubis_client_open_files")
                .constLabels(constant)
                .help("The client's open file descriptors")
                .callback(cb -> sample(h -> {
                    if (h.openFiles() >= 0) {
                        cb.call(h.openFiles());
                    }
                }))
                .register(registry);
        GaugeWithCallback.builder()
                .name("rubis_client_threads")
                .constLabels(constant)
                .help("The client's live threads")
                .callback(cb -> sample(h -> cb.call(h.threads())))
                .register(registry);
        CounterWithCallback.builder()
                .name("rubis_client_gc_pauses_total")
                .constLabels(constant)
                .help("Garbage collections that paused the client")
                .callback(cb -> sample(h -> cb.call(h.gc().pauses())))
                .register(registry);
        CounterWithCallback.builder()
                .name("rubis_client_gc_pause_seconds_total")
                .constLabels(constant)
                .help("Time the client was paused by garbage collections")
                .callback(cb -> sample(h -> cb.call(h.gc().pauseMs() / 1e3)))
                .register(registry);
    }

    private void totals(Consumer<RunTotals> read) {
        RunStats s = stats;
        if (s != null) {
            s.read(read);
        }
    }

    /** The run's statistics, when its logs open. */
    void stats(RunStats s) {
        stats = s;
    }

    private void sample(Consumer<HealthSample> read) {
        HealthSample h = health;
        if (h != null) {
            read.accept(h);
        }
    }

    /** The capture's counters and the running client-minus-wire. */
    private void capture(Labels constant) {
        CounterWithCallback.builder()
                .name("rubis_capture_packets_total")
                .constLabels(constant)
                .help("Packets the capture has written (its file so far)")
                .callback(cb -> {
                    WireFigures w = wire;
                    if (w != null && w.packets() >= 0) {
                        cb.call(w.packets());
                    }
                })
                .register(registry);
        CounterWithCallback.builder()
                .name("rubis_capture_dropped_packets_total")
                .constLabels(constant)
                .help("Packets the capture lost: dropped by the kernel (buffer full) or by the interface")
                .labelNames("where")
                .callback(cb -> {
                    WireFigures w = wire;
                    if (w != null && w.kernelDrops() >= 0) {
                        cb.call(w.kernelDrops(), "kernel");
                    }
                    if (w != null && w.interfaceDrops() >= 0) {
                        cb.call(w.interfaceDrops(), "interface");
                    }
                })
                .register(registry);
        GaugeWithCallback.builder()
                .name("rubis_client_minus_wire_seconds")
                .constLabels(constant)
                .help("The client's response time minus the wire's, requests joined in the last interval, median and"
                        + " p99, reused and new connections apart")
                .labelNames("connection", "quantile")
                .callback(cb -> {
                    WireFigures w = wire;
                    if (w == null) {
                        return;
                    }
                    diff(cb, w.interval().reused(), "reused");
                    diff(cb, w.interval().fresh(), "new");
                })
                .register(registry);
        CounterWithCallback.builder()
                .name("rubis_client_minus_wire_requests_total")
                .constLabels(constant)
                .help("Requests joined to the capture so far, reused and new connections apart")
                .labelNames("connection")
                .callback(cb -> {
                    WireFigures w = wire;
                    if (w != null) {
                        cb.call(w.total().reused().count(), "reused");
                        cb.call(w.total().fresh().count(), "new");
                    }
                })
                .register(registry);
    }

    private static void diff(GaugeWithCallback.Callback cb, WireFigures.Diff d, String connection) {
        if (d.count() > 0) {
            cb.call(d.p50Us() / 1e6, connection, "0.5");
            cb.call(d.p99Us() / 1e6, connection, "0.99");
        }
    }

    PrometheusRegistry registry() {
        return registry;
    }

    void info(String backend, String execution, String arrivals) {
        info.setLabelValues(backend, execution, arrivals);
    }

    @Override
    public void request(RequestRecord r) {
        int p = r.phase().ordinal();
        DistributionDataPoint rt = responseByPhase[p];
        if (rt == null) {
            rt = responseTime.labelValues(r.phase().label());
            responseByPhase[p] = rt;
            latenessByPhase[p] = lateness.labelValues(r.phase().label());
        }
        rt.observe(r.responseNs() / 1e9);
        latenessByPhase[p].observe(Math.max(0, r.latenessNs()) / 1e9);
    }

    /** The latest second: the client's health and the interval's figures the gauges read. */
    void second(HealthSample h, IntervalPoint p, long connections) {
        if (h != null) {
            health = h;
        }
        if (p != null) {
            point = p;
        }
        openConnections = connections;
    }

    /** The client's connections to the target open at the latest second (-1: unknown). */
    long openConnections() {
        return openConnections;
    }

    /** Connections the client's requests opened so far. */
    long connectionsOpened() {
        RunStats s = stats;
        long[] n = {0};
        if (s != null) {
            s.read(t -> n[0] = t.newConnections());
        }
        return n[0];
    }

    void wire(WireFigures w) {
        wire = w;
    }

    /** The run's phase now (one of {@link #RUN_PHASES}). */
    void phase(String now) {
        for (String s : RUN_PHASES) {
            if (s.equals(now)) {
                phase.setTrue(s);
            } else {
                phase.setFalse(s);
            }
        }
    }

    /** The run's status once its summary is written. */
    void status(RunStatus s) {
        ended = true;
        status.setFalse(RUNNING);
        status.setTrue(s.label());
    }
}
