package org.rubis.client.report;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * The JVM's own running totals of its collectors, read from their MXBeans. The per-pause GC
 * notifications that fill {@code client-gc.csv} are built in Java on the JVM's notification
 * thread, so under heap pressure they arrive late or not at all: a 64 MB client with 6,000
 * threads logged 20 of its 71 collections (1.25 of 5.6 s paused). These counters are kept by the
 * collector itself and miss nothing: the summary's pauses ({@link GcPauses}) take the notified
 * durations and add, from here, the pauses the notifications missed and their remaining time.
 *
 * @param collections every collection, concurrent cycles included
 * @param timeMs      the collectors' accumulated time, a concurrent cycle's running time included
 * @param pauses      collections that stopped the application
 * @param pauseMs     the time they stopped it
 */
public record GcTotals(long collections, long timeMs, long pauses, long pauseMs) {

    /**
     * Whether a collector's collections stop the application. Only the concurrent collectors'
     * "Cycles" beans (ZGC, Shenandoah) count work done beside it; their pauses have beans of their
     * own ("... Pauses"), and G1's "G1 Concurrent GC" bean counts its Remark and Cleanup pauses.
     */
    public static boolean isPause(String collectorName) {
        return !collectorName.contains("Cycles");
    }

    /** The totals since the JVM started. */
    public static GcTotals now() {
        long c = 0;
        long t = 0;
        long p = 0;
        long pt = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            long count = Math.max(0, gc.getCollectionCount());
            long time = Math.max(0, gc.getCollectionTime());
            c += count;
            t += time;
            if (isPause(gc.getName())) {
                p += count;
                pt += time;
            }
        }
        return new GcTotals(c, t, p, pt);
    }

    /** What happened between {@code start} and these totals. */
    public GcTotals since(GcTotals start) {
        return new GcTotals(
                collections - start.collections, timeMs - start.timeMs, pauses - start.pauses, pauseMs - start.pauseMs);
    }
}
