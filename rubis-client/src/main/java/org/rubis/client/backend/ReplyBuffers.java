package org.rubis.client.backend;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Read buffers lent for the duration of one read, so that buffer memory grows with the requests in
 * flight, not with the emulated users (who spend most of their time thinking): with thousands of
 * users, a buffer per thread would be most of the client's heap.
 */
final class ReplyBuffers {

    private static final int SIZE = 16 * 1024;
    private static final int KEEP = 256;
    private final ConcurrentLinkedQueue<byte[]> free = new ConcurrentLinkedQueue<>();

    /**
     * Reads the stream to its end; marks the last byte at the read that returned the end of the
     * stream (before decoding; not when {@code markEnd} is false: the end was marked already), sets
     * {@code out.bytes}, and returns the page decoded as ISO-8859-1. A page longer than
     * {@link Backend#MAX_PAGE_BYTES} ends the read with {@link PageTooLarge} (checked only when the
     * buffer grows, so a read costs nothing more).
     */
    String readAll(InputStream in, Reply out, boolean markEnd) throws IOException {
        byte[] buf = free.poll();
        if (buf == null) {
            buf = new byte[SIZE];
        }
        try {
            int n = 0;
            while (true) {
                if (n == buf.length) {
                    if (n > Backend.MAX_PAGE_BYTES) {
                        throw new PageTooLarge();
                    }
                    buf = Arrays.copyOf(buf, (int) Math.min(2L * n, Backend.MAX_PAGE_BYTES + 1L));
                }
                int r = in.read(buf, n, buf.length - n);
                if (r < 0) {
                    long end = System.nanoTime(); // first: nothing between the read's return and its stamp
                    if (markEnd) {
                        out.markLastByte(end);
                    }
                    break;
                }
                n += r;
            }
            out.bytes = n;
            return new String(buf, 0, n, StandardCharsets.ISO_8859_1);
        } finally {
            if (buf.length == SIZE && free.size() < KEEP) {
                free.offer(buf);
            }
        }
    }
}
