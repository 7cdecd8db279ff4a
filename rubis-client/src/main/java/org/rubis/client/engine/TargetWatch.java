package org.rubis.client.engine;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Stops a run whose target cannot be reached at all: when the first requests all fail to connect,
 * continuing would only produce a log of failures and make users spin until the end.
 */
final class TargetWatch {

    static final int THRESHOLD = 10;

    private final AtomicLong successes = new AtomicLong();
    private final AtomicLong connectFailures = new AtomicLong();
    private final StopSignal stop;
    private final String target;

    TargetWatch(StopSignal stop, String target) {
        this.stop = stop;
        this.target = target;
    }

    void observe(String error) {
        if (error.isEmpty() || error.equals("error-page") || error.startsWith("http-")) {
            successes.incrementAndGet();
            return;
        }
        if (successes.get() == 0 && (error.startsWith("connect-") || error.equals("unreachable"))
                && connectFailures.incrementAndGet() >= THRESHOLD) {
            stop.stop("target " + target + " is unreachable (" + error + " on the first " + THRESHOLD
                    + " requests); check --target, or that the server is running", true);
        }
    }
}
