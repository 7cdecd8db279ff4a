package org.rubis.client.report;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;
import org.rubis.format.run.Phase;

/**
 * One interval of a run (about a second, between two samples of the client's health): what the live page plots and
 * the endpoint's gauges read. Made by {@link RunStats}; immutable.
 *
 * @param seq             the interval's number, from 0 at the start of the run's clock
 * @param epochMs         the interval's end
 * @param t               the interval's end, seconds since the run's start
 * @param seconds         its length
 * @param phase           the run's phase at its end; null once the run's time is over (the last requests drain)
 * @param requests        requests logged in it (all phases)
 * @param errors          of which errors
 * @param errorsByClass   its errors by the error column's label
 * @param p50Ms           its response times' median (all phases), ms; the same for p90, p99 and the largest
 * @param latenessP99Ms   its send lateness' p99 (all phases), ms; and the largest
 * @param activeSessions  sessions in progress at its end
 * @param sessionsStarted sessions begun since the start
 * @param health          the client's own figures at its end, or null (the last interval, after the sampler stopped)
 * @param gcPauseMs       the collectors' pauses in it, ms
 * @param run             the run phase's response times since the start
 * @param encoded         its histograms, encoded for a summing view of shards, or null when not asked for
 */
public record IntervalPoint(
        long seq,
        long epochMs,
        double t,
        double seconds,
        Phase phase,
        long requests,
        long errors,
        Map<String, Long> errorsByClass,
        double p50Ms,
        double p90Ms,
        double p99Ms,
        double maxMs,
        double latenessP99Ms,
        double latenessMaxMs,
        long activeSessions,
        long sessionsStarted,
        HealthSample health,
        double gcPauseMs,
        RunPhaseTotals run,
        Encoded encoded) {

    /**
     * The interval's histograms in HdrHistogram's compressed form, base64: the response times and send lateness of the
     * interval, and the run phase's response times since the start (a view of several shards adds them up).
     */
    public record Encoded(String response, String lateness, String run, long runMinNs, long runMaxNs, long runSumNs) {}

    /** Requests per second in the interval. */
    public double rps() {
        return seconds <= 0 ? 0 : requests / seconds;
    }

    /** HdrHistogram's compressed encoding, base64. */
    static String encoded(Histogram h) {
        ByteBuffer b = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(b);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(b.array(), n));
    }

    /** The other side of {@link #encoded}. */
    public static Histogram decoded(String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(
                    ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (DataFormatException | RuntimeException e) {
            throw new IllegalArgumentException("not an encoded histogram: " + e.getMessage(), e);
        }
    }
}
