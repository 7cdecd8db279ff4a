package org.rubis.client.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.rubis.analysis.wire.AnchorBrackets;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.engine.RunEngine;
import org.rubis.client.engine.RunObserver;
import org.rubis.client.live.LiveRun;
import org.rubis.client.live.WireFigures;
import org.rubis.client.log.EpochAnchor;
import org.rubis.client.log.RecordTap;
import org.rubis.client.probe.ReferenceProbe;
import org.rubis.client.report.HealthSample;
import org.rubis.client.report.SummarySection;
import org.rubis.client.warmup.WarmupLoad;
import org.rubis.client.wire.CaptureObserver;

/**
 * Registers the run's self-checks (--capture, --probe) as one observer so that their order holds:
 * the capture starts before the probe's first request and stops after its last.
 */
final class MeasurementObservers implements RunObserver {

    private final CaptureObserver capture;
    private final ReferenceProbe probe;
    private boolean stopped;

    private MeasurementObservers(CaptureObserver capture, ReferenceProbe probe) {
        this.capture = capture;
        this.probe = probe;
    }

    /** @param live the live view the capture reports the run's own error to as it goes, or null */
    static void register(RunEngine engine, ClientConfig c, PrintStream out, LiveRun live) {
        ClientConfig.Measurement m = c.measurement();
        if (m.capture() || m.probe()) {
            ReferenceProbe probe = m.probe() ? new ReferenceProbe(m.probeRate(), m.probeBusyPoll(), out) : null;
            Consumer<WireFigures> wire = live == null ? null : live::wire;
            CaptureObserver capture = m.capture()
                    ? new CaptureObserver(out, m.publishedTimes(), () -> anchors(engine, probe), wire)
                    : null;
            engine.observe(new MeasurementObservers(capture, probe));
        }
    }

    /** The run clock's and the probe's anchor uncertainty (-1 where unknown). */
    private static AnchorBrackets anchors(RunEngine engine, ReferenceProbe probe) {
        EpochAnchor a = engine.anchor();
        return new AnchorBrackets(a == null ? -1 : a.bracketNs(), probe == null ? -1 : probe.anchorBracketNs());
    }

    @Override
    public void beforeRun(String baseUrl, Path runDir) throws Exception {
        if (capture != null) {
            capture.beforeRun(baseUrl, runDir);
        }
        if (probe != null) {
            probe.beforeRun(baseUrl, runDir);
        }
    }

    /** The capture's live join reads the log (with the live view). */
    @Override
    public RecordTap recordTap() {
        return capture == null ? null : capture.recordTap();
    }

    @Override
    public void healthSample(HealthSample sample) {
        if (capture != null) {
            capture.healthSample(sample);
        }
    }

    /** The probe's path is warmed like the backends' (the capture sends nothing). */
    @Override
    public WarmupLoad warmupLoad(String stubBase) {
        return probe == null ? null : probe.warmupLoad(stubBase);
    }

    @Override
    public void afterRun(Path runDir) throws Exception {
        stopped = true;
        try {
            if (probe != null) {
                probe.afterRun(runDir);
            }
        } finally {
            if (capture != null) {
                capture.afterRun(runDir);
            }
        }
    }

    @Override
    public SummarySection summarySection(Path runDir) {
        if (!stopped) { // the run ended by an error or Ctrl-C before afterRun: stop the probe and capture now
            try {
                afterRun(runDir);
            } catch (Exception ignored) {
                // the sections below say what is missing
            }
        }
        if (capture != null) {
            return capture.summarySection(runDir);
        }
        return probe.summarySection(runDir);
    }
}
