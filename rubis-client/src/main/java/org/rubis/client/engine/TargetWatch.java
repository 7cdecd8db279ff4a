package org.rubis.client.engine;

import java.util.concurrent.atomic.AtomicLong;
import org.rubis.format.ErrorClass;
import org.rubis.format.StopCause.Kind;

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

    /** Connect failures in a row after the target had answered: it died (or stopped listening). */
    private final AtomicLong failuresInRow = new AtomicLong();

    void observe(String error) {
        if (error.isEmpty() || error.equals("error-page") || error.startsWith("http-")) {
            successes.incrementAndGet();
            if (failuresInRow.get() != 0) { // a volatile store is a fence: not once per request for nothing
                failuresInRow.set(0);
            }
            return;
        }
        if (!ErrorClass.parse(error).connectFailure()) {
            return;
        }
        if (successes.get() == 0 && connectFailures.incrementAndGet() >= THRESHOLD) {
            stop.stop(Kind.TARGET_UNREACHABLE, "target " + target + " is unreachable (" + error + " on the first " + THRESHOLD
                    + " requests); check --target, or that the server is running");
        } else if (successes.get() > 0 && failuresInRow.incrementAndGet() >= THRESHOLD) {
            stop.stop(Kind.TARGET_DIED, "target died: " + target + " answered " + successes.get() + " requests, then " + THRESHOLD
                    + " connections in a row failed (" + error + ")");
        }
    }
}
