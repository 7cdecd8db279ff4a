package org.rubis.client.shard;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.rubis.client.process.StartHandshake;

/**
 * The parent's half of the start handshake ({@link StartHandshake}): waits until every shard says it is ready, one of
 * them ends first (it failed: the others must not run without it), the bound passes, or the user stops the run.
 */
final class ReadyWait {

    /** How often the parent looks at its shards while they get ready. */
    static final long POLL_MS = 10;

    /** How the wait ended. */
    enum Outcome {
        /** Every shard is ready. */
        READY,
        /** A shard ended before it was ready (see {@link Result#shards}). */
        SHARD_ENDED,
        /** The bound passed with these shards not ready (see {@link Result#shards}). */
        NOT_READY,
        /** The user stopped the run (Ctrl-C, SIGTERM). */
        INTERRUPTED
    }

    /**
     * @param outcome   how the wait ended
     * @param shards    the shard that ended, or those not ready at the bound (by index); empty otherwise
     * @param elapsedNs from the start of the first shard to the end of the wait
     */
    record Result(Outcome outcome, List<Integer> shards, long elapsedNs) {}

    private ReadyWait() {}

    /**
     * Waits for shard I's {@code handshakes[I]}; {@code children[I]} is its process (fewer when the user stopped the
     * run while they were started). The bound and the result's time count from {@code t0}, when the first shard was
     * started ({@link System#nanoTime()}).
     */
    static Result await(
            List<Process> children,
            List<StartHandshake> handshakes,
            long t0,
            Duration bound,
            BooleanSupplier interrupted)
            throws InterruptedException {
        long deadline = t0 + bound.toNanos();
        while (true) {
            if (interrupted.getAsBoolean() || children.size() < handshakes.size()) {
                return new Result(Outcome.INTERRUPTED, List.of(), System.nanoTime() - t0);
            }
            List<Integer> waiting = new ArrayList<>();
            for (int i = 0; i < handshakes.size(); i++) {
                if (handshakes.get(i).isReady()) {
                    continue;
                }
                if (!children.get(i).isAlive()) {
                    return new Result(Outcome.SHARD_ENDED, List.of(i), System.nanoTime() - t0);
                }
                waiting.add(i);
            }
            long now = System.nanoTime();
            if (waiting.isEmpty()) {
                return new Result(Outcome.READY, List.of(), now - t0);
            }
            if (now - deadline >= 0) {
                return new Result(Outcome.NOT_READY, List.copyOf(waiting), now - t0);
            }
            children.get(waiting.get(0)).waitFor(POLL_MS, TimeUnit.MILLISECONDS);
        }
    }
}
