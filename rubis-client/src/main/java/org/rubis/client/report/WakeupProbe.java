package org.rubis.client.report;

import org.HdrHistogram.Histogram;

/**
 * How late an idle thread of the client's own process wakes up: a daemon thread sleeps 10 ms
 * again and again and records how much longer each sleep took. That is the scheduling delay the
 * machine imposes on any thread of ours (a busy host, a stolen CPU), independent of what the
 * client's own threads were doing. Send lateness far above it is the client's own doing (busy or
 * blocked sending threads); send lateness of the same size is the host's.
 */
final class WakeupProbe implements AutoCloseable {

    private static final long PERIOD_NS = 10_000_000L;
    private final Histogram lateNs = new Histogram(3_600_000_000_000L, 2);
    private final Thread thread;
    private volatile boolean running = true;

    WakeupProbe() {
        thread = new Thread(this::loop, "client-wakeup-probe");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        while (running) {
            long t0 = System.nanoTime();
            try {
                Thread.sleep(PERIOD_NS / 1_000_000);
            } catch (InterruptedException e) {
                return;
            }
            long late = Math.max(0, System.nanoTime() - t0 - PERIOD_NS);
            synchronized (lateNs) {
                lateNs.recordValue(Math.min(late, lateNs.getHighestTrackableValue()));
            }
        }
    }

    /** The p99 wake-up lateness in ms (NaN before any sample). */
    double p99Ms() {
        synchronized (lateNs) {
            return lateNs.getTotalCount() == 0 ? Double.NaN : lateNs.getValueAtPercentile(99) / 1e6;
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
