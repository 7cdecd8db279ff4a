package org.rubis.client.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.net.BindException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.MetricsEndpoint;
import org.rubis.client.config.ShardPlan;
import org.rubis.client.engine.RunEngine;
import org.rubis.client.input.ConfigException;
import org.rubis.client.live.LiveEndpoint;
import org.rubis.client.live.LiveRun;
import org.rubis.client.live.ShardsFeed;
import org.rubis.client.shard.LocalShards;
import org.rubis.format.run.RunFiles;
import org.rubis.format.run.RunStatus;

/**
 * {@code run --metrics-port N}: the live view's endpoint, bound before the run starts (a port in use is a one-line
 * error then, not a surprise later), the run it watches, and its linger after the run (docs/LIVE.md).
 */
final class LiveView implements AutoCloseable {

    private final MetricsEndpoint config;
    private final LiveEndpoint endpoint;
    private final PrintStream out;
    private LiveRun run;
    private ShardsFeed shards;
    /**
     * Released by SIGINT/SIGTERM (the JVM's shutdown): the linger then ends at once. A pod deleted or a Job stopped
     * after (or during) its run is signalled, and its grace period (30 s by default) is shorter than a linger of a
     * minute: waiting it out got every such pod killed. The run's summary is already written when the linger begins.
     */
    private final CountDownLatch signalled = new CountDownLatch(1);

    private final Thread onSignal = new Thread(signalled::countDown, "rubis-client-live-linger");

    private LiveView(MetricsEndpoint config, LiveEndpoint endpoint, PrintStream out) {
        this.config = config;
        this.endpoint = endpoint;
        this.out = out;
        if (config.lingerMs() > 0) {
            Runtime.getRuntime().addShutdownHook(onSignal); // before the run: a signal at any time ends the linger
        }
    }

    /**
     * Binds the configured endpoint, or returns null when the live view is off.
     *
     * @param given how the port was given, for the error ({@code --metrics-port 9400} or the property)
     */
    static LiveView start(MetricsEndpoint m, String given, PrintStream out) {
        if (!m.on()) {
            return null;
        }
        return new LiveView(m, bind(m, given), out);
    }

    /** Binds {@code m}'s address and port; a port in use or an address not this host's is a one-line error. */
    static LiveEndpoint bind(MetricsEndpoint m, String given) {
        try {
            return LiveEndpoint.bind(m.address(), m.port());
        } catch (BindException e) {
            throw new ConfigException(given + ": cannot listen on " + m.address() + " port " + m.port() + " ("
                    + e.getMessage() + "): another process listens there, or the address is not this host's; choose "
                    + "another port (or address), or leave the live view off");
        } catch (IOException e) {
            throw new ConfigException(
                    given + ": cannot listen on " + m.address() + " port " + m.port() + ": " + e.getMessage());
        }
    }

    /**
     * {@code run --shards N}: the page of the shards summed on the port, shard I's endpoint on the port + 1 + I (each
     * checked free now, before any shard starts); null when the live view is off.
     */
    static LiveView startShards(MetricsEndpoint m, String given, int count, PrintStream out) {
        if (!m.on()) {
            return null;
        }
        if (m.port() + count > 65535) {
            throw new ConfigException(given + ": with --shards " + count + " the shards need ports up to "
                    + (m.port() + count) + "; expected a port of at most " + (65535 - count));
        }
        LiveEndpoint coordinator = bind(m, given);
        for (int i = 1; i <= count; i++) {
            try {
                String shard = given + " (shard " + (i - 1) + " on port " + (m.port() + i) + ")";
                bind(m.withPort(m.port() + i), shard).close();
            } catch (ConfigException e) {
                coordinator.close();
                throw e;
            }
        }
        return new LiveView(m, coordinator, out);
    }

    /** Serves the shards of {@code local} summed; each shard serves its own metrics. */
    void watchShards(LocalShards local, int count, Path dir) {
        List<String> bases = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            bases.add(url(config, config.port() + 1 + i).replaceAll("/$", ""));
        }
        local.metricsPorts(config.port() + 1);
        shards = new ShardsFeed(runId(dir, ShardPlan.SINGLE), bases);
        endpoint.serve(shards);
        out.println("Live view: " + url(config, endpoint.port()) + " (the " + count + " shards summed); shard I "
                + "serves its own at port " + (config.port() + 1) + " + I (Prometheus: /metrics)");
    }

    /** The shards have ended (and were merged when {@code merged}): the page shows the merged summary. */
    void shardsFinished(Path dir, int exitStatus) {
        RunStatus status = null;
        try {
            JsonNode s = new ObjectMapper().readTree(RunFiles.summaryJson(dir).toFile());
            status = RunStatus.parse(s.path("status").asText());
        } catch (IOException e) {
            // not merged
        }
        try {
            if (status != null) {
                shards.finished(status, dir);
            } else {
                shards.failed(exitStatus);
            }
        } catch (RuntimeException e) {
            // the run and its merge are done and complete: the page only misses its last state
            out.println("warning: the live view could not show the shards' end: " + e);
        }
        linger();
    }

    /** How a user reaches it: the address, or 127.0.0.1 for a wildcard. */
    static String url(MetricsEndpoint m, int port) {
        String host = m.address().equals("0.0.0.0") || m.address().equals("::") ? "127.0.0.1" : m.address();
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port + "/";
    }

    /** Watches the run of {@code engine}: its metrics and page; the capture's live join reports to it. */
    LiveRun watch(RunEngine engine, ClientConfig c, Path dir, ShardPlan plan) {
        run = new LiveRun(
                        runId(dir, plan),
                        plan.shard() ? plan.index() : null,
                        c.measurement().capture())
                .describe(
                        c.execution().backend().label(),
                        c.execution().model().label(),
                        c.arrivals().label());
        engine.observe(run);
        endpoint.serve(run);
        out.println("Live view: " + url(config, endpoint.port()) + " (Prometheus: " + url(config, endpoint.port())
                + "metrics)");
        return run;
    }

    /**
     * The run's id, the label {@code run} of its metrics: its directory's name; a shard's directory named
     * {@code shard-I} (run --shards, the Kubernetes Job) takes its parent's, which all shards of the run share.
     */
    static String runId(Path dir, ShardPlan plan) {
        Path abs = dir.toAbsolutePath().normalize();
        Path name = abs.getFileName();
        if (plan.shard()
                && name != null
                && name.toString().equals("shard-" + plan.index())
                && abs.getParent() != null
                && abs.getParent().getFileName() != null) {
            return abs.getParent().getFileName().toString();
        }
        return name == null ? "run" : name.toString();
    }

    /** The run has ended: its status and summary are shown; then the endpoint lingers if asked. */
    void finished(RunStatus status, Path dir) {
        if (run != null) {
            run.finished(status, dir);
        }
        linger();
    }

    private void linger() {
        if (config.lingerMs() <= 0 || signalled.getCount() == 0) {
            return; // off, or the run was stopped by a signal: the process ends now
        }
        out.println(String.format(
                Locale.ROOT,
                "Live view: stays up %.0f s more at %s (Ctrl-C to leave now)",
                config.lingerMs() / 1e3,
                url(config, endpoint.port())));
        try {
            if (signalled.await(config.lingerMs(), TimeUnit.MILLISECONDS)) {
                out.println("Live view: closed early (SIGINT/SIGTERM)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        if (config.lingerMs() > 0) {
            try {
                Runtime.getRuntime().removeShutdownHook(onSignal);
            } catch (IllegalStateException shuttingDown) {
                // the hook has run or runs now
            }
        }
        if (shards != null) {
            shards.close();
        }
        endpoint.close();
    }
}
