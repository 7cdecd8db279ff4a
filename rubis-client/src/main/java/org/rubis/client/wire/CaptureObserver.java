package org.rubis.client.wire;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.rubis.analysis.wire.AnchorBrackets;
import org.rubis.analysis.wire.LiveWireJoin;
import org.rubis.client.config.PublishedTimes;
import org.rubis.client.engine.RunObserver;
import org.rubis.client.live.WireFigures;
import org.rubis.client.log.RecordTap;
import org.rubis.client.log.RequestRecord;
import org.rubis.client.report.HealthSample;
import org.rubis.client.report.SummarySection;
import org.rubis.format.run.RunFiles;

/**
 * {@code run --capture}: a live capture from before the first request to after the last
 * (RUN_DIR/capture.pcap, capture-stats.json), then the wire check once the logs are closed. A capture
 * that cannot start (no privilege, no libpcap, no interface) costs the run nothing: one line, and the
 * summary says the run was not checked and why.
 *
 * <p>With the live view, the capture is also joined to the log while the run goes on (rubis-analysis's
 * {@link LiveWireJoin}, the wire check's rule): once a second, on the client-health sampler's thread, the file is
 * flushed and read on, and the client minus wire of what was joined goes to the live view; at the end the join's
 * whole-run figures are the wire check's.
 */
public final class CaptureObserver implements RunObserver {

    private final PrintStream out;
    private final PublishedTimes published;
    private final Supplier<AnchorBrackets> anchors;
    private final Consumer<WireFigures> live;
    private PacketCapture capture;
    private CaptureStats stats;
    private String failure;
    private volatile LiveWireJoin join;

    /**
     * @param anchors the uncertainty of the run's and the probe's epoch anchors, asked for once the run is over
     *                (it bounds the wire check's send/receive split)
     * @param live    where the running client minus wire goes (the live view), or null
     */
    public CaptureObserver(
            PrintStream out, PublishedTimes published, Supplier<AnchorBrackets> anchors, Consumer<WireFigures> live) {
        this.out = out;
        this.published = published;
        this.anchors = anchors;
        this.live = live;
    }

    @Override
    public synchronized void beforeRun(String baseUrl, Path runDir) {
        try {
            URI u = URI.create(baseUrl);
            int port = u.getPort() >= 0 ? u.getPort() : "https".equals(u.getScheme()) ? 443 : 80;
            Path pcap = runDir.resolve(RunFiles.CAPTURE_PCAP);
            capture = PacketCapture.start(CaptureSpec.forTarget(u.getHost(), port), pcap);
            out.println("Capturing packets on " + capture.interfaceName() + " -> " + pcap);
            if (live != null) {
                join = new LiveWireJoin(pcap);
            }
        } catch (CaptureException e) {
            fail(e.getMessage());
        } catch (UnknownHostException | IllegalArgumentException e) {
            fail("capture: cannot resolve the target " + baseUrl + " (" + e.getMessage() + ")");
        }
    }

    private void fail(String message) {
        failure = message;
        out.println("warning: " + message + "; the run goes on without capture");
    }

    /** With the live view: every line of the log goes to the live join too. */
    @Override
    public RecordTap recordTap() {
        if (live == null) {
            return null;
        }
        return (RequestRecord r) -> {
            LiveWireJoin j = join;
            if (j != null) {
                j.line(
                        r.localAddress(),
                        r.sendEpochNs(),
                        r.ttfbNs(),
                        r.responseNs(),
                        r.path(),
                        r.status(),
                        r.newConnection(),
                        r.backend());
            }
        };
    }

    /** Once a second: what the capture saw so far, joined to the log. */
    @Override
    public void healthSample(HealthSample sample) {
        LiveWireJoin j = join;
        if (j == null) {
            return;
        }
        PacketCapture.Counters counters;
        synchronized (this) {
            if (capture == null) {
                return; // stopped: the last figures come with the summary
            }
            capture.flush();
            counters = capture.counters();
        }
        try {
            LiveWireJoin.Step step = j.advance();
            publish(step, j.packets(), counters, false);
        } catch (
                RuntimeException e) { // an AnalysisException (an unreadable capture) or a bug: the end check still runs
            join = null;
            out.println("warning: the live join of the capture failed (" + e.getMessage() + "); the wire check at "
                    + "the end is unaffected");
        }
    }

    /** @param packets packets in the capture file so far (what the join read) */
    private void publish(LiveWireJoin.Step step, long packets, PacketCapture.Counters c, boolean complete) {
        live.accept(new WireFigures(
                groups(step.interval()),
                groups(step.total()),
                packets,
                c == null ? -1 : c.dropped(),
                c == null ? -1 : c.interfaceDropped(),
                complete));
    }

    private static WireFigures.Groups groups(Map<String, LiveWireJoin.Figures> m) {
        return new WireFigures.Groups(diff(m.get("all")), diff(m.get("reused")), diff(m.get("new")));
    }

    private static WireFigures.Diff diff(LiveWireJoin.Figures f) {
        return f == null || f.count() == 0
                ? WireFigures.Diff.NONE
                : new WireFigures.Diff(f.count(), f.p50Us(), f.p99Us(), f.meanUs());
    }

    @Override
    public synchronized void afterRun(Path runDir) {
        if (capture == null) {
            return;
        }
        try {
            stats = capture.stop();
            stats.writeJson(runDir.resolve(RunFiles.CAPTURE_STATS));
        } catch (CaptureException | IOException e) {
            fail("capture: stopping failed: " + e.getMessage());
        } finally {
            capture.close();
            capture = null;
        }
    }

    @Override
    public SummarySection summarySection(Path runDir) {
        finishLiveJoin();
        if (failure != null || stats == null) {
            return WireCheckSection.notRun(
                    failure != null ? failure : "the capture did not start (the run stopped before its first request)");
        }
        return WireCheckSection.check(runDir, stats, published, anchors.get());
    }

    /** The logs are closed and the capture stopped: the live join decides the rest, as the wire check does. */
    private void finishLiveJoin() {
        LiveWireJoin j = join;
        if (j == null) {
            return;
        }
        join = null;
        try (j) {
            CaptureStats s = stats;
            PacketCapture.Counters c = s == null
                    ? null
                    : new PacketCapture.Counters(s.packetsReceived(), s.kernelDrops(), s.interfaceDrops());
            LiveWireJoin.Step step = j.finish();
            publish(step, j.packets(), c, true);
        } catch (
                RuntimeException e) { // an AnalysisException (an unreadable capture) or a bug: the end check still runs
            out.println("warning: the live join of the capture failed at the end (" + e.getMessage() + ")");
        }
    }
}
