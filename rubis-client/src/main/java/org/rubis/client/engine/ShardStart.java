package org.rubis.client.engine;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.rubis.client.config.ShardPlan;
import org.rubis.client.process.StartHandshake;
import org.rubis.client.report.FixedCost;
import org.rubis.format.run.StopCause.Kind;

/**
 * When a run's clock starts (docs/SHARDING.md): now, at a start instant given up front, or, for a shard of run
 * --shards N with a handshake, at the start instant its parent gives every shard once all are ready. What comes
 * before t = 0 (JIT warm-up, calibration) ends a second before a known start instant.
 */
final class ShardStart {

    private final StopSignal stop;
    private final PrintStream out;
    /** Says the shard is ready and gives its start instant (null: no handshake). */
    private StartHandshake handshake;

    ShardStart(StopSignal stop, PrintStream out) {
        this.stop = stop;
        this.out = out;
    }

    void handshake(StartHandshake shardHandshake) {
        this.handshake = shardHandshake;
    }

    void announce(ShardPlan shard) {
        if (handshake != null) {
            out.println("Shard " + shard.index() + " of " + shard.count() + ": getting ready (JIT warm-up, backend, "
                    + "logs, calibration), then waiting for the start instant of all shards");
        }
    }

    /** The JIT warm-up's deadline: a second before the start instant (or none). */
    static long warmupDeadlineNano(ShardPlan shard) {
        long left = untilSecondBefore(shard);
        return left == Long.MAX_VALUE ? Long.MAX_VALUE : System.nanoTime() + left;
    }

    /** One second of idleness; a shard with a start instant only has until a second before it. */
    static long calibrationWindowNs(ShardPlan shard) {
        return Math.min(FixedCost.WINDOW_NS, untilSecondBefore(shard));
    }

    /** The time left until a second before the start instant (at least 0), or Long.MAX_VALUE without one. */
    private static long untilSecondBefore(ShardPlan shard) {
        if (shard.startAt() == null) {
            return Long.MAX_VALUE;
        }
        return Math.max(0, Duration.between(Instant.now(), shard.startAt()).toNanos() - TimeUnit.SECONDS.toNanos(1));
    }

    /**
     * A shard with a handshake, ready: says so, then waits for the start instant (looking for it every few
     * milliseconds, before the clock exists, so nothing of the wait touches the run); returns the shard starting at
     * it. A stop while waiting leaves the shard without one: its run then sends nothing.
     */
    ShardPlan awaitStartGiven(ShardPlan shard) {
        if (handshake == null || stop.stopped()) {
            return shard;
        }
        try {
            handshake.ready(Instant.now());
            out.println("Ready; waiting for the start instant");
            Instant start = handshake.startInstant();
            while (start == null && !stop.stopped()) {
                stop.awaitUntil(System.nanoTime() + StartHandshake.POLL_NS, Long.MAX_VALUE);
                start = handshake.startInstant();
            }
            if (start == null) {
                start = handshake.startInstant(); // given before the stop came: the shards still share it
            }
            if (start != null) {
                return shard.startingAt(start);
            }
        } catch (IOException e) {
            stop.stop(Kind.CLIENT_FAILED, "the start handshake failed: " + e.getMessage());
        } finally {
            try {
                handshake.done();
            } catch (IOException e) {
                out.println("warning: the start handshake's files were not removed: " + e.getMessage());
            }
        }
        return shard;
    }

    /** A shard waits for the common start instant; one ready only after its run's end measured nothing. */
    void awaitStartInstant(ShardPlan shard, RunClock clock) {
        if (shard.startAt() == null) {
            return;
        }
        out.println(String.format(
                Locale.ROOT,
                "waiting until %s (%.1f s)",
                shard.startAt(),
                (clock.startNano() - System.nanoTime()) / 1e9));
        stop.awaitUntil(clock.startNano(), Long.MAX_VALUE);
        long now = System.nanoTime();
        if (!stop.stopped() && now >= clock.endNano()) {
            stop.stop(
                    Kind.LATE_START,
                    String.format(
                            Locale.ROOT,
                            "this process was ready %.1f s after the start instant %s, after the end of "
                                    + "the run: nothing was measured; give a start instant further ahead",
                            (now - clock.startNano()) / 1e9,
                            shard.startAt()));
        }
    }
}
