package org.rubis.client.engine;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.ThreadMXBean;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.rubis.client.report.SummarySection;
import org.rubis.format.io.AtomicFile;
import org.rubis.format.run.RunFiles;

/**
 * Evidence for a run whose sessions do not end after its stop. Once the end-of-run wait has lasted
 * {@code after} with sessions still active, it writes what the threads were doing: the busiest
 * threads of the next second with their stacks, every platform thread's stack grouped by identical
 * stacks (4,000 user threads read as a few lines), and the JVM's own dump with virtual threads. A run
 * on 2026-11-25 kept 1,470 sessions and 2 cores busy for two minutes after its stop and never did it
 * again; without a dump taken during the stall, its cause stayed unknown.
 */
final class EndOfRunWatch implements RunObserver, AutoCloseable {

    /** How long the end-of-run wait may last before the threads are dumped (or half the wait when shorter). */
    static final long AFTER_NS = TimeUnit.SECONDS.toNanos(10);

    private static final long BUSY_WINDOW_NS = TimeUnit.SECONDS.toNanos(1);
    private static final int BUSIEST = 8;
    private static final int FRAMES = 40;

    private final Path dir;
    private final LongSupplier activeSessions;
    private final long afterNs;
    private final PrintStream err;
    private final Thread thread;
    private volatile boolean closed;
    private volatile ObjectNode found;
    private volatile String text;
    /** Sessions still active when the end-of-run wait ended (-1 until then): 0 when the stalled ones ended in it. */
    private volatile long activeAtClose = -1;

    /**
     * @param graceNs the end-of-run wait: the dump comes after {@link #AFTER_NS}, or half the wait when shorter
     */
    EndOfRunWatch(Path dir, LongSupplier activeSessions, long graceNs, PrintStream err) {
        this.dir = dir;
        this.activeSessions = activeSessions;
        this.afterNs = Math.min(AFTER_NS, Math.max(1, graceNs / 2));
        this.err = err;
        this.thread = new Thread(this::watch, "end-of-run-watch");
        thread.setDaemon(true);
    }

    EndOfRunWatch start() {
        thread.start();
        return this;
    }

    private void watch() {
        long deadline = System.nanoTime() + afterNs;
        for (long left; (left = deadline - System.nanoTime()) > 0; ) {
            if (closed) {
                return;
            }
            LockSupport.parkNanos(this, left);
        }
        long active = activeSessions.getAsLong();
        if (closed || active <= 0) {
            return;
        }
        try {
            record(active);
        } catch (IOException | RuntimeException e) {
            err.println("warning: sessions still active " + seconds(afterNs)
                    + " s after the run's end, and their threads could not be dumped: " + e);
        } catch (OutOfMemoryError e) {
            // no heap for the evidence: the run's own out-of-memory handling says the rest
        }
    }

    private void record(long active) throws IOException {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long[] ids = threads.getAllThreadIds();
        long[] cpu0 = threads.getThreadCpuTime(ids);
        long t0 = System.nanoTime();
        // The window stays whole even when the sessions end in it (close() unparks this thread): its figures are per
        // second.
        for (long left; (left = t0 + BUSY_WINDOW_NS - System.nanoTime()) > 0; ) {
            LockSupport.parkNanos(left);
        }
        long[] cpu1 = threads.getThreadCpuTime(ids);
        double window = (System.nanoTime() - t0) / 1e9;
        List<long[]> busy = new ArrayList<>(); // {index, cpu ns}
        long cpuSum = 0;
        for (int i = 0; i < ids.length; i++) {
            if (cpu0[i] >= 0 && cpu1[i] >= 0) {
                cpuSum += cpu1[i] - cpu0[i];
                busy.add(new long[] {i, cpu1[i] - cpu0[i]});
            }
        }
        busy.sort(Comparator.comparingLong((long[] b) -> b[1]).reversed());
        double cores = cpuSum / 1e9 / window;
        StringBuilder b = new StringBuilder();
        b.append(String.format(
                Locale.ROOT,
                "%d sessions still active %s s after the run's end (the end-of-run wait); the client's threads used "
                        + "%.2f cores in the next %.1f s%n",
                active,
                seconds(afterNs),
                cores,
                window));
        busiest(b, threads, ids, busy);
        byStack(b, threads, ids);
        AtomicFile.writeString(dir.resolve(RunFiles.END_OF_RUN_STALL), b.toString());
        Path full = dir.resolve(RunFiles.END_OF_RUN_THREADS).toAbsolutePath();
        Files.deleteIfExists(full);
        ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .dumpThreads(full.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.TEXT_PLAIN);
        ObjectNode j = JsonNodeFactory.instance.objectNode();
        j.put("after_s", afterNs / 1e9);
        j.put("active_sessions", active);
        j.put("busy_cores", Math.round(cores * 100) / 100.0);
        j.put("threads", ids.length);
        j.putArray("files").add(RunFiles.END_OF_RUN_STALL).add(RunFiles.END_OF_RUN_THREADS);
        text = String.format(
                Locale.ROOT,
                "End-of-run stall:        %d sessions still active %s s after the run's end (%.2f cores busy); threads"
                        + " in %s, %s",
                active,
                seconds(afterNs),
                cores,
                RunFiles.END_OF_RUN_STALL,
                RunFiles.END_OF_RUN_THREADS);
        found = j;
        err.println("warning: " + active + " sessions still active " + seconds(afterNs)
                + " s after the run's end; their threads are in " + dir.resolve(RunFiles.END_OF_RUN_STALL) + " and "
                + dir.resolve(RunFiles.END_OF_RUN_THREADS));
    }

    /** The busiest threads of the window ({index, cpu ns}, busiest first) with their stacks. */
    private static void busiest(StringBuilder b, ThreadMXBean threads, long[] ids, List<long[]> busy) {
        b.append(String.format(Locale.ROOT, "%nBusiest threads in that second (CPU ms):%n"));
        for (long[] x : busy.subList(0, Math.min(BUSIEST, busy.size()))) {
            if (x[1] < TimeUnit.MILLISECONDS.toNanos(10)) {
                break;
            }
            ThreadInfo info = threads.getThreadInfo(ids[(int) x[0]], FRAMES);
            if (info != null) {
                b.append(String.format(
                        Locale.ROOT,
                        "%n%.0f ms  \"%s\" %s%n",
                        x[1] / 1e6,
                        info.getThreadName(),
                        info.getThreadState()));
                for (StackTraceElement f : info.getStackTrace()) {
                    b.append("    at ").append(f).append('\n');
                }
            }
        }
    }

    /** Every platform thread, grouped by state and stack, the largest group first. */
    private static void byStack(StringBuilder b, ThreadMXBean threads, long[] ids) {
        Map<String, List<String>> groups = new LinkedHashMap<>();
        for (ThreadInfo info : threads.getThreadInfo(ids, FRAMES)) {
            if (info != null) {
                StringBuilder key = new StringBuilder(info.getThreadState().toString()).append('\n');
                for (StackTraceElement f : info.getStackTrace()) {
                    key.append("    at ").append(f).append('\n');
                }
                groups.computeIfAbsent(key.toString(), k -> new ArrayList<>()).add(info.getThreadName());
            }
        }
        List<Map.Entry<String, List<String>>> sorted = new ArrayList<>(groups.entrySet());
        sorted.sort(Comparator.comparingInt(
                        (Map.Entry<String, List<String>> e) -> e.getValue().size())
                .reversed());
        b.append(String.format(
                Locale.ROOT,
                "%nPlatform threads grouped by stack (%d threads, %d stacks; virtual threads are in %s):%n",
                ids.length,
                sorted.size(),
                RunFiles.END_OF_RUN_THREADS));
        for (Map.Entry<String, List<String>> e : sorted) {
            List<String> names = e.getValue();
            b.append(String.format(
                    Locale.ROOT,
                    "%n%d thread%s, e.g. \"%s\": %s",
                    names.size(),
                    names.size() == 1 ? "" : "s",
                    names.get(0),
                    e.getKey()));
        }
    }

    private static String seconds(long ns) {
        return String.format(Locale.ROOT, "%.1f", ns / 1e9);
    }

    /** The sessions have ended or the wait is over: no dump from now on, and one being written is finished first. */
    @Override
    public void close() {
        if (!closed) {
            activeAtClose = activeSessions.getAsLong();
        }
        closed = true;
        LockSupport.unpark(thread);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public SummarySection summarySection(Path runDir) {
        ObjectNode found = this.found;
        if (found == null) {
            return null;
        }
        ObjectNode j = found.deepCopy();
        long left = activeAtClose;
        j.put("active_sessions_when_the_wait_ended", left);
        String t = text
                + (left == 0
                        ? "; all ended within the end-of-run wait"
                        : left > 0 ? "; " + left + " still active when the wait ended (logged stuck)" : "")
                + "\n";
        return new Section("end_of_run_stall", j, t, null);
    }
}
