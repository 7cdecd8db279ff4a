package org.rubis.client.report;

import org.HdrHistogram.Histogram;

/**
 * How late an idle thread of the client's own process wakes up: the client-health thread sleeps
 * {@link #PERIOD_NS} again and again and records here how much longer each sleep took. That is the
 * scheduling delay the machine imposes on any thread of ours (a busy host, a stolen CPU),
 * independent of what the client's own threads were doing. Send lateness far above it is the
 * client's own doing (busy or blocked sending threads); send lateness of the same size is the host's.
 * The probe has no thread of its own: one timer thread both probes and samples (wake-ups
 * are part of the client's fixed cost: about 0.1 ms of CPU each on a virtual machine), and 10
 * wake-ups a second still give a p99 from 600 a minute.
 */
final class WakeupProbe {

    static final long PERIOD_NS = 100_000_000L;
    private final Histogram lateNs = new Histogram(3_600_000_000_000L, 2);

    /** One sleep of {@link #PERIOD_NS} that took {@code sleptNs}. */
    void record(long sleptNs) {
        long late = Math.max(0, sleptNs - PERIOD_NS);
        synchronized (lateNs) {
            lateNs.recordValue(Math.min(late, lateNs.getHighestTrackableValue()));
        }
    }

    /** The p99 wake-up lateness in ms (NaN before any sample). */
    double p99Ms() {
        synchronized (lateNs) {
            return lateNs.getTotalCount() == 0 ? Double.NaN : lateNs.getValueAtPercentile(99) / 1e6;
        }
    }
}
