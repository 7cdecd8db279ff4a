package org.rubis.client.engine;

import org.rubis.client.arrival.SessionArrivals;
import org.rubis.client.config.ShardPlan;

/**
 * The arrivals of the global sequence that one shard starts: every shard draws all arrivals (so
 * arrival {@code k} has the same instant whatever the shard count) and keeps those with
 * {@code k mod N == I}. Arrival numbers are global: they are the session ids.
 */
final class OwnedArrivals {

    private final SessionArrivals arrivals;
    private final ShardPlan shard;
    private long next;
    private long id = -1;
    private long offset = -1;

    OwnedArrivals(SessionArrivals arrivals, ShardPlan shard) {
        this.arrivals = arrivals;
        this.shard = shard;
    }

    /** Moves to this shard's next arrival; false when the sequence has ended. */
    boolean advance() {
        while (true) {
            long o = arrivals.next();
            long k = next++;
            if (o < 0) {
                return false;
            }
            if (shard.owns(k)) {
                id = k;
                offset = o;
                return true;
            }
        }
    }

    /** The global arrival number (the session id). */
    long id() {
        return id;
    }

    /** Its intended start, ns from t = 0. */
    long offset() {
        return offset;
    }
}
