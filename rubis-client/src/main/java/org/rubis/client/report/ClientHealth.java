package org.rubis.client.report;

import org.rubis.format.Columns;
import org.rubis.format.RegularFile;
import org.rubis.format.RunFiles;
import com.sun.management.GarbageCollectionNotificationInfo;
import java.io.BufferedWriter;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Watches the client's own JVM while it measures: process CPU, GC pauses, threads and heap,
 * sampled every second into {@code client-health.csv} (GC pauses into {@code client-gc.csv}),
 * so that a run in which the client was the bottleneck can say so.
 */
public final class ClientHealth implements AutoCloseable {

    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final BufferedWriter samples;
    private final BufferedWriter gcLog;
    private final Thread sampler;
    private final LongSupplier activeSessions;
    private final LongSupplier requests;
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final NotificationListener gcListener = this::onGc;
    /** Names of the heap's memory pools: a collection's heap-after is their sum (the rest is metaspace, code). */
    private final java.util.Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == java.lang.management.MemoryType.HEAP).map(java.lang.management.MemoryPoolMXBean::getName)
            .collect(java.util.stream.Collectors.toUnmodifiableSet());
    private final long startNano = System.nanoTime();
    private final long startCpuNs = os.getProcessCpuTime();
    private final long startEpochMs = System.currentTimeMillis();
    private final GcTotals gcAtStart;
    private volatile GcTotals gcAtEnd;
    private volatile long gcEndEpochMs;
    private volatile boolean running = true;
    private volatile double peakCpuCores;
    private volatile long peakHeapBytes;
    /** The pauses client-gc.csv logged (the notification thread's view: may miss some, see GcPauses). */
    private final GcPauses notifiedPauses = new GcPauses();
    private long endCpuNs = -1;
    private volatile long runStartCpuNs = -1;
    private volatile long runEndCpuNs = -1;
    /** The process's kernel CPU at the run phase's start and end (/proc ticks; -1 without /proc). */
    private volatile long runStartSystemNs = -1;
    private volatile long runEndSystemNs = -1;
    private final RunThreadCpu runThreadCpu = new RunThreadCpu();
    private volatile long runStartNano;
    private volatile long runEndNano;
    private long endNano;
    private volatile FixedCost fixedCost = FixedCost.NOT_MEASURED;
    /** The embedded server's process (its CPU is the SERVER's evidence); null for an external target. */
    private volatile ProcessHandle server;
    private final WakeupProbe wakeups = new WakeupProbe();
    /** Probe ticks per health sample: one sample a second. */
    private static final int TICKS_PER_SAMPLE = (int) (1_000_000_000L / WakeupProbe.PERIOD_NS);
    // Host and server figures, summed over the samples of the run (written by the sampler only).
    private volatile int hostSamples;
    private volatile double hostOtherSum;
    private volatile double hostStealSum;
    private volatile double procsRunningSum;
    private volatile double peakHostOther;
    private volatile int serverSamples;
    private volatile double serverCpuSum;

    public ClientHealth(Path dir, LongSupplier activeSessions, LongSupplier requests) throws IOException {
        this.samples = Files.newBufferedWriter(RegularFile.fresh(RunFiles.clientHealth(dir)), StandardCharsets.UTF_8);
        this.gcLog = Files.newBufferedWriter(RegularFile.fresh(RunFiles.clientGc(dir)), StandardCharsets.UTF_8);
        samples.write(Columns.header(Columns.CLIENT_HEALTH) + "\n");
        gcLog.write(Columns.header(Columns.CLIENT_GC) + "\n");
        samples.flush(); // headers on disk at once: a kill -9'd run leaves files the analysis can read
        gcLog.flush();
        this.activeSessions = activeSessions;
        this.requests = requests;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter e) {
                e.addNotificationListener(gcListener, null, null);
                emitters.add(e);
            }
        }
        gcAtStart = GcTotals.now();
        threads.resetPeakThreadCount();
        sampler = new Thread(this::sample, "client-health");
        sampler.setDaemon(true);
        sampler.start();
    }

    private void onGc(javax.management.Notification n, Object handback) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
            return;
        }
        GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
        long ms = info.getGcInfo().getDuration();
        notifiedPauses.record(info.getGcName(), ms);
        long endEpoch = startEpochMs + info.getGcInfo().getEndTime();
        long heapAfter = 0;
        for (var e : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(e.getKey())) {
                heapAfter += Math.max(0, e.getValue().getUsed());
            }
        }
        synchronized (gcLog) {
            try {
                gcLog.write(endEpoch + "," + ms + "," + info.getGcName().replace(',', ' ') + "," + info.getGcAction().replace(',', ' ') + ","
                        + info.getGcCause().replace(',', ' ') + "," + heapAfter + "\n");
                gcLog.flush(); // a pause is rare; a killed run keeps every one
            } catch (IOException ignored) {
                // best effort
            }
        }
    }

    /** Also samples the embedded server's CPU (its process id). */
    public void watchServer(long pid) {
        server = ProcessHandle.of(pid).orElse(null);
    }

    private static long cpuNs(ProcessHandle p) {
        if (p == null) {
            return -1;
        }
        long ns = ProcCpu.processNs(p.pid()); // one small read instead of ProcessHandle.info()'s several (and a user lookup)
        return ns >= 0 ? ns : p.info().totalCpuDuration().map(java.time.Duration::toNanos).orElse(-1L);
    }

    private void sample() {
        long lastCpu = startCpuNs;
        long lastNano = startNano;
        HostStat.Sample lastHost = HostStat.sample();
        ProcessHandle lastServer = server;
        long lastServerCpu = cpuNs(lastServer);
        int tick = 0;
        while (running) {
            // One timer thread for the wake-up probe (every 100 ms) and the health sample (every 10th tick):
            // each wake-up is part of the client's fixed cost.
            long t0 = System.nanoTime();
            try {
                Thread.sleep(WakeupProbe.PERIOD_NS / 1_000_000);
            } catch (InterruptedException e) {
                return;
            }
            wakeups.record(System.nanoTime() - t0);
            if (++tick < TICKS_PER_SAMPLE) {
                continue;
            }
            tick = 0;
            long cpu = os.getProcessCpuTime();
            long now = System.nanoTime();
            long dt = now - lastNano;
            double cores = (cpu - lastCpu) / (double) Math.max(1, dt);
            lastCpu = cpu;
            lastNano = now;
            peakCpuCores = Math.max(peakCpuCores, cores);
            long heap = memory.getHeapMemoryUsage().getUsed();
            peakHeapBytes = Math.max(peakHeapBytes, heap);
            HostStat.Sample host = HostStat.sample();
            HostStat.Interval hi = HostStat.between(lastHost, host, this.cores());
            lastHost = host;
            double other = Double.NaN;
            if (!Double.isNaN(hi.busyCores())) {
                other = Math.max(0, hi.busyCores() - cores);
                hostSamples++;
                hostOtherSum += other;
                hostStealSum += hi.stealCores();
                procsRunningSum += Math.max(0, host.procsRunning());
                peakHostOther = Math.max(peakHostOther, other);
            }
            ProcessHandle srv = server;
            long serverCpu = cpuNs(srv);
            double serverCores = Double.NaN;
            if (srv != null && srv == lastServer && serverCpu >= 0 && lastServerCpu >= 0) {
                serverCores = (serverCpu - lastServerCpu) / (double) Math.max(1, dt);
                serverSamples++;
                serverCpuSum += serverCores;
                // the server's CPU is not the client's neighbours': take it out of "other processes"
                if (!Double.isNaN(other)) {
                    double corrected = Math.max(0, other - serverCores);
                    hostOtherSum += corrected - other;
                    other = corrected;
                }
            }
            lastServer = srv;
            lastServerCpu = serverCpu;
            try {
                long fds = os instanceof com.sun.management.UnixOperatingSystemMXBean u ? u.getOpenFileDescriptorCount() : -1;
                // By hand, not String.format: sampled once a second, this code runs interpreted, where a Formatter is dear.
                StringBuilder b = new StringBuilder(128);
                b.append(System.currentTimeMillis()).append(',');
                fixed3(b, cores);
                b.append(',').append(heap).append(',').append(memory.getHeapMemoryUsage().getMax()).append(',').append(threads.getThreadCount())
                        .append(',').append(activeSessions.getAsLong()).append(',').append(requests.getAsLong()).append(',');
                fixed3(b, hi.busyCores());
                b.append(',');
                fixed3(b, other);
                b.append(',');
                fixed3(b, hi.stealCores());
                b.append(',');
                if (host.procsRunning() >= 0) {
                    b.append(host.procsRunning());
                }
                b.append(',');
                fixed3(b, host.load1());
                b.append(',');
                fixed3(b, serverCores);
                b.append(',').append(fds).append('\n');
                samples.append(b);
                samples.flush();
            } catch (IOException ignored) {
                // best effort
            }
        }
    }

    /** {@code v} with three decimals as {@code %.3f} prints it (nothing for NaN). */
    static void fixed3(StringBuilder b, double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return;
        }
        long m = Math.round(Math.abs(v) * 1000);
        if (v < 0 && m != 0) {
            b.append('-');
        }
        long frac = m % 1000;
        b.append(m / 1000).append('.').append(frac < 100 ? (frac < 10 ? "00" : "0") : "").append(frac);
    }

    /** Mean cores used by processes other than the client (and the embedded server); NaN when unknown. */
    public double hostOtherCpuCores() {
        return hostSamples == 0 ? Double.NaN : hostOtherSum / hostSamples;
    }

    public double peakHostOtherCpuCores() {
        return hostSamples == 0 ? Double.NaN : peakHostOther;
    }

    /** Mean cores stolen by the hypervisor; NaN when unknown. */
    public double hostStealCores() {
        return hostSamples == 0 ? Double.NaN : hostStealSum / hostSamples;
    }

    /** Mean runnable threads on the whole machine ({@code procs_running}); NaN when unknown. */
    public double procsRunningMean() {
        return hostSamples == 0 ? Double.NaN : procsRunningSum / hostSamples;
    }

    /** Mean cores used by the embedded server; NaN when there is none or it was not sampled. */
    public double serverCpuCores() {
        return serverSamples == 0 ? Double.NaN : serverCpuSum / serverSamples;
    }

    /** p99 lateness of an idle thread's wake-ups in the client process, ms: the machine's scheduling delay. */
    public double wakeupLateP99Ms() {
        return wakeups.p99Ms();
    }

    public boolean watchesServer() {
        return server != null;
    }

    /** Stops sampling; the figures below then cover the run. */
    @Override
    public void close() {
        if (!running) {
            return;
        }
        running = false;
        sampler.interrupt();
        endCpuNs = os.getProcessCpuTime();
        endNano = System.nanoTime();
        gcAtEnd = GcTotals.now();
        notifiedPauses.close(); // the same window as the counters'
        gcEndEpochMs = System.currentTimeMillis();
        for (NotificationEmitter e : emitters) {
            try {
                e.removeNotificationListener(gcListener);
            } catch (Exception ignored) {
                // already gone
            }
        }
        try {
            sampler.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            samples.close();
            synchronized (gcLog) {
                gcLog.close();
            }
        } catch (IOException ignored) {
            // best effort
        }
    }

    /** Marks the start of the run (measured) phase: CPU per request is reported for it alone. */
    public void markRunStart() {
        if (runStartCpuNs < 0) {
            runThreadCpu.markStart(threads.getThreadCount()); // before the process's reading: its own cost falls outside the phase
            runStartNano = System.nanoTime();
            runStartCpuNs = os.getProcessCpuTime();
            runStartSystemNs = ProcCpu.systemNs(ProcessHandle.current().pid());
        }
    }

    /** Marks the end of the run phase. */
    public void markRunEnd() {
        if (runStartCpuNs >= 0 && runEndCpuNs < 0) {
            runEndNano = System.nanoTime();
            runEndCpuNs = os.getProcessCpuTime();
            runEndSystemNs = ProcCpu.systemNs(ProcessHandle.current().pid());
            runThreadCpu.markEnd(); // after it, for the same reason
        }
    }

    /**
     * The run phase's CPU seconds by thread role (per-thread schedstat), or empty when not measured: no /proc, more
     * than {@value RunThreadCpu#MAX_THREADS} threads at the phase's start, or the phase did not end.
     */
    public java.util.Map<ThreadRole, Double> runCpuSecondsByRole() {
        return runThreadCpu.seconds();
    }

    /** CPU seconds used during the run phase (-1 if it was not reached). */
    public double runCpuSeconds() {
        if (runStartCpuNs < 0) {
            return -1;
        }
        long end = runEndCpuNs >= 0 ? runEndCpuNs : (endCpuNs >= 0 ? endCpuNs : os.getProcessCpuTime());
        return (end - runStartCpuNs) / 1e9;
    }

    /**
     * Kernel CPU seconds during the run phase (system calls, the network stack, page faults; -1 when the run
     * phase did not end or /proc is missing): what a client spends in the kernel per request is the part no
     * client-side code can cut, so a comparison with another load generator starts there.
     */
    public double runSystemCpuSeconds() {
        if (runStartSystemNs < 0 || runEndSystemNs < 0) {
            return -1;
        }
        return (runEndSystemNs - runStartSystemNs) / 1e9;
    }

    /** Seconds of the run phase (-1 if it was not reached). */
    public double runSeconds() {
        if (runStartCpuNs < 0) {
            return -1;
        }
        long endNanoTime = runEndCpuNs >= 0 ? runEndNano : (endCpuNs >= 0 ? endNano : System.nanoTime());
        return (endNanoTime - runStartNano) / 1e9;
    }

    /** Seconds from the start of sampling to its end (or now). */
    public double seconds() {
        return ((endCpuNs >= 0 ? endNano : System.nanoTime()) - startNano) / 1e9;
    }

    /** The fixed cost measured before the first request (see {@link FixedCost}). */
    public void fixedCost(FixedCost f) {
        fixedCost = f;
    }

    public FixedCost fixedCost() {
        return fixedCost;
    }

    /** Mean cores used during the run phase. */
    public double runCpuCores() {
        if (runStartCpuNs < 0) {
            return -1;
        }
        long endNanoTime = runEndCpuNs >= 0 ? runEndNano : (endCpuNs >= 0 ? endNano : System.nanoTime());
        return runCpuSeconds() * 1e9 / Math.max(1, endNanoTime - runStartNano);
    }

    public double meanCpuCores() {
        long cpu = endCpuNs >= 0 ? endCpuNs : os.getProcessCpuTime();
        long now = endCpuNs >= 0 ? endNano : System.nanoTime();
        return (cpu - startCpuNs) / (double) Math.max(1, now - startNano);
    }

    public double cpuSeconds() {
        long cpu = endCpuNs >= 0 ? endCpuNs : os.getProcessCpuTime();
        return (cpu - startCpuNs) / 1e9;
    }

    public double peakCpuCores() { return peakCpuCores; }
    public int cores() { return Runtime.getRuntime().availableProcessors(); }
    public int peakThreads() { return threads.getPeakThreadCount(); }
    public long peakHeapBytes() { return Math.max(peakHeapBytes, memory.getHeapMemoryUsage().getUsed()); }
    public long maxHeapBytes() { return memory.getHeapMemoryUsage().getMax(); }

    /** The collectors' own totals from this monitor's start to its close (to now while open). */
    public GcTotals gc() {
        GcTotals end = gcAtEnd;
        return (end != null ? end : GcTotals.now()).since(gcAtStart);
    }

    /** The wall-clock window {@link #gc()} covers: the monitor's start and close (now while open). */
    public long gcWindowStartEpochMs() { return startEpochMs; }
    public long gcWindowEndEpochMs() { return gcAtEnd != null ? gcEndEpochMs : System.currentTimeMillis(); }

    /** Pauses client-gc.csv holds; fewer than {@code gc().pauses()} when notifications were lost. */
    public long gcPausesLogged() { return notifiedPauses.notified(); }

    /** The stop-the-world pauses from this monitor's start to its close: count, total and longest from one source (GcPauses). */
    public GcPauses.Figures gcPauses() {
        return notifiedPauses.figures(gc());
    }

    /**
     * The longest pause, as far as it is known: the longest one logged, or the mean of those the
     * log missed when that is longer (the missed ones came under heap pressure, when pauses are long).
     */
    public long maxGcPauseMs() {
        return gcPauses().longestMs();
    }
}
