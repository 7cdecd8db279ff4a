package org.rubis.client.report;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.io.BufferedWriter;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import org.rubis.format.io.RegularFile;
import org.rubis.format.run.Columns;
import org.rubis.format.run.RunFiles;

/**
 * The client JVM's garbage collections while it measures: each collection into {@code client-gc.csv} as the JVM
 * notifies it, and the pauses over the monitor's window from the notifications and the collectors' own counters
 * together ({@link GcPauses}, {@link GcTotals}).
 */
final class GcWatch implements AutoCloseable {

    /**
     * The collections of the window.
     *
     * @param totals             the collectors' counters from the window's start to its end
     * @param pauses             count, total and longest pause (notifications, counters for what they missed)
     * @param windowStartEpochMs the window's start (the monitor's)
     * @param windowEndEpochMs   its end (the monitor's close; now while open)
     */
    record Figures(GcTotals totals, GcPauses.Figures pauses, long windowStartEpochMs, long windowEndEpochMs) {}

    private final BufferedWriter log;
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final NotificationListener listener = this::onGc;
    /** Names of the heap's memory pools: a collection's heap-after is their sum (the rest is metaspace, code). */
    private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP)
            .map(MemoryPoolMXBean::getName)
            .collect(Collectors.toUnmodifiableSet());

    /** The JVM's start: a collection's end time is counted from it. */
    private final long jvmStartEpochMs = ManagementFactory.getRuntimeMXBean().getStartTime();

    private final long startEpochMs;
    private final GcTotals atStart;
    private volatile GcTotals atEnd;
    private volatile long endEpochMs;
    /** The pauses client-gc.csv logged (the notification thread's view: may miss some, see GcPauses). */
    private final GcPauses notified = new GcPauses();

    GcWatch(Path dir) throws IOException {
        this.log = Files.newBufferedWriter(RegularFile.fresh(RunFiles.clientGc(dir)), StandardCharsets.UTF_8);
        log.write(Columns.header(Columns.CLIENT_GC) + "\n");
        log.flush(); // the header on disk at once: a kill -9'd run leaves a file the analysis can read
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter e) {
                e.addNotificationListener(listener, null, null);
                emitters.add(e);
            }
        }
        Stamped start = Stamped.now();
        atStart = start.totals();
        startEpochMs = start.epochMs();
    }

    /**
     * The collectors' totals and the wall-clock instant they hold at: read until two readings of the totals agree
     * around the instant, so a collection the totals leave out ended after it and one they count ended before it
     * (reading the counters allocates, which can itself start a collection when the heap is full).
     */
    private record Stamped(GcTotals totals, long epochMs) {
        static Stamped now() {
            GcTotals before = GcTotals.now();
            for (int i = 0; ; i++) {
                long at = System.currentTimeMillis();
                GcTotals after = GcTotals.now();
                if (after.equals(before) || i == 10) {
                    return new Stamped(before, at);
                }
                before = after;
            }
        }
    }

    private void onGc(Notification n, Object handback) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
            return;
        }
        GarbageCollectionNotificationInfo info =
                GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
        long ms = info.getGcInfo().getDuration();
        notified.record(info.getGcName(), ms);
        long endEpoch = jvmStartEpochMs + info.getGcInfo().getEndTime();
        long heapAfter = 0;
        for (var e : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(e.getKey())) {
                heapAfter += Math.max(0, e.getValue().getUsed());
            }
        }
        synchronized (log) {
            try {
                log.write(endEpoch + "," + ms + "," + info.getGcName().replace(',', ' ') + ","
                        + info.getGcAction().replace(',', ' ') + ","
                        + info.getGcCause().replace(',', ' ') + "," + heapAfter + "\n");
                log.flush(); // a pause is rare; a killed run keeps every one
            } catch (IOException ignored) {
                // best effort
            }
        }
    }

    /** Ends the window: the counters stop, later notifications change nothing; then closes client-gc.csv. */
    @Override
    public void close() {
        Stamped end = Stamped.now();
        endEpochMs = end.epochMs();
        atEnd = end.totals();
        notified.close(); // the same window as the counters'

        for (NotificationEmitter e : emitters) {
            try {
                e.removeNotificationListener(listener);
            } catch (Exception ignored) {
                // already gone
            }
        }
        try {
            synchronized (log) {
                log.close();
            }
        } catch (IOException ignored) {
            // best effort
        }
    }

    /** The collectors' own totals from the window's start to its end (to now while open). */
    GcTotals totals() {
        GcTotals end = atEnd;
        return (end != null ? end : GcTotals.now()).since(atStart);
    }

    /** The stop-the-world pauses of the window: count, total and longest from one source (GcPauses). */
    GcPauses.Figures pauses() {
        return notified.figures(totals());
    }

    long windowStartEpochMs() {
        return startEpochMs;
    }

    long windowEndEpochMs() {
        return atEnd != null ? endEpochMs : System.currentTimeMillis();
    }

    /** Pauses client-gc.csv holds; fewer than the counters' when notifications were lost. */
    long logged() {
        return notified.notified();
    }

    Figures figures() {
        return new Figures(totals(), pauses(), windowStartEpochMs(), windowEndEpochMs());
    }
}
