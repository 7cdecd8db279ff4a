package org.rubis.client.engine;

import java.io.PrintStream;
import java.util.Locale;
import org.rubis.client.report.RunStats;

/**
 * The progress line of long runs: elapsed time, phase, sessions in progress, requests/s, errors. Sessions in progress
 * are those begun (a first request sent or about to be) and not ended: a user still in its first think time is not
 * one yet, so early in a run the figure is below the population; the label says which it is.
 */
final class Progress implements AutoCloseable {

    private static final long PERIOD_MS = 5000;
    private final Thread thread;
    private volatile boolean running = true;

    Progress(PrintStream out, RunClock clock, RunStats stats, ActiveSessions active) {
        thread = new Thread(() -> {
            long lastRequests = 0;
            long lastNano = System.nanoTime();
            while (running) {
                try {
                    Thread.sleep(PERIOD_MS);
                } catch (InterruptedException e) {
                    return;
                }
                long now = System.nanoTime();
                long req = stats.liveRequests();
                double rps = (req - lastRequests) / ((now - lastNano) / 1e9);
                lastRequests = req;
                lastNano = now;
                long total = (clock.endNano() - clock.startNano()) / 1_000_000_000L;
                out.println(String.format(Locale.ROOT, "[%4ds/%ds] %-4s sessions in progress %5d  %8.1f req/s  requests %8d  errors %6d",
                        (now - clock.startNano()) / 1_000_000_000L, total, clock.phase(now), active.now(), rps, req, stats.liveErrors()));
            }
        }, "progress");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
