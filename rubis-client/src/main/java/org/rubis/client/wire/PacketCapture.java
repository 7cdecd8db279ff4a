package org.rubis.client.wire;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.pcap4j.core.BpfProgram;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapDumper;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapNetworkInterface;
import org.pcap4j.core.PcapStat;
import org.pcap4j.core.Pcaps;

/**
 * A live packet capture of the run's traffic, the independent truth the client's own timings are checked
 * against. libpcap's own loop writes every packet to the pcap file with its dumper on the capture's thread,
 * so no Java code runs per packet and nothing touches the request timing path; the kernel timestamps each
 * packet (nanosecond precision where libpcap supports it). Start it before the first request, stop it after
 * the last one returned.
 */
public final class PacketCapture implements AutoCloseable {
    private static final long DRAIN_POLL_MS = 20;
    private static final long DRAIN_MAX_MS = 2_000;

    private final CaptureSpec spec;
    private final String interfaceName;
    private final Path file;
    private final PcapHandle handle;
    private final PcapDumper dumper;
    private final Thread thread;
    private final Instant start;
    private volatile Throwable loopFailure;
    /** Set by the capture thread's flush, read by stop() (after a join that may time out). */
    private volatile boolean writeFailed;

    private CaptureStats stats;

    private PacketCapture(CaptureSpec spec, String interfaceName, Path file, PcapHandle handle, PcapDumper dumper) {
        this.spec = spec;
        this.interfaceName = interfaceName;
        this.file = file;
        this.handle = handle;
        this.dumper = dumper;
        this.start = Instant.now();
        this.thread = new Thread(this::loop, "rubis-capture");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /**
     * Opens the interface, installs the filter and starts writing to {@code pcapFile}. When this returns the
     * kernel is capturing: every later packet that matches the filter is in the file or counted as dropped.
     *
     * @throws CaptureException with a one-line message saying what to do (libpcap missing, no privilege,
     *                          unknown interface)
     */
    public static PacketCapture start(CaptureSpec spec, Path pcapFile) throws CaptureException {
        String library = PcapLibrary.configure();
        String nic = spec.resolveInterface();
        PcapHandle handle = null;
        try {
            PcapNetworkInterface dev = Pcaps.getDevByName(nic);
            if (dev == null) {
                throw new CaptureException(
                        CaptureException.Kind.NO_INTERFACE,
                        "capture: no network interface named '" + nic
                                + "' (see `ip link`); name an existing one or leave it unset for the one that reaches the target",
                        null);
            }
            handle = open(nic, spec, PcapHandle.TimestampPrecision.NANO);
            handle.setFilter(spec.filter(), BpfProgram.BpfCompileMode.OPTIMIZE);
            Path parent = pcapFile.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            PcapDumper dumper = handle.dumpOpen(pcapFile.toString());
            return new PacketCapture(spec, nic, pcapFile, handle, dumper);
        } catch (CaptureException e) {
            closeQuietly(handle);
            throw e;
        } catch (PcapNativeException | NotOpenException | IOException e) {
            closeQuietly(handle);
            throw classify(e, nic);
        } catch (LinkageError e) {
            closeQuietly(handle);
            throw new CaptureException(
                    CaptureException.Kind.LIBPCAP_MISSING,
                    "capture: libpcap cannot be loaded" + (library == null ? " (not found)" : " from " + library)
                            + ": install it (apt-get install libpcap0.8) or set -D" + PcapLibrary.PROPERTY
                            + "=/path/to/libpcap.so",
                    e);
        }
    }

    private static PcapHandle open(String nic, CaptureSpec spec, PcapHandle.TimestampPrecision precision)
            throws PcapNativeException {
        PcapHandle.Builder builder = new PcapHandle.Builder(nic)
                .snaplen(spec.snapLength())
                .promiscuousMode(PcapNetworkInterface.PromiscuousMode.NONPROMISCUOUS)
                .timeoutMillis(100)
                .bufferSize(spec.bufferBytes())
                .immediateMode(true)
                .timestampPrecision(precision);
        try {
            return builder.build();
        } catch (PcapNativeException e) {
            String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
            if (precision == PcapHandle.TimestampPrecision.NANO && m.contains("precision")) {
                return open(nic, spec, PcapHandle.TimestampPrecision.MICRO);
            }
            throw e;
        }
    }

    private static CaptureException classify(Exception e, String nic) {
        String m = String.valueOf(e.getMessage());
        String lower = m.toLowerCase(Locale.ROOT);
        if (lower.contains("permi") || lower.contains("not permitted")) {
            return new CaptureException(
                    CaptureException.Kind.NO_PRIVILEGE,
                    "capture: no permission to capture on "
                            + nic + ": run as root or grant the capability: setcap cap_net_raw,cap_net_admin+eip "
                            + ProcessHandle.current().info().command().orElse("$(readlink -f $(which java))"),
                    e);
        }
        if (lower.contains("no such device") || lower.contains("doesn't exist") || lower.contains("not exist")) {
            return new CaptureException(
                    CaptureException.Kind.NO_INTERFACE,
                    "capture: no network interface named '" + nic + "' (see `ip link`)",
                    e);
        }
        return new CaptureException(
                CaptureException.Kind.FAILED, "capture on " + nic + " failed: " + m.replace('\n', ' '), e);
    }

    private void loop() {
        try {
            handle.loop(-1, dumper);
        } catch (InterruptedException e) {
            // breakLoop(): the normal end
        } catch (Throwable t) {
            loopFailure = t;
        }
    }

    /** The kernel's counters while the capture runs: packets the filter accepted, dropped, dropped by the interface. */
    public record Counters(long received, long dropped, long interfaceDropped) {}

    /**
     * Writes what libpcap buffers to the file now, so that a reader of the growing file (the live join) sees the
     * packets so far; nothing once stopped.
     */
    public synchronized void flush() {
        if (stats != null) {
            return;
        }
        try {
            dumper.flush();
        } catch (PcapNativeException e) {
            writeFailed = true; // the disk refused what libpcap held: those packets are lost, counted as no drop
        } catch (NotOpenException e) {
            // the stop writes them
        }
    }

    /** The kernel's counters now (null once stopped, or when libpcap cannot say). */
    public synchronized Counters counters() {
        if (stats != null) {
            return null;
        }
        try {
            PcapStat s = handle.getStats();
            return new Counters(s.getNumPacketsReceived(), s.getNumPacketsDropped(), s.getNumPacketsDroppedByIf());
        } catch (PcapNativeException | NotOpenException e) {
            return null;
        }
    }

    /** The file being written. */
    public Path file() {
        return file;
    }

    /** The interface captured on. */
    public String interfaceName() {
        return interfaceName;
    }

    /**
     * Stops the capture once libpcap has written what the kernel still held (the file stops growing, at most
     * 2 s), closes the file and returns what was captured and dropped. Idempotent.
     */
    public synchronized CaptureStats stop() throws CaptureException {
        if (stats != null) {
            return stats;
        }
        try {
            drain();
            PcapStat pcapStat = null;
            try {
                pcapStat = handle.getStats();
            } catch (PcapNativeException | NotOpenException e) {
                // reported as unknown drops below
            }
            handle.breakLoop();
            thread.join(TimeUnit.SECONDS.toMillis(5));
            Instant stop = Instant.now();
            long written = -1;
            try {
                dumper.flush();
                written = dumper.ftell();
            } catch (PcapNativeException e) {
                writeFailed = true;
            } catch (NotOpenException e) {
                // close() flushes too
            }
            if (!thread.isAlive()) {
                dumper.close();
                handle.close();
            }
            PcapCount count = countPackets(file);
            boolean whole = !writeFailed && count.whole() && (written < 0 || fileSize() >= written);
            stats = new CaptureStats(
                    file,
                    interfaceName,
                    spec.filter(),
                    spec.snapLength(),
                    spec.bufferBytes(),
                    count.packets(),
                    whole,
                    pcapStat == null ? -1 : pcapStat.getNumPacketsReceived(),
                    pcapStat == null ? -1 : pcapStat.getNumPacketsDropped(),
                    pcapStat == null ? -1 : pcapStat.getNumPacketsDroppedByIf(),
                    start,
                    stop);
            if (loopFailure != null) {
                throw new CaptureException(
                        CaptureException.Kind.FAILED,
                        "capture on " + interfaceName + " failed while running: " + loopFailure.getMessage(),
                        loopFailure);
            }
            return stats;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CaptureException(CaptureException.Kind.FAILED, "capture: interrupted while stopping", e);
        } catch (NotOpenException e) {
            throw new CaptureException(CaptureException.Kind.FAILED, "capture: handle closed before stop", e);
        }
    }

    /** Waits until the file stops growing: the packets of the last exchange are written, not cut. */
    private void drain() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_MAX_MS);
        long last = -1;
        int stable = 0;
        while (System.nanoTime() < deadline && stable < 2) {
            long pos;
            try {
                pos = dumper.ftell();
            } catch (PcapNativeException | NotOpenException e) {
                return;
            }
            stable = pos == last ? stable + 1 : 0;
            last = pos;
            Thread.sleep(DRAIN_POLL_MS);
        }
    }

    /** Stops the capture if it still runs (for try-with-resources and error paths); never throws. */
    @Override
    public void close() {
        try {
            stop();
        } catch (CaptureException e) {
            // the caller that wanted the stats called stop() itself
        }
    }

    private long fileSize() {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return -1;
        }
    }

    /** Packets in a pcap file, and whether it ends with a whole record (a file cut by a full disk does not). */
    record PcapCount(long packets, boolean whole) {}

    /** Packets in a classic pcap file: walks the record headers (either byte order). */
    static PcapCount countPackets(Path pcap) {
        try (InputStream in = Files.newInputStream(pcap);
                DataInputStream data = new DataInputStream(new BufferedInputStream(in, 1 << 16))) {
            byte[] header = new byte[24];
            data.readFully(header);
            boolean little = (header[0] & 0xff) == 0xd4 || (header[0] & 0xff) == 0x4d;
            byte[] record = new byte[16];
            long count = 0;
            while (true) {
                int n = data.readNBytes(record, 0, record.length);
                if (n < record.length) {
                    return new PcapCount(count, n == 0);
                }
                long caplen = little
                        ? (record[8] & 0xffL)
                                | (record[9] & 0xffL) << 8
                                | (record[10] & 0xffL) << 16
                                | (record[11] & 0xffL) << 24
                        : (record[11] & 0xffL)
                                | (record[10] & 0xffL) << 8
                                | (record[9] & 0xffL) << 16
                                | (record[8] & 0xffL) << 24;
                try {
                    data.skipNBytes(caplen);
                } catch (EOFException e) {
                    return new PcapCount(count, false);
                }
                count++;
            }
        } catch (EOFException e) {
            return new PcapCount(0, false);
        } catch (IOException e) {
            return new PcapCount(-1, false);
        }
    }

    private static void closeQuietly(PcapHandle handle) {
        if (handle != null) {
            handle.close();
        }
    }
}
