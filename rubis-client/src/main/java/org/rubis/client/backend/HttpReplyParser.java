package org.rubis.client.backend;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.concurrent.FastThreadLocal;
import java.nio.charset.StandardCharsets;

/**
 * Reads the HTTP/1.x replies of one connection from its bytes, keeping only what the client uses:
 * the status, whether the connection stays open ({@code Connection}, the version), the framing
 * ({@code Content-Length}, {@code Transfer-Encoding: chunked}, or until the close) and the body
 * bytes, handed over as they come. It builds no header map and no message objects: Netty's
 * {@code HttpResponseDecoder} did both for every reply, and they were the largest part of the
 * event loop's time at the highest request rate (docs/BENCHMARKS.md). The state is a few fields
 * of the connection itself (a subclass), so an idle connection holds no parser object; a head
 * or chunk line split across reads is the only case that keeps bytes between reads.
 *
 * <p>Strict where it matters for the error taxonomy: a reply that does not start with
 * {@code HTTP/1.} and a three-digit status, a bad {@code Content-Length} or chunk size, or a
 * head longer than {@link #MAX_HEAD} is {@link #onGarbage()} ({@code not-http}).
 */
abstract class HttpReplyParser {

    /** Longest head accepted: the 4 KB status line and 16 KB of headers Netty's decoder was given. */
    static final int MAX_HEAD = 20 * 1024;

    private static final int HEAD = 0;
    private static final int LENGTH = 1;
    private static final int CHUNK_SIZE = 2;
    private static final int CHUNK_DATA = 3;
    private static final int CHUNK_END = 4;
    private static final int TRAILER = 5;
    private static final int UNTIL_CLOSE = 6;

    private static final byte[] CONTENT_LENGTH = "content-length".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRANSFER_ENCODING = "transfer-encoding".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CONNECTION = "connection".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CHUNKED = "chunked".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CLOSE = "close".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KEEP_ALIVE = "keep-alive".getBytes(StandardCharsets.US_ASCII);

    private int state;
    private long remaining;
    /** Bytes of a head or line not complete at the end of a read; null otherwise. */
    private ByteBuf pending;

    /** The reply being read: its status, whether the connection stays open after it, and its body bytes so far. */
    int status;

    boolean keepAlive;
    long received;
    /** Its {@code Content-Length}, -1 when it has none. */
    long announced;

    /** A reply's head was read ({@link #status}, {@link #keepAlive} set, {@link #received} 0); its body follows. */
    abstract void onHead();

    /**
     * {@code length} body bytes at {@code a[at]}, valid during the call only;
     * {@code whole}: they are the reply's entire body, in one piece.
     */
    abstract void onBody(byte[] a, int at, int length, boolean whole);

    /** The reply is complete. The parser is ready for the next one before this is called. */
    abstract void onReplyEnd();

    /** The bytes are not an HTTP reply. */
    abstract void onGarbage();

    /** False once a callback closed or replaced the connection: the rest of the read is dropped. */
    abstract boolean reading();

    /** True between the first byte of a reply and its end. */
    final boolean inReply() {
        return state != HEAD || pending != null;
    }

    /** Forgets the reply in progress (the connection closed or is replaced). */
    final void resetParser() {
        state = HEAD;
        remaining = 0;
        if (pending != null) {
            pending.release();
            pending = null;
        }
    }

    /**
     * The connection closed: a reply framed by the close is now complete (true); any other reply
     * in progress is not (false, the caller classifies it).
     */
    final boolean endOfInput() {
        if (state == UNTIL_CLOSE) {
            state = HEAD;
            keepAlive = false;
            onReplyEnd();
            return true;
        }
        return false;
    }

    /**
     * Reads the bytes of one read; the caller keeps ownership of {@code in}. They are parsed from
     * an array (the read's own, or one copy into an array of the thread): reading a direct buffer
     * byte by byte checked the buffer at every byte.
     */
    final void read(ByteBuf in, ByteBufAllocator alloc) {
        ByteBuf p = pending;
        if (p != null) {
            pending = null;
            try {
                p.writeBytes(in);
                in.skipBytes(in.readableBytes());
                parse(p.array(), p.arrayOffset() + p.readerIndex(), p.arrayOffset() + p.writerIndex(), alloc);
            } finally {
                p.release();
            }
            return;
        }
        int n = in.readableBytes();
        if (in.hasArray()) {
            int off = in.arrayOffset() + in.readerIndex();
            parse(in.array(), off, off + n, alloc);
        } else {
            byte[] a = READ_COPY.get();
            if (a.length < n) {
                a = new byte[Math.max(n, 2 * a.length)];
                READ_COPY.set(a);
            }
            in.getBytes(in.readerIndex(), a, 0, n);
            parse(a, 0, n, alloc);
        }
        in.skipBytes(n);
    }

    /**
     * Reads the {@code length} bytes of one read at {@code a[0]} (the kernel backend's reads, already in an array of
     * its loop); the caller keeps the array.
     */
    final void read(byte[] a, int length, ByteBufAllocator alloc) {
        ByteBuf p = pending;
        if (p != null) {
            pending = null;
            try {
                p.writeBytes(a, 0, length);
                parse(p.array(), p.arrayOffset() + p.readerIndex(), p.arrayOffset() + p.writerIndex(), alloc);
            } finally {
                p.release();
            }
            return;
        }
        parse(a, 0, length, alloc);
    }

    /** The copy of a read from a direct buffer; reads are at most the receive buffer's size. */
    private static final FastThreadLocal<byte[]> READ_COPY = new FastThreadLocal<>() {
        @Override
        protected byte[] initialValue() {
            return new byte[16 * 1024];
        }
    };

    private void parse(byte[] a, int pos, int end, ByteBufAllocator alloc) {
        while (pos < end && reading()) {
            switch (state) {
                case HEAD -> {
                    pos = head(a, pos, end, alloc);
                    if (pos < 0) {
                        return;
                    }
                }
                case LENGTH, CHUNK_DATA -> {
                    int n = (int) Math.min(remaining, end - pos);
                    remaining -= n;
                    received += n;
                    boolean whole = state == LENGTH && remaining == 0 && received == n;
                    onBody(a, pos, n, whole);
                    if (!reading()) {
                        return; // the body ended the reply (too large)
                    }
                    pos += n;
                    if (remaining == 0) {
                        if (state == LENGTH) {
                            state = HEAD;
                            onReplyEnd();
                        } else {
                            state = CHUNK_END;
                        }
                    }
                }
                case UNTIL_CLOSE -> {
                    int n = end - pos;
                    received += n;
                    onBody(a, pos, n, false);
                    pos = end;
                }
                default -> { // CHUNK_SIZE, CHUNK_END, TRAILER: one line each
                    int lf = indexOfLf(a, pos, end);
                    if (lf < 0) {
                        stash(a, pos, end, alloc);
                        return;
                    }
                    int e = lf > pos && a[lf - 1] == '\r' ? lf - 1 : lf;
                    if (!line(a, pos, e)) {
                        return;
                    }
                    pos = lf + 1;
                }
            }
        }
    }

    private static int indexOfLf(byte[] a, int from, int end) {
        for (int i = from; i < end; i++) {
            if (a[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** A chunk-size line, the end of a chunk's data, or a trailer line; false when the reply was garbage. */
    private boolean line(byte[] a, int s, int e) {
        if (state == CHUNK_SIZE) {
            long size = 0;
            int digits = 0;
            for (int i = s; i < e; i++) {
                int d = Character.digit(a[i], 16);
                if (d < 0) {
                    byte b = a[i];
                    if (b == ';' || b == ' ' || b == '\t') {
                        break; // chunk extensions
                    }
                    return garbage();
                }
                if (++digits > 15) {
                    return garbage();
                }
                size = size * 16 + d;
            }
            if (digits == 0) {
                return garbage();
            }
            if (size == 0) {
                state = TRAILER;
            } else {
                remaining = size;
                state = CHUNK_DATA;
            }
        } else if (state == CHUNK_END) {
            if (e != s) {
                return garbage();
            }
            state = CHUNK_SIZE;
        } else if (e == s) { // TRAILER: the empty line ends the reply
            state = HEAD;
            onReplyEnd();
        }
        return true;
    }

    /** Parses a whole head at {@code pos}: the position after it, or -1 when it is not all there yet (kept) or was garbage. */
    private int head(byte[] a, int pos, int end, ByteBufAllocator alloc) {
        pos = skipBlankLines(a, pos, end);
        if (pos == end) {
            return end;
        }
        int start = pos;
        if (!startsLikeAReply(a, start, end)) {
            return garbageAt();
        }
        int code = -1;
        boolean http11 = false;
        long length = -1;
        boolean chunked = false;
        boolean close = false;
        boolean keep = false;
        boolean first = true;
        while (true) {
            int lf = indexOfLf(a, pos, end);
            if (lf < 0) {
                if (end - start > MAX_HEAD) {
                    return garbageAt();
                }
                stash(a, start, end, alloc);
                return -1;
            }
            int e = lf > pos && a[lf - 1] == '\r' ? lf - 1 : lf;
            if (first) {
                code = statusCode(a, pos, e);
                if (code < 0) {
                    return garbageAt();
                }
                http11 = a[pos + 7] != '0';
                first = false;
            } else if (e == pos) {
                pos = lf + 1;
                break;
            } else {
                int colon = colon(a, pos, e);
                if (colon == e || colon <= pos) {
                    return garbageAt(); // no colon, or no name
                }
                int vs = skipBlanks(a, colon + 1, e);
                int ve = trimBlanks(a, vs, e);
                int nameEnd = trimBlanks(a, pos, colon);
                if (named(a, pos, nameEnd, CONTENT_LENGTH)) {
                    long v = contentLength(a, vs, ve);
                    if (v < 0 || length >= 0 && length != v) {
                        return garbageAt(); // not a length, or two different lengths
                    }
                    length = v;
                } else if (named(a, pos, nameEnd, TRANSFER_ENCODING)) {
                    chunked |= contains(a, vs, ve, CHUNKED);
                } else if (named(a, pos, nameEnd, CONNECTION)) {
                    close |= contains(a, vs, ve, CLOSE);
                    keep |= contains(a, vs, ve, KEEP_ALIVE);
                }
            }
            pos = lf + 1;
            if (pos - start > MAX_HEAD) {
                return garbageAt();
            }
        }
        if (code >= 100 && code < 200 && code != 101) {
            return pos; // an interim reply: the real one follows
        }
        headRead(code, !close && (http11 || keep), chunked, length);
        return pos;
    }

    /** Past the blank lines before a head, skipped as Netty's decoder does. */
    private static int skipBlankLines(byte[] a, int pos, int end) {
        while (pos < end) {
            byte b = a[pos];
            if (b != '\r' && b != '\n' && b != ' ' && b != '\t') {
                break;
            }
            pos++;
        }
        return pos;
    }

    /** Garbage is known from its first bytes, not only at its first line end: they must be {@code HTTP/1.} so far. */
    private static boolean startsLikeAReply(byte[] a, int start, int end) {
        int check = Math.min(end - start, 7);
        for (int i = 0; i < check; i++) {
            if (a[start + i] != "HTTP/1.".charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** The status of the line [pos, e), {@code HTTP/1.x SP ddd [SP reason]}; -1 when it is not one. */
    private static int statusCode(byte[] a, int pos, int e) {
        if (e - pos < 12 || a[pos + 8] != ' ') {
            return -1;
        }
        int code = 0;
        for (int i = pos + 9; i < pos + 12; i++) {
            byte d = a[i];
            if (d < '0' || d > '9') {
                return -1;
            }
            code = code * 10 + (d - '0');
        }
        if (e > pos + 12 && a[pos + 12] != ' ') {
            return -1;
        }
        return code;
    }

    /** The first colon in [pos, e), or e. */
    private static int colon(byte[] a, int pos, int e) {
        int colon = pos;
        while (colon < e && a[colon] != ':') {
            colon++;
        }
        return colon;
    }

    /** Past the spaces and tabs from {@code pos} (at most to e). */
    private static int skipBlanks(byte[] a, int pos, int e) {
        while (pos < e && (a[pos] == ' ' || a[pos] == '\t')) {
            pos++;
        }
        return pos;
    }

    /** The end of [s, e) without its trailing spaces and tabs. */
    private static int trimBlanks(byte[] a, int s, int e) {
        while (e > s && (a[e - 1] == ' ' || a[e - 1] == '\t')) {
            e--;
        }
        return e;
    }

    /** A Content-Length value in [vs, ve): up to 18 digits; -1 when it is not one. */
    private static long contentLength(byte[] a, int vs, int ve) {
        if (ve == vs || ve - vs > 18) {
            return -1;
        }
        long v = 0;
        for (int i = vs; i < ve; i++) {
            byte d = a[i];
            if (d < '0' || d > '9') {
                return -1;
            }
            v = v * 10 + (d - '0');
        }
        return v;
    }

    /** A final reply's head was read: status and framing set, {@link #onHead} run, then its body is awaited (or it ended). */
    private void headRead(int code, boolean keepAlive, boolean chunked, long length) {
        status = code;
        this.keepAlive = keepAlive;
        received = 0;
        announced = chunked ? -1 : length;
        onHead();
        if (!reading()) {
            return; // the head ended the reply (too large)
        }
        if (chunked) {
            state = CHUNK_SIZE;
        } else if (code == 204 || code == 304 || length == 0) {
            state = HEAD;
            onReplyEnd();
        } else if (length > 0) {
            remaining = length;
            state = LENGTH;
        } else {
            state = UNTIL_CLOSE;
        }
    }

    private boolean garbage() {
        resetParser();
        onGarbage();
        return false;
    }

    /** {@link #garbage()} for {@link #head}: no position to go on from. */
    private int garbageAt() {
        garbage();
        return -1;
    }

    /** Keeps the unread bytes for the next read. */
    private void stash(byte[] a, int from, int end, ByteBufAllocator alloc) {
        int n = end - from;
        if (n > MAX_HEAD) {
            garbage();
            return;
        }
        ByteBuf p = alloc.heapBuffer(Math.max(256, 2 * n));
        p.writeBytes(a, from, n);
        pending = p;
    }

    /** The header name in [s, e) is {@code lower}, ignoring case. */
    private static boolean named(byte[] a, int s, int e, byte[] lower) {
        if (e - s != lower.length) {
            return false;
        }
        for (int i = 0; i < lower.length; i++) {
            int b = a[s + i];
            if (b >= 'A' && b <= 'Z') {
                b |= 0x20;
            }
            if (b != lower[i]) {
                return false;
            }
        }
        return true;
    }

    /** The value in [s, e) contains {@code lower}, ignoring case. */
    private static boolean contains(byte[] a, int s, int e, byte[] lower) {
        outer:
        for (int i = s; i + lower.length <= e; i++) {
            for (int j = 0; j < lower.length; j++) {
                int b = a[i + j];
                if (b >= 'A' && b <= 'Z') {
                    b |= 0x20;
                }
                if (b != lower[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
