package org.rubis.client.wire;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a finished capture saw and lost. Any kernel or interface drop, or a file that could not be written whole (a
 * full disk: libpcap counts no drop for the packets its writes lost), makes the wire check incomplete: a request
 * whose packets are missing cannot be checked, so the caller must say so rather than trust it.
 *
 * @param file              the pcap file written
 * @param interfaceName     the interface captured on
 * @param filter            the BPF filter
 * @param snapLength        bytes kept per packet
 * @param bufferBytes       kernel buffer asked for
 * @param packetsWritten    packets in the file (counted in the file after it was closed)
 * @param fileWhole         false when a write of the file failed or it ends inside a packet's record
 * @param packetsReceived   pcap_stats ps_recv: packets that passed the filter (libpcap's count)
 * @param kernelDrops       pcap_stats ps_drop: dropped because the buffer was full
 * @param interfaceDrops    pcap_stats ps_ifdrop: dropped by the interface or its driver
 * @param start             wall-clock instant the capture was active (before the first request)
 * @param stop              wall-clock instant the capture was stopped (after the last request)
 */
public record CaptureStats(
        Path file,
        String interfaceName,
        String filter,
        int snapLength,
        int bufferBytes,
        long packetsWritten,
        boolean fileWhole,
        long packetsReceived,
        long kernelDrops,
        long interfaceDrops,
        Instant start,
        Instant stop) {

    /** True when the capture holds every packet that matched the filter: no drop, and the file written whole. */
    public boolean complete() {
        return kernelDrops == 0 && interfaceDrops == 0 && fileWhole;
    }

    /** The content of `capture-stats.json` (format in docs/RUN-DIRECTORY.md). */
    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("file", file.getFileName().toString());
        m.put("interface", interfaceName);
        m.put("filter", filter);
        m.put("snap_length", snapLength);
        m.put("buffer_bytes", bufferBytes);
        m.put("packets_written", packetsWritten);
        m.put("file_whole", fileWhole);
        m.put("packets_received", packetsReceived);
        m.put("kernel_drops", kernelDrops);
        m.put("interface_drops", interfaceDrops);
        m.put("complete", complete());
        m.put("start", start.toString());
        m.put("stop", stop.toString());
        m.put("start_epoch_ns", epochNanos(start));
        m.put("stop_epoch_ns", epochNanos(stop));
        return m;
    }

    /** Writes {@link #toJson()} to the given file (normally RUN_DIR/capture-stats.json). */
    public void writeJson(Path target) throws IOException {
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(target.toFile(), toJson());
    }

    private static long epochNanos(Instant i) {
        return i.getEpochSecond() * 1_000_000_000L + i.getNano();
    }
}
