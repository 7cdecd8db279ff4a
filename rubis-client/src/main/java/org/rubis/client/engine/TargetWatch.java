package org.rubis.client.engine;

import java.util.concurrent.atomic.AtomicLong;
import org.rubis.format.run.ErrorClass;
import org.rubis.format.run.StopCause.Kind;

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

    /** A request's outcome: {@code error} null for none, {@code imageError} when it is one of the page's images'. */
    void observe(ErrorClass error, boolean imageError) {
        if (error == null || error.answered()) { // the target answered (an error page, an HTTP error status)
            successes.incrementAndGet();
            if (failuresInRow.get() != 0) { // a volatile store is a fence: not once per request for nothing
                failuresInRow.set(0);
            }
            return;
        }
        if (imageError || !error.isConnectFailure()) { // a page arrived, or a failure after a connection was made
            return;
        }
        if (successes.get() == 0 && connectFailures.incrementAndGet() >= THRESHOLD) {
            stop.stop(
                    Kind.TARGET_UNREACHABLE,
                    "target " + target + " is unreachable (" + error.label() + " on the first " + THRESHOLD
                            + " requests); check --target, or that the server is running");
        } else if (successes.get() > 0 && failuresInRow.incrementAndGet() >= THRESHOLD) {
            stop.stop(
                    Kind.TARGET_DIED,
                    "target died: " + target + " answered " + successes.get() + " requests, then " + THRESHOLD
                            + " connections in a row failed (" + error.label() + ")");
        }
    }
}
