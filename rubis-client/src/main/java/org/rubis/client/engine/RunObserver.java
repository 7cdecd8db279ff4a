package org.rubis.client.engine;

import java.nio.file.Path;
import org.rubis.client.log.RecordTap;
import org.rubis.client.report.HealthSample;
import org.rubis.client.report.RunStats;
import org.rubis.client.report.SummarySection;
import org.rubis.client.warmup.WarmupLoad;

/**
 * Hooks around a run for work that must bracket the measurement, such as a packet capture: called
 * on the engine's thread, outside the timing path. A failing observer stops the run as invalid.
 */
public interface RunObserver {

    /** The run's clock (when each phase ends), given just before {@link #beforeRun}. */
    default void clock(RunClock clock) {}

    /** The target is up at {@code baseUrl}; no request has been sent yet. */
    default void beforeRun(String baseUrl, Path runDir) throws Exception {}

    /**
     * Before {@link #beforeRun}, during the JIT warm-up: this hook's own request path aimed at the
     * warm-up's loopback stub at {@code stubBase} (never at the target), so that it starts compiled
     * too, or null when the hook sends no requests. Closed before the measurement.
     */
    default WarmupLoad warmupLoad(String stubBase) throws Exception {
        return null;
    }

    /**
     * A reader of every record, on the log writer's thread after the record's line is written (the live view), or
     * null; asked once, when the logs open.
     */
    default RecordTap recordTap() {
        return null;
    }

    /**
     * The run's statistics, whose interval points the live view reads (as the progress line does), given when the logs
     * open; each of the client-health sampler's seconds then ends an interval and calls {@link #healthSample}.
     */
    default void intervals(RunStats stats) {}

    /** Once a second on the client-health sampler's thread, after the interval it ends was made. */
    default void healthSample(HealthSample sample) {}

    /** The run is over: sessions have ended (or their grace ran out); backend, logs and target are still open. */
    default void afterRun(Path runDir) throws Exception {}

    /**
     * After the logs are flushed and closed (and the embedded server stopped, its log complete): the
     * observer's part of the summary (e.g. the wire check), or null. A failure here is reported in the
     * section, never fatal to the run.
     */
    default SummarySection summarySection(Path runDir) {
        return null;
    }
}
