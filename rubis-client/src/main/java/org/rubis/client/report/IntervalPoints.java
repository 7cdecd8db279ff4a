package org.rubis.client.report;

import java.util.Map;
import org.HdrHistogram.Histogram;
import org.rubis.format.run.Phase;
import org.rubis.format.stats.LatencyStats;

/** Makes the run's {@link IntervalPoint}s, one per interval: numbered, timed and phased on the run's clock. */
final class IntervalPoints {

    /** The run's clock: its start, the ends of its phases (epoch ns); null before it starts. */
    private record Clock(long startEpochNs, long upEndEpochNs, long runEndEpochNs, long endEpochNs) {}

    private Clock clock;
    private long seq;
    private long lastNano = System.nanoTime();
    private GcTotals lastGc;
    private boolean encode;

    void clock(long startEpochNs, long upEndEpochNs, long runEndEpochNs, long endEpochNs) {
        clock = new Clock(startEpochNs, upEndEpochNs, runEndEpochNs, endEpochNs);
    }

    boolean started() {
        return clock != null;
    }

    void encode(boolean on) {
        encode = on;
    }

    /**
     * The next interval's point.
     *
     * @param response the interval's response times (all phases)
     * @param lateness the interval's send lateness (all phases)
     * @param run      the run phase's response times since the start
     */
    IntervalPoint next(
            HealthSample health,
            long sessionsStarted,
            Histogram response,
            long errors,
            Map<String, Long> errorsByClass,
            Histogram lateness,
            LatencyStats run) {
        long now = System.nanoTime();
        double seconds = (now - lastNano) / 1e9;
        lastNano = now;
        long epochMs = health != null ? health.epochMs() : System.currentTimeMillis();
        long epochNs = epochMs * 1_000_000L;
        double gcPauseMs = 0;
        if (health != null) {
            if (lastGc != null) {
                gcPauseMs = health.gc().since(lastGc).pauseMs();
            }
            lastGc = health.gc();
        }
        IntervalPoint.Encoded enc = encode
                ? new IntervalPoint.Encoded(
                        IntervalPoint.encoded(response),
                        IntervalPoint.encoded(lateness),
                        IntervalPoint.encoded(run.histogram()),
                        run.minNs(),
                        run.maxNs(),
                        run.sumNs())
                : null;
        return new IntervalPoint(
                seq++,
                epochMs,
                (epochNs - clock.startEpochNs()) / 1e9,
                seconds,
                phaseAt(epochNs),
                response.getTotalCount(),
                errors,
                errorsByClass,
                RunStats.ms(response, 50),
                RunStats.ms(response, 90),
                RunStats.ms(response, 99),
                response.getTotalCount() == 0 ? 0 : response.getMaxValue() / 1e6,
                RunStats.ms(lateness, 99),
                lateness.getTotalCount() == 0 ? 0 : lateness.getMaxValue() / 1e6,
                health != null ? health.activeSessions() : 0,
                sessionsStarted,
                health,
                gcPauseMs,
                RunPhaseTotals.of(run.histogram(), run.errors(), run.minNs(), run.maxNs(), run.sumNs()),
                enc);
    }

    /** The phase at an instant, null after the run's time. */
    private Phase phaseAt(long epochNs) {
        if (epochNs < clock.upEndEpochNs()) {
            return Phase.UP;
        }
        if (epochNs < clock.runEndEpochNs()) {
            return Phase.RUN;
        }
        return epochNs < clock.endEpochNs() ? Phase.DOWN : null;
    }
}
