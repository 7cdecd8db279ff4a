package org.rubis.client.heap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reading GC.class_histogram's output and the per-class growth that bench scale reports. */
class HeapPerUserTest {

    private static final String WITH_USERS = """
             num     #instances         #bytes  class name (module)
            -------------------------------------------------------
               1:         48850        7902656  [B (java.base@25.0.3)
               2:          2000         176000  org.rubis.client.backend.NettySession
               3:          5871         375744  io.netty.util.concurrent.ScheduledFutureTask
               4:            10            160  com.example.Same
               5:            12          77448  [Ljdk.internal.vm.FillerElement; (java.base@25.0.3)
            Total         56743        8532008
            """;
    private static final String AFTER = """
             num     #instances         #bytes  class name (module)
            -------------------------------------------------------
               1:         47850        7700000  [B (java.base@25.0.3)
               2:            10            160  com.example.Same
               3:          3871         247744  io.netty.util.concurrent.ScheduledFutureTask
            Total         51731        7947904
            """;

    @Test
    void readsTheRowsAndTotalsThemWithoutG1Fillers() {
        assertEquals(8_454_560L, HeapPerUser.total(WITH_USERS));
        Map<String, HeapPerUser.Row> rows = HeapPerUser.parse(WITH_USERS);
        assertEquals(5, rows.size());
        assertEquals(
                new HeapPerUser.Row("org.rubis.client.backend.NettySession", 2000, 176_000),
                rows.get("org.rubis.client.backend.NettySession"));
    }

    @Test
    void perUserClassesAreTheGrowthLargestFirst() {
        List<HeapPerUser.Row> top = HeapPerUser.perUser(HeapPerUser.parse(WITH_USERS), HeapPerUser.parse(AFTER), 3);
        assertEquals(
                List.of(
                        new HeapPerUser.Row("[B", 1000, 202_656),
                        new HeapPerUser.Row("org.rubis.client.backend.NettySession", 2000, 176_000),
                        new HeapPerUser.Row("io.netty.util.concurrent.ScheduledFutureTask", 2000, 128_000)),
                top);
    }

    @Test
    void outputWithoutRowsIsAnError() {
        assertThrows(IllegalStateException.class, () -> HeapPerUser.parse("Error: no such command"));
        assertThrows(IllegalStateException.class, () -> HeapPerUser.total("Error: no such command"));
    }

    @Test
    void theUsersAreMeasuredOutsideTheRunPhase() {
        long s = 1_000_000_000L;
        assertEquals(42 * s, HeapPerUser.usersInstant(10 * s, 40 * s, 55 * s), "2 s into the down ramp");
        assertEquals(5 * s, HeapPerUser.usersInstant(2 * s, 4 * s, 6 * s), "half-way into a short one");
        assertEquals(
                3 * s, HeapPerUser.usersInstant(2 * s, 4 * s, 4 * s), "no down ramp: 1 s before the end of the run");
    }
}
