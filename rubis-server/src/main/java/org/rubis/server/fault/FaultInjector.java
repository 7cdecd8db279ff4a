package org.rubis.server.fault;

import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.rubis.format.fault.FaultKind;
import org.rubis.format.fault.FaultRule;
import org.rubis.format.fault.FaultSpec;

/**
 * Decides, request by request, which fault of a {@link FaultSpec} to inject, and runs the
 * server-wide ones (stop accepting, die at a time) on a timer.
 *
 * <p>The choice is deterministic: request n (1-based, in arrival order) gets the first active rule
 * whose cumulative fraction exceeds {@code frac(n * 0.618...)}, a low-discrepancy sequence; so over
 * N requests a rule with fraction f hits f*N of them give or take two, and the same spec hits the same
 * request numbers on every run. Rules earlier in the spec win when the fractions of the rules
 * active at one time add up to more than 1.
 */
public final class FaultInjector implements AutoCloseable {

    /** What the server-wide faults act on; each server model implements it. */
    public interface Listener {
        void stopAccepting();

        void resumeAccepting();
    }

    private static final double GOLDEN = 0.6180339887498949;

    private final FaultSpec spec;
    private volatile long startNano = System.nanoTime();
    private final AtomicLong requests = new AtomicLong();
    private volatile Runnable die = () -> Runtime.getRuntime().halt(137);
    private volatile Runnable beforeScheduledDie = () -> {};
    private ScheduledExecutorService timer;

    public FaultInjector(FaultSpec spec) {
        this.spec = spec;
    }

    public static FaultInjector none() {
        return new FaultInjector(FaultSpec.none());
    }

    public boolean isEmpty() {
        return spec.isEmpty();
    }

    /** What {@code die} does: by default halts the JVM (exit status 137, like SIGKILL). */
    public void onDie(Runnable action) {
        this.die = action;
    }

    /**
     * Run before a timed {@code die} (no request names it): the ground truth counts it, as it counts a request's
     * {@code die} by that request's line.
     */
    public void onScheduledDie(Runnable action) {
        this.beforeScheduledDie = action;
    }

    /** Ends the server as the {@code die} fault says. */
    public void die() {
        die.run();
    }

    /**
     * The fault for the next request, or null for a normal answer. Called once per request, in
     * arrival order, by the thread that read it.
     */
    public FaultRule next() {
        if (spec.isEmpty()) {
            return null;
        }
        long n = requests.incrementAndGet();
        long elapsed = (System.nanoTime() - startNano) / 1_000_000;
        double u = (n * GOLDEN) % 1.0;
        double cumulative = 0;
        for (FaultRule r : spec.rules()) {
            if (!r.kind().perRequest() || timedDie(r) || !r.activeAt(elapsed) || r.fraction() <= 0) {
                continue;
            }
            cumulative += r.fraction();
            if (u < cumulative || cumulative >= 1.0) {
                return r;
            }
        }
        return null;
    }

    /** Starts the timers of the scheduled server-wide faults (stop-accepting windows, die at a time). */
    public synchronized void start(Listener server) {
        startNano = System.nanoTime(); // windows count from the moment the server listens
        List<FaultRule> timed = spec.rules().stream()
                .filter(r -> r.kind() == FaultKind.STOP_ACCEPTING
                        || r.kind() == FaultKind.DIE && r.fraction() >= 1.0 && r.fromMs() > 0)
                .toList();
        if (timed.isEmpty()) {
            return;
        }
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "rubis-server-faults");
            t.setDaemon(true);
            return t;
        });
        long sinceStart = 0;
        for (FaultRule r : timed) {
            if (r.kind() == FaultKind.STOP_ACCEPTING) {
                timer.schedule(server::stopAccepting, Math.max(0, r.fromMs() - sinceStart), TimeUnit.MILLISECONDS);
                if (r.toMs() != Long.MAX_VALUE) {
                    timer.schedule(server::resumeAccepting, Math.max(0, r.toMs() - sinceStart), TimeUnit.MILLISECONDS);
                }
            } else {
                timer.schedule(
                        () -> {
                            beforeScheduledDie.run();
                            die();
                        },
                        Math.max(0, r.fromMs() - sinceStart),
                        TimeUnit.MILLISECONDS);
            }
        }
    }

    /** True when {@code r} is a die rule handled by the timer, not by requests. */
    public static boolean timedDie(FaultRule r) {
        return r.kind() == FaultKind.DIE && r.fraction() >= 1.0 && r.fromMs() > 0;
    }

    @Override
    public synchronized void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
