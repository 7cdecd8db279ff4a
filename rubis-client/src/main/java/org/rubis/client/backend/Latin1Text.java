package org.rubis.client.backend;

import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;
import java.nio.charset.StandardCharsets;

/** A page's bytes as ISO-8859-1 text, copied once, into its String (not first into a temporary array per call). */
final class Latin1Text {

    /** A body copy buffer per event loop. */
    private static final FastThreadLocal<byte[]> SCRATCH = new FastThreadLocal<>() {
        @Override
        protected byte[] initialValue() {
            return new byte[16 * 1024];
        }
    };

    private Latin1Text() {}

    /** The readable bytes as ISO-8859-1 text. */
    static String of(ByteBuf b) {
        return of(b, b.readerIndex(), b.readableBytes());
    }

    /**
     * {@code n} bytes from {@code at} as ISO-8859-1 text, as {@code ByteBuf.toString(ISO_8859_1)} without its
     * temporary array.
     */
    static String of(ByteBuf b, int at, int n) {
        if (n == 0) {
            return "";
        }
        if (b.hasArray()) {
            return new String(b.array(), b.arrayOffset() + at, n, StandardCharsets.ISO_8859_1);
        }
        byte[] a = SCRATCH.get();
        if (a.length < n) {
            if (n > 1 << 20) {
                // a huge page: no event-loop buffer that large kept
                return b.toString(at, n, StandardCharsets.ISO_8859_1);
            }
            a = new byte[Math.max(n, 2 * a.length)];
            SCRATCH.set(a);
        }
        b.getBytes(at, a, 0, n);
        return new String(a, 0, n, StandardCharsets.ISO_8859_1);
    }
}
