package org.rubis.analysis.wire;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;
import org.rubis.analysis.io.AnalysisException;

/**
 * A pcap file read while it is written (a run's own capture, for the live join): each {@link #read} hands on the
 * records appended since the last one, complete records only (a record still being written is read next time), with
 * the same decoding as {@link PcapReader}.
 */
final class PcapTail implements AutoCloseable {

    private final Path file;
    private FileChannel channel;
    private PcapReader.Format format;
    private ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
    private long records;

    PcapTail(Path file) {
        this.file = file;
        buffer.flip(); // empty, ready to be read from
    }

    /** Hands the TCP segments of every complete record appended since the last call to {@code out}. */
    void read(Consumer<TcpSegment> out) {
        try {
            if (channel == null) {
                if (!Files.isRegularFile(file)) {
                    return;
                }
                channel = FileChannel.open(file, StandardOpenOption.READ);
            }
            while (fill()) {
                if (format == null) {
                    if (buffer.remaining() < 24) {
                        continue;
                    }
                    byte[] gh = new byte[24];
                    buffer.get(gh);
                    format = PcapReader.Format.of(gh, file);
                }
                records(out);
            }
        } catch (IOException e) {
            throw new AnalysisException(file + ": cannot read (" + e.getMessage() + ")");
        }
    }

    /** Reads what the file has beyond the buffer; false when nothing new came. */
    private boolean fill() throws IOException {
        buffer.compact();
        if (!buffer.hasRemaining()) {
            buffer = ByteBuffer.allocate(buffer.capacity() * 2).put(buffer.flip());
        }
        int n = channel.read(buffer);
        buffer.flip();
        return n > 0;
    }

    private void records(Consumer<TcpSegment> out) {
        byte[] rh = new byte[16];
        byte[] data = new byte[0];
        while (buffer.remaining() >= 16) {
            buffer.mark();
            buffer.get(rh);
            int caplen = format.capturedLength(rh);
            if (caplen < 0 || caplen > PcapReader.MAX_RECORD) {
                throw new AnalysisException(file + ": a record of " + caplen + " bytes: not a pcap record");
            }
            if (buffer.remaining() < caplen) {
                buffer.reset(); // the rest of the record is still being written
                if (buffer.capacity() < caplen + 16) {
                    buffer = ByteBuffer.allocate(caplen + 16 + buffer.capacity())
                            .put(buffer)
                            .flip();
                }
                return;
            }
            if (data.length < caplen) {
                data = new byte[Math.max(caplen, 2048)];
            }
            buffer.get(data, 0, caplen);
            records++;
            TcpSegment s =
                    PcapReader.decode(data, caplen, format.originalLength(rh), format.linkType(), format.epochNs(rh));
            if (s != null) {
                out.accept(s);
            }
        }
    }

    /** Records read so far. */
    long records() {
        return records;
    }

    @Override
    public void close() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // read-only
            }
        }
    }
}
