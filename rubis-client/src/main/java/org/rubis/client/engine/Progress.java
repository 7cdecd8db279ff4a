package org.rubis.client.engine;

import java.io.PrintStream;
import java.util.Locale;
import org.rubis.client.report.RunStats;

/**
 * The progress line of long runs: elapsed time, phase, sessions in progress, and from the interval snapshots (the
 * live view's) the requests per second and response-time p99 logged since the previous line; requests and errors so
 * far. Sessions in progress are those begun (a first request sent or about to be) and not ended: a user still in its
 * first think time is not one yet, so early in a run the figure is below the population; the label says which it is.
 */
final class Progress implements AutoCloseable {

    private static final long PERIOD_MS = 5000;
    private final Thread thread;
    private volatile boolean running = true;

    Progress(PrintStream out, RunClock clock, RunStats stats, ActiveSessions active) {
        stats.window(); // the first line covers its own five seconds
        thread = new Thread(
                () -> {
                    while (running) {
                        try {
                            Thread.sleep(PERIOD_MS);
                        } catch (InterruptedException e) {
                            return;
                        }
                        long now = System.nanoTime();
                        RunStats.Window w = stats.window();
                        long total = (clock.endNano() - clock.startNano()) / 1_000_000_000L;
                        out.println(String.format(
                                Locale.ROOT,
                                "[%4ds/%ds] %-4s sessions in progress %5d  %8.1f req/s  p99 %8.1f ms  requests %8d  errors %6d",
                                (now - clock.startNano()) / 1_000_000_000L,
                                total,
                                clock.phase(now),
                                active.now(),
                                w.rps(),
                                w.p99Ms(),
                                stats.users().liveRequests(),
                                stats.users().liveErrors()));
                    }
                },
                "progress");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
