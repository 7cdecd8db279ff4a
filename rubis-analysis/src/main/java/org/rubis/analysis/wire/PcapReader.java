package org.rubis.analysis.wire;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Consumer;
import org.rubis.analysis.io.AnalysisException;

/**
 * Reads classic pcap files (libpcap, tcpdump -w, tshark -F pcap; micro- or nanosecond timestamps, either
 * byte order; Ethernet, Linux cooked v1/v2, BSD loopback and raw IP links) and hands every IPv4/IPv6 TCP
 * segment to a consumer. Our own ~200 lines rather than pcap4j's offline handle: the analysis then needs
 * no native library and runs on any machine a capture is copied to. A file cut mid-record (a capture
 * killed while writing) is read up to the cut and reported as truncated; pcapng is refused with the
 * command that converts it.
 */
public final class PcapReader {
    static final int MAX_RECORD = 1 << 20;
    private static final int PAYLOAD_KEPT = 512;

    /** What the file held besides the segments. */
    public record Result(
            long records,
            long tcpSegments,
            long otherPackets,
            boolean truncated,
            boolean nanosecond,
            int linkType,
            int snapLength) {}

    private PcapReader() {}

    public static Result read(Path file, Consumer<TcpSegment> out) {
        try (InputStream raw = Files.newInputStream(file);
                InputStream in = new BufferedInputStream(raw, 1 << 16)) {
            byte[] gh = new byte[24];
            int n = in.readNBytes(gh, 0, 24);
            if (n < 24) {
                throw new AnalysisException(file + ": not a pcap file (" + n + " bytes, shorter than a pcap header)");
            }
            Format f = Format.of(gh, file);
            boolean nano = f.nano();
            int snap = f.snapLength();
            int link = f.linkType();
            byte[] rh = new byte[16];
            byte[] data = new byte[65536 + 64];
            long records = 0;
            long tcp = 0;
            long other = 0;
            while (true) {
                int r = in.readNBytes(rh, 0, 16);
                if (r == 0) {
                    return new Result(records, tcp, other, false, nano, link, snap);
                }
                if (r < 16) {
                    return new Result(records, tcp, other, true, nano, link, snap);
                }
                int caplen = f.capturedLength(rh);
                int origlen = f.originalLength(rh);
                if (caplen < 0 || caplen > MAX_RECORD) {
                    return new Result(records, tcp, other, true, nano, link, snap);
                }
                if (caplen > data.length) {
                    data = new byte[caplen];
                }
                if (in.readNBytes(data, 0, caplen) < caplen) {
                    return new Result(records, tcp, other, true, nano, link, snap);
                }
                records++;
                long ts = f.epochNs(rh);
                TcpSegment s = decode(data, caplen, origlen, link, ts);
                if (s == null) {
                    other++;
                } else {
                    tcp++;
                    out.accept(s);
                }
            }
        } catch (NoSuchFileException e) {
            throw new AnalysisException(
                    file + ": no such capture file; pass one with --pcap FILE or capture the run with run --capture");
        } catch (EOFException e) {
            throw new AnalysisException(file + ": ends inside its header: not a usable pcap file");
        } catch (IOException e) {
            throw new AnalysisException(file + ": cannot read (" + e.getMessage() + ")");
        }
    }

    /** What a pcap file's global header says: byte order, timestamp resolution, snap length, link type. */
    record Format(boolean little, boolean nano, int snapLength, int linkType) {

        /** Reads the 24-byte global header; a pcapng file, another file or an unsupported link is a one-line error. */
        static Format of(byte[] gh, Path file) {
            int magicBe = be32(gh, 0);
            boolean little;
            boolean nano;
            switch (magicBe) {
                case 0xa1b2c3d4 -> {
                    little = false;
                    nano = false;
                }
                case 0xa1b23c4d -> {
                    little = false;
                    nano = true;
                }
                case 0xd4c3b2a1 -> {
                    little = true;
                    nano = false;
                }
                case 0x4d3cb2a1 -> {
                    little = true;
                    nano = true;
                }
                case 0x0a0d0d0a ->
                    throw new AnalysisException(file
                            + ": a pcapng file; convert it to classic pcap first: editcap -F pcap " + file
                            + " capture.pcap");
                default ->
                    throw new AnalysisException(file + ": not a pcap file (magic number "
                            + String.format("%08x", magicBe)
                            + "); expected a capture written by rubis-client, tcpdump -w or tshark -F pcap");
            }
            int snap = i32(gh, 16, little);
            int link = i32(gh, 20, little) & 0xffff;
            if (link != 1
                    && link != 113
                    && link != 276
                    && link != 0
                    && link != 12
                    && link != 101
                    && link != 14
                    && link != 108) {
                throw new AnalysisException(file + ": link type " + link
                        + " is not supported (Ethernet, Linux cooked, loopback or raw IP captures are)");
            }
            return new Format(little, nano, snap, link);
        }

        /** A record header's timestamp, epoch ns. */
        long epochNs(byte[] rh) {
            long sec = i32(rh, 0, little) & 0xffffffffL;
            long frac = i32(rh, 4, little) & 0xffffffffL;
            return sec * 1_000_000_000L + (nano ? frac : frac * 1000);
        }

        int capturedLength(byte[] rh) {
            return i32(rh, 8, little);
        }

        int originalLength(byte[] rh) {
            return i32(rh, 12, little);
        }
    }

    /** The TCP segment in one frame, or null for anything else. */
    static TcpSegment decode(byte[] d, int caplen, int origlen, int link, long ts) {
        int off;
        int proto; // ethertype-like: 0x0800 IPv4, 0x86dd IPv6
        switch (link) {
            case 1 -> {
                if (caplen < 14) return null;
                off = 14;
                proto = be16(d, 12);
                while ((proto == 0x8100 || proto == 0x88a8) && caplen >= off + 4) {
                    proto = be16(d, off + 2);
                    off += 4;
                }
            }
            case 113 -> {
                if (caplen < 16) return null;
                off = 16;
                proto = be16(d, 14);
            }
            case 276 -> {
                if (caplen < 20) return null;
                off = 20;
                proto = be16(d, 0);
            }
            case 0, 108 -> {
                if (caplen < 4) return null;
                off = 4;
                proto = ipVersion(d, 4, caplen);
            }
            default -> {
                off = 0;
                proto = ipVersion(d, 0, caplen);
            }
        }
        int linkHeader = off;
        byte[] src;
        byte[] dst;
        int ipPayload; // bytes after the IP header, from the IP header
        if (proto == 0x0800) {
            if (caplen < off + 20 || (d[off] & 0xf0) != 0x40) return null;
            int ihl = (d[off] & 0x0f) * 4;
            int total = be16(d, off + 2);
            int fragment = be16(d, off + 6) & 0x1fff;
            if (d[off + 9] != 6 || fragment != 0 || ihl < 20 || caplen < off + ihl) return null;
            src = Arrays.copyOfRange(d, off + 12, off + 16);
            dst = Arrays.copyOfRange(d, off + 16, off + 20);
            // total length 0: a TSO/GSO super-frame seen before segmentation; the frame length tells the size
            ipPayload = (total == 0 ? origlen - linkHeader : total) - ihl;
            off += ihl;
        } else if (proto == 0x86dd) {
            if (caplen < off + 40 || d[off + 6] != 6) return null;
            src = Arrays.copyOfRange(d, off + 8, off + 24);
            dst = Arrays.copyOfRange(d, off + 24, off + 40);
            int plen = be16(d, off + 4);
            ipPayload = plen == 0 ? origlen - linkHeader - 40 : plen;
            off += 40;
        } else {
            return null;
        }
        if (caplen < off + 20) return null;
        int sport = be16(d, off);
        int dport = be16(d, off + 2);
        long seq = be32(d, off + 4) & 0xffffffffL;
        long ack = be32(d, off + 8) & 0xffffffffL;
        int thl = ((d[off + 12] & 0xf0) >> 4) * 4;
        int flags = d[off + 13] & 0x3f;
        if (thl < 20) return null;
        int payloadLength = Math.max(0, ipPayload - thl);
        int start = off + thl;
        int kept = Math.max(0, Math.min(Math.min(payloadLength, caplen - start), PAYLOAD_KEPT));
        byte[] payload = kept == 0 ? new byte[0] : Arrays.copyOfRange(d, start, start + kept);
        return new TcpSegment(ts, address(src), sport, address(dst), dport, seq, ack, flags, payloadLength, payload);
    }

    private static int ipVersion(byte[] d, int off, int caplen) {
        if (caplen <= off) return -1;
        int v = (d[off] & 0xf0) >> 4;
        return v == 4 ? 0x0800 : v == 6 ? 0x86dd : -1;
    }

    /** The address as Java prints it (getHostAddress), the form the client and server write in their logs. */
    private static String address(byte[] a) {
        if (a.length == 4) {
            return (a[0] & 0xff) + "." + (a[1] & 0xff) + "." + (a[2] & 0xff) + "." + (a[3] & 0xff);
        }
        try {
            return InetAddress.getByAddress(a).getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private static int be16(byte[] b, int o) {
        return (b[o] & 0xff) << 8 | (b[o + 1] & 0xff);
    }

    private static int be32(byte[] b, int o) {
        return (b[o] & 0xff) << 24 | (b[o + 1] & 0xff) << 16 | (b[o + 2] & 0xff) << 8 | (b[o + 3] & 0xff);
    }

    private static int i32(byte[] b, int o, boolean little) {
        return little
                ? (b[o + 3] & 0xff) << 24 | (b[o + 2] & 0xff) << 16 | (b[o + 1] & 0xff) << 8 | (b[o] & 0xff)
                : be32(b, o);
    }
}
