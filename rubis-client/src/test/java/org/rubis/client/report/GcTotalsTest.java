package org.rubis.client.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.management.ListenerNotFoundException;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The summary's GC totals must not depend on the JVM's GC notifications arriving: under heap
 * pressure the notification thread falls behind or drops them. Here a listener that blocks holds
 * that thread, as a starved notification thread would, while the test collects.
 */
class GcTotalsTest {

    @TempDir
    Path dir;

    /**
     * Holds the JVM's GC notification thread from the next notification on, as a starved notification thread
     * would, until closed: a listener that blocks in every collector's emitter.
     */
    private static final class HeldNotifications implements AutoCloseable {
        final CountDownLatch holding = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);
        private final List<NotificationEmitter> emitters = new ArrayList<>();
        private final NotificationListener blocker = (n, h) -> {
            holding.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };

        HeldNotifications() {
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                if (gc instanceof NotificationEmitter e) {
                    e.addNotificationListener(blocker, null, null);
                    emitters.add(e);
                }
            }
        }

        void release() {
            release.countDown();
        }

        @Override
        public void close() throws ListenerNotFoundException {
            release.countDown();
            for (NotificationEmitter e : emitters) {
                e.removeNotificationListener(blocker);
            }
        }
    }

    @Test
    void pausesCountEvenWhenTheirNotificationsAreHeldBack() throws Exception {
        try (HeldNotifications held = new HeldNotifications();
                ClientHealth health = new ClientHealth(dir, () -> 0, () -> 0)) {
            System.gc(); // its notification reaches the blocker, which then holds the notification thread
            assertTrue(held.holding.await(10, TimeUnit.SECONDS), "the JVM notified the first collection");
            GcTotals before = health.figures().gc().totals();
            for (int i = 0; i < 5; i++) {
                System.gc();
            }
            GcTotals g = health.figures().gc().totals();
            assertTrue(g.pauses() - before.pauses() >= 5, "every collection counted: " + before + " then " + g);
            assertTrue(g.pauseMs() >= before.pauseMs());
            assertTrue(
                    health.figures().gc().pauses().notified() < g.pauses(),
                    "the held-back notifications are not logged yet: "
                            + health.figures().gc().pauses().notified() + " logged of " + g.pauses());
            assertTrue(
                    health.figures().gc().pauses().longestMs() >= g.pauseMs() / g.pauses(),
                    "the longest pause is at least the mean of those missed: "
                            + health.figures().gc().pauses().longestMs() + " ms, " + g);
        }
    }

    @Test
    void theTotalsStopAtTheClose() throws Exception {
        try (HeldNotifications held = new HeldNotifications()) {
            ClientHealth health = new ClientHealth(dir, () -> 0, () -> 0);
            for (int i = 0; i < 3; i++) {
                System.gc();
            }
            health.close();
            GcTotals g = health.figures().gc().totals();
            assertTrue(g.pauses() >= 3, g.toString());
            assertEquals(g, health.figures().gc().totals(), "closed: the totals stop at the close");
            held.release();
            Thread.sleep(200);
            assertEquals(g, health.figures().gc().totals(), "notifications that come after the close change nothing");
            List<String> csv = Files.readAllLines(dir.resolve("client-gc.csv"));
            assertTrue(csv.size() - 1 < g.pauses(), "client-gc.csv missed the held-back pauses: " + csv);
        }
    }

    @Test
    void onlyConcurrentCyclesAreNotPauses() {
        assertTrue(GcTotals.isPause("G1 Young Generation"));
        assertTrue(GcTotals.isPause("G1 Concurrent GC"), "G1's Remark and Cleanup pauses");
        assertTrue(GcTotals.isPause("ZGC Major Pauses"));
        assertTrue(GcTotals.isPause("MarkSweepCompact"));
        assertTrue(!GcTotals.isPause("ZGC Minor Cycles") && !GcTotals.isPause("Shenandoah Cycles"));
    }
}
