package org.rubis.client.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.rubis.client.arrival.DeterministicArrivals;
import org.rubis.client.arrival.ExponentialArrivals;
import org.rubis.client.arrival.SessionArrivals;
import org.rubis.client.config.ShardPlan;

/**
 * Hybrid mode over N shards (docs/SHARDING.md): shard I starts exactly the arrivals k with
 * k mod N == I, at the instants one process would give them; together the shards start each
 * arrival of the global sequence once.
 */
class OwnedArrivalsTest {

    static List<long[]> arrivals(Supplier<SessionArrivals> process, ShardPlan plan, int max) {
        OwnedArrivals o = new OwnedArrivals(process.get(), plan);
        List<long[]> out = new ArrayList<>();
        while (out.size() < max && o.advance()) {
            out.add(new long[] {o.id(), o.offset()});
        }
        return out;
    }

    @Test
    void threeShardsStartTheGlobalPoissonSequenceOnceAtTheSameInstants() {
        Supplier<SessionArrivals> poisson = () -> new ExponentialArrivals(40.0, 12345L);
        List<long[]> single = arrivals(poisson, ShardPlan.SINGLE, 3000);
        TreeMap<Long, Long> union = new TreeMap<>();
        for (int i = 0; i < 3; i++) {
            ShardPlan plan = new ShardPlan(i, 3, null, null, true);
            for (long[] a : arrivals(poisson, plan, 1000)) {
                assertEquals(i, a[0] % 3, "arrival " + a[0] + " on shard " + i);
                assertEquals(null, union.put(a[0], a[1]), "arrival " + a[0] + " started twice");
            }
        }
        assertEquals(3000, union.size());
        for (int k = 0; k < single.size(); k++) {
            assertEquals(k, single.get(k)[0]);
            assertEquals(single.get(k)[1], union.get((long) k), "arrival " + k + ": the same instant as one process");
        }
        assertTrue(single.get(2999)[1] > single.get(0)[1]);
    }

    @Test
    void aFiniteSequenceEndsOnEveryShard() {
        Supplier<SessionArrivals> five = () -> new SessionArrivals() {
            int n;

            @Override
            public long next() {
                return n < 5 ? 1_000_000L * n++ : -1;
            }

            @Override
            public String describe() {
                return "five";
            }
        };
        assertEquals(
                List.of(1L, 3L),
                arrivals(five, new ShardPlan(1, 2, null, null, true), 100).stream()
                        .map(a -> a[0])
                        .toList());
        assertEquals(
                List.of(0L, 2L, 4L),
                arrivals(five, new ShardPlan(0, 2, null, null, true), 100).stream()
                        .map(a -> a[0])
                        .toList());
        assertFalse(new OwnedArrivals(new DeterministicArrivals(1.0), new ShardPlan(3, 4, null, null, true)).advance()
                == false);
    }
}
