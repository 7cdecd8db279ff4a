package org.rubis.client.backend;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.util.concurrent.FastThreadLocal;
import java.nio.charset.StandardCharsets;

/**
 * The netty backend's requests as bytes, built before the send mark: {@code GET}, the path, then a tail
 * fixed per backend (the version and the headers of {@link RequestHeaders}, in their order), what
 * Netty's {@code HttpRequestEncoder} wrote, without an encoder or a request object per request.
 */
final class RequestBytes {

    private static final byte[] GET = "GET ".getBytes(StandardCharsets.US_ASCII);

    /** A direct buffer per event loop, handed out again once its last write is done. */
    private static final FastThreadLocal<ByteBuf[]> REQUEST_BUFFER = new FastThreadLocal<>() {
        @Override
        protected ByteBuf[] initialValue() {
            return new ByteBuf[1];
        }

        @Override
        protected void onRemoval(ByteBuf[] held) {
            if (held[0] != null) { // the event loop's thread ends
                held[0].release();
                held[0] = null;
            }
        }
    };

    /** Where a request is assembled: "GET " stays at its start. */
    private static final FastThreadLocal<byte[]> REQUEST_SCRATCH = new FastThreadLocal<>() {
        @Override
        protected byte[] initialValue() {
            byte[] a = new byte[4096];
            System.arraycopy(GET, 0, a, 0, GET.length);
            return a;
        }
    };

    /** What follows the path in every request: the version and the headers every backend sends. */
    private final byte[] tail;

    RequestBytes(RequestHeaders headers) {
        this.tail = tail(headers);
    }

    /** " HTTP/1.1", each header of {@link RequestHeaders} in order, the blank line: what HttpRequestEncoder wrote. */
    static byte[] tail(RequestHeaders headers) {
        StringBuilder b = new StringBuilder(" HTTP/1.1\r\n");
        headers.forEach(
                (name, value) -> b.append(name).append(": ").append(value).append("\r\n"));
        return b.append("\r\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The GET of {@code path} with the headers every backend sends, as bytes, for one write (which releases
     * it). An ASCII path (every generated one) is assembled in an array of the thread and copied into the
     * buffer once: encoding it into the direct buffer byte by byte checked the buffer at every byte.
     */
    ByteBuf request(String path) {
        int n = path.length();
        int total = GET.length + n + tail.length;
        byte[] a = REQUEST_SCRATCH.get();
        if (total <= a.length) {
            int k = GET.length;
            for (int i = 0; i < n; i++) {
                char c = path.charAt(i);
                if (c >= 0x80) {
                    k = -1;
                    break;
                }
                a[k++] = (byte) c;
            }
            if (k >= 0) {
                System.arraycopy(tail, 0, a, k, tail.length);
                return reusable(total).writeBytes(a, 0, total);
            }
        }
        ByteBuf b = ByteBufAllocator.DEFAULT.buffer(GET.length + ByteBufUtil.utf8MaxBytes(path) + tail.length);
        b.writeBytes(GET);
        ByteBufUtil.writeUtf8(b, path);
        b.writeBytes(tail);
        return b;
    }

    /**
     * A direct buffer of at least {@code size} bytes for a request, empty, that the write will
     * release. The thread keeps one and hands it out again once the last write of it is done (only
     * its own reference left): a request written at once, as on a reused connection, then costs no
     * allocation; one still queued (or held through a connect) is left to its writer and replaced.
     */
    private static ByteBuf reusable(int size) {
        ByteBuf[] held = REQUEST_BUFFER.get();
        ByteBuf b = held[0];
        if (b == null || b.refCnt() != 1 || b.capacity() < size) {
            if (b != null) {
                b.release();
            }
            b = ByteBufAllocator.DEFAULT.directBuffer(Math.max(size, 1024));
            held[0] = b;
        }
        b.clear();
        return b.retain(); // the write's reference; the thread keeps its own
    }
}
