package org.rubis.client.report;

import com.sun.management.OperatingSystemMXBean;
import com.sun.management.UnixOperatingSystemMXBean;
import java.io.BufferedWriter;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.rubis.format.io.RegularFile;
import org.rubis.format.run.Columns;
import org.rubis.format.run.RunFiles;

/**
 * The client's one timer thread while it measures: every 100 ms a wake-up of the {@link WakeupProbe}, every
 * second a line of {@code client-health.csv} (the process's CPU, heap, threads, sessions and requests, the host's
 * other load, the embedded server's CPU), whose figures it adds up for the summary ({@link HostLoad}).
 */
final class HealthSampler implements AutoCloseable {

    /**
     * What the samples saw over the run; NaN when unknown (no /proc, no embedded server, no sample).
     *
     * @param peakCpuCores    the client's largest one-second CPU
     * @param peakHeapBytes   the largest heap in use at a sample
     * @param otherCores      mean cores used by processes other than the client and the embedded server
     * @param peakOtherCores  their largest one-second figure
     * @param stealCores      mean cores stolen by the hypervisor
     * @param procsRunning    mean runnable threads on the whole machine
     * @param serverCores     mean cores used by the embedded server
     * @param watchesServer   whether the server was sampled at all (the embedded one, or the target's processes)
     * @param serverName      what the server's figure is of: "the embedded server", or the target's processes by
     *                        name; null when none was watched
     * @param wakeupLateP99Ms p99 lateness of an idle thread's wake-ups in the client process: the machine's scheduling
     *                        delay
     */
    record HostLoad(
            double peakCpuCores,
            long peakHeapBytes,
            double otherCores,
            double peakOtherCores,
            double stealCores,
            double procsRunning,
            double serverCores,
            boolean watchesServer,
            double wakeupLateP99Ms,
            String serverName) {}

    /** Probe ticks per health sample: one sample a second. */
    private static final int TICKS_PER_SAMPLE = (int) (1_000_000_000L / WakeupProbe.PERIOD_NS);

    private final OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final BufferedWriter samples;
    private final Thread sampler;
    private final LongSupplier activeSessions;
    private final LongSupplier requests;
    private final long startNano;
    private final long startCpuNs;
    private final WakeupProbe wakeups = new WakeupProbe();
    private volatile boolean running = true;
    /** The embedded server's process (its CPU is the SERVER's evidence); null for an external target. */
    private volatile ProcessHandle server;
    /** An external target's processes on this host (their CPU is the SERVER's evidence), or null. */
    private volatile TargetProcesses target;
    /** Who else gets each second's sample (the live view), or null. */
    private volatile Consumer<HealthSample> listener;
    // Written by the sampler only.
    private volatile double peakCpuCores;
    private volatile long peakHeapBytes;
    private volatile int hostSamples;
    private volatile double hostOtherSum;
    private volatile double hostStealSum;
    private volatile double procsRunningSum;
    private volatile double peakHostOther;
    private volatile int serverSamples;
    private volatile double serverCpuSum;

    /** Starts sampling; {@code startNano} and {@code startCpuNs} are the process's figures at the monitor's start. */
    HealthSampler(Path dir, LongSupplier activeSessions, LongSupplier requests, long startNano, long startCpuNs)
            throws IOException {
        this.samples = Files.newBufferedWriter(RegularFile.fresh(RunFiles.clientHealth(dir)), StandardCharsets.UTF_8);
        samples.write(Columns.header(Columns.CLIENT_HEALTH) + "\n");
        samples.flush(); // the header on disk at once: a kill -9'd run leaves a file the analysis can read
        this.activeSessions = activeSessions;
        this.requests = requests;
        this.startNano = startNano;
        this.startCpuNs = startCpuNs;
        sampler = new Thread(this::run, "client-health");
        sampler.setDaemon(true);
        sampler.start();
    }

    /** Also samples the embedded server's CPU (its process id). */
    void watchServer(long pid) {
        server = ProcessHandle.of(pid).orElse(null);
    }

    /**
     * Also samples the CPU of an external target's processes on this host: the one listening on its port, those
     * named, and their children (null when there are none).
     */
    void watchTarget(TargetProcesses t) {
        target = t;
    }

    /** Hands every later sample to {@code l}, on this thread, after its line is written. */
    void listen(Consumer<HealthSample> l) {
        listener = l;
    }

    private static long cpuNs(ProcessHandle p) {
        if (p == null) {
            return -1;
        }
        long ns = ProcCpu.processNs(
                p.pid()); // one small read instead of ProcessHandle.info()'s several (and a user lookup)
        return ns >= 0 ? ns : p.info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
    }

    /** The previous sample's readings, to take differences from. */
    private static final class Last {
        long cpu;
        long nano;
        HostStat.Sample host;
        ProcessHandle server;
        long serverCpu;
    }

    private void run() {
        Last last = new Last();
        last.cpu = startCpuNs;
        last.nano = startNano;
        last.host = HostStat.sample();
        last.server = server;
        last.serverCpu = cpuNs(last.server);
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
            sample(last);
        }
    }

    /** One second's figures: added up, and a line of client-health.csv. */
    private void sample(Last last) {
        long cpu = os.getProcessCpuTime();
        long now = System.nanoTime();
        long dt = now - last.nano;
        double cores = (cpu - last.cpu) / (double) Math.max(1, dt);
        last.cpu = cpu;
        last.nano = now;
        peakCpuCores = Math.max(peakCpuCores, cores);
        long heap = memory.getHeapMemoryUsage().getUsed();
        peakHeapBytes = Math.max(peakHeapBytes, heap);
        HostStat.Sample host = HostStat.sample();
        HostStat.Interval hi =
                HostStat.between(last.host, host, Runtime.getRuntime().availableProcessors());
        last.host = host;
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
        if (srv != null && srv == last.server && serverCpu >= 0 && last.serverCpu >= 0) {
            serverCores = (serverCpu - last.serverCpu) / (double) Math.max(1, dt);
            serverSamples++;
            serverCpuSum += serverCores;
            // the server's CPU is not the client's neighbours': take it out of "other processes"
            if (!Double.isNaN(other)) {
                double corrected = Math.max(0, other - serverCores);
                hostOtherSum += corrected - other;
                other = corrected;
            }
        }
        TargetProcesses tp = target;
        if (srv == null && tp != null) {
            serverCores = tp.sample() / (double) Math.max(1, dt);
            serverSamples++;
            serverCpuSum += serverCores;
            if (!Double.isNaN(other)) {
                double corrected = Math.max(0, other - serverCores);
                hostOtherSum += corrected - other;
                other = corrected;
            }
        }
        last.server = srv;
        last.serverCpu = serverCpu;
        long fds = os instanceof UnixOperatingSystemMXBean u ? u.getOpenFileDescriptorCount() : -1;
        write(cores, heap, hi, other, host, serverCores, fds);
        Consumer<HealthSample> l = listener;
        if (l != null) {
            try {
                l.accept(new HealthSample(
                        System.currentTimeMillis(),
                        cores,
                        cpu / 1e9,
                        heap,
                        memory.getHeapMemoryUsage().getMax(),
                        threads.getThreadCount(),
                        activeSessions.getAsLong(),
                        fds,
                        GcTotals.now()));
            } catch (RuntimeException e) {
                System.err.println("warning: the live view failed on a health sample: " + e);
            }
        }
    }

    private void write(
            double cores,
            long heap,
            HostStat.Interval hi,
            double other,
            HostStat.Sample host,
            double serverCores,
            long fds) {
        try {
            // By hand, not String.format: sampled once a second, this code runs interpreted, where a Formatter is dear.
            StringBuilder b = new StringBuilder(128);
            b.append(System.currentTimeMillis()).append(',');
            fixed3(b, cores);
            b.append(',')
                    .append(heap)
                    .append(',')
                    .append(memory.getHeapMemoryUsage().getMax())
                    .append(',')
                    .append(threads.getThreadCount())
                    .append(',')
                    .append(activeSessions.getAsLong())
                    .append(',')
                    .append(requests.getAsLong())
                    .append(',');
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
        b.append(m / 1000)
                .append('.')
                .append(frac < 100 ? (frac < 10 ? "00" : "0") : "")
                .append(frac);
    }

    /** Asks the thread to stop; {@link #close} waits for it. */
    void stop() {
        running = false;
        sampler.interrupt();
    }

    /** Stops the thread, waits for it and closes client-health.csv. */
    @Override
    public void close() {
        stop();
        try {
            sampler.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            samples.close();
        } catch (IOException ignored) {
            // best effort
        }
    }

    HostLoad load() {
        boolean host = hostSamples > 0;
        return new HostLoad(
                peakCpuCores,
                Math.max(peakHeapBytes, memory.getHeapMemoryUsage().getUsed()),
                host ? hostOtherSum / hostSamples : Double.NaN,
                host ? peakHostOther : Double.NaN,
                host ? hostStealSum / hostSamples : Double.NaN,
                host ? procsRunningSum / hostSamples : Double.NaN,
                serverSamples == 0 ? Double.NaN : serverCpuSum / serverSamples,
                server != null || target != null,
                wakeups.p99Ms(),
                server != null
                        ? "the embedded server"
                        : target != null ? "the target's processes (" + target.words() + ")" : null);
    }
}
