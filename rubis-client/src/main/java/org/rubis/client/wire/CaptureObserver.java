package org.rubis.client.wire;

import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import org.rubis.client.config.PublishedTimes;
import org.rubis.client.engine.RunObserver;
import org.rubis.client.report.SummarySection;
import org.rubis.format.RunFiles;

/**
 * {@code run --capture}: a live capture from before the first request to after the last
 * (RUN_DIR/capture.pcap, capture-stats.json), then the wire check once the logs are closed. A capture
 * that cannot start (no privilege, no libpcap, no interface) costs the run nothing: one line, and the
 * summary says the run was not checked and why.
 */
public final class CaptureObserver implements RunObserver {

    private final PrintStream out;
    private final PublishedTimes published;
    private final java.util.function.Supplier<org.rubis.analysis.wire.AnchorBrackets> anchors;
    private PacketCapture capture;
    private CaptureStats stats;
    private String failure;

    /**
     * @param anchors the uncertainty of the run's and the probe's epoch anchors, asked for once the run is over
     *                (it bounds the wire check's send/receive split)
     */
    public CaptureObserver(PrintStream out, PublishedTimes published, java.util.function.Supplier<org.rubis.analysis.wire.AnchorBrackets> anchors) {
        this.out = out;
        this.published = published;
        this.anchors = anchors;
    }

    @Override
    public void beforeRun(String baseUrl, Path runDir) {
        try {
            URI u = URI.create(baseUrl);
            int port = u.getPort() >= 0 ? u.getPort() : "https".equals(u.getScheme()) ? 443 : 80;
            capture = PacketCapture.start(CaptureSpec.forTarget(u.getHost(), port), runDir.resolve(RunFiles.CAPTURE_PCAP));
            out.println("Capturing packets on " + capture.interfaceName() + " -> " + runDir.resolve(RunFiles.CAPTURE_PCAP));
        } catch (CaptureException e) {
            fail(e.getMessage());
        } catch (java.net.UnknownHostException | IllegalArgumentException e) {
            fail("capture: cannot resolve the target " + baseUrl + " (" + e.getMessage() + ")");
        }
    }

    private void fail(String message) {
        failure = message;
        out.println("warning: " + message + "; the run goes on without capture");
    }

    @Override
    public void afterRun(Path runDir) {
        if (capture == null) {
            return;
        }
        try {
            stats = capture.stop();
            stats.writeJson(runDir.resolve(RunFiles.CAPTURE_STATS));
        } catch (CaptureException | java.io.IOException e) {
            fail("capture: stopping failed: " + e.getMessage());
        } finally {
            capture.close();
            capture = null;
        }
    }

    @Override
    public SummarySection summarySection(Path runDir) {
        if (failure != null || stats == null) {
            return WireCheckSection.notRun(failure != null ? failure : "the capture did not start (the run stopped before its first request)");
        }
        return WireCheckSection.check(runDir, stats, published, anchors.get());
    }
}
