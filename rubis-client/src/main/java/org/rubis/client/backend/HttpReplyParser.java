package org.rubis.client.backend;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

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

    private static final byte[] CONTENT_LENGTH = "content-length".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] TRANSFER_ENCODING = "transfer-encoding".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] CONNECTION = "connection".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] CHUNKED = "chunked".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] CLOSE = "close".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] KEEP_ALIVE = "keep-alive".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private int state;
    private long remaining;
    /** Bytes of a head or line not complete at the end of a read; null otherwise. */
    private ByteBuf pending;

    /** The reply being read: its status, whether the connection stays open after it, and its body bytes so far. */
    int status;
    boolean keepAlive;
    long received;

    /** A reply's head was read ({@link #status}, {@link #keepAlive} set, {@link #received} 0); its body follows. */
    abstract void onHead();

    /**
     * {@code length} body bytes at {@code in.readerIndex()} (the parser skips them afterwards);
     * {@code whole}: they are the reply's entire body, in one piece.
     */
    abstract void onBody(ByteBuf in, int length, boolean whole);

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

    /** Reads the bytes of one read; the caller keeps ownership of {@code in}. */
    final void read(ByteBuf in, ByteBufAllocator alloc) {
        if (pending != null) {
            ByteBuf p = pending;
            pending = null;
            try {
                p.writeBytes(in);
                in.skipBytes(in.readableBytes());
                parse(p, alloc);
            } finally {
                p.release();
            }
        } else {
            parse(in, alloc);
        }
    }

    private void parse(ByteBuf in, ByteBufAllocator alloc) {
        while (in.isReadable() && reading()) {
            switch (state) {
                case HEAD -> {
                    if (!head(in, alloc)) {
                        return;
                    }
                }
                case LENGTH, CHUNK_DATA -> {
                    int n = (int) Math.min(remaining, in.readableBytes());
                    remaining -= n;
                    received += n;
                    boolean whole = state == LENGTH && remaining == 0 && received == n;
                    int at = in.readerIndex();
                    onBody(in, n, whole);
                    in.readerIndex(at + n);
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
                    int n = in.readableBytes();
                    received += n;
                    int at = in.readerIndex();
                    onBody(in, n, false);
                    in.readerIndex(at + n);
                }
                default -> { // CHUNK_SIZE, CHUNK_END, TRAILER: one line each
                    int lf = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) '\n');
                    if (lf < 0) {
                        stash(in, alloc);
                        return;
                    }
                    int s = in.readerIndex();
                    int e = lf > s && in.getByte(lf - 1) == '\r' ? lf - 1 : lf;
                    in.readerIndex(lf + 1);
                    if (!line(in, s, e)) {
                        return;
                    }
                }
            }
        }
    }

    /** A chunk-size line, the end of a chunk's data, or a trailer line; false when the reply was garbage. */
    private boolean line(ByteBuf in, int s, int e) {
        if (state == CHUNK_SIZE) {
            long size = 0;
            int digits = 0;
            for (int i = s; i < e; i++) {
                int d = Character.digit(in.getByte(i), 16);
                if (d < 0) {
                    byte b = in.getByte(i);
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

    /** Parses a whole head at the reader index; false when it is not all there yet (kept) or was garbage. */
    private boolean head(ByteBuf in, ByteBufAllocator alloc) {
        int end = in.writerIndex();
        int pos = in.readerIndex();
        while (pos < end) { // leading blank lines are skipped, as Netty's decoder does
            byte b = in.getByte(pos);
            if (b != '\r' && b != '\n' && b != ' ' && b != '\t') {
                break;
            }
            pos++;
        }
        in.readerIndex(pos);
        if (pos == end) {
            return false;
        }
        int start = pos;
        int check = Math.min(end - start, 7);
        for (int i = 0; i < check; i++) { // garbage is known from its first bytes, not only at its first line end
            if (in.getByte(start + i) != "HTTP/1.".charAt(i)) {
                return garbage();
            }
        }
        int code = -1;
        boolean http11 = false;
        long length = -1;
        boolean chunked = false;
        boolean close = false;
        boolean keep = false;
        boolean first = true;
        while (true) {
            int lf = in.indexOf(pos, end, (byte) '\n');
            if (lf < 0) {
                if (end - start > MAX_HEAD) {
                    return garbage();
                }
                stash(in, alloc);
                return false;
            }
            int e = lf > pos && in.getByte(lf - 1) == '\r' ? lf - 1 : lf;
            if (first) {
                // HTTP/1.x SP ddd [SP reason]
                if (e - pos < 12 || in.getByte(pos + 8) != ' ') {
                    return garbage();
                }
                http11 = in.getByte(pos + 7) != '0';
                code = 0;
                for (int i = pos + 9; i < pos + 12; i++) {
                    byte d = in.getByte(i);
                    if (d < '0' || d > '9') {
                        return garbage();
                    }
                    code = code * 10 + (d - '0');
                }
                if (e > pos + 12 && in.getByte(pos + 12) != ' ') {
                    return garbage();
                }
                first = false;
            } else if (e == pos) {
                in.readerIndex(lf + 1);
                break;
            } else {
                int colon = in.indexOf(pos, e, (byte) ':');
                if (colon <= pos) {
                    return garbage();
                }
                int vs = colon + 1;
                while (vs < e && (in.getByte(vs) == ' ' || in.getByte(vs) == '\t')) {
                    vs++;
                }
                int ve = e;
                while (ve > vs && (in.getByte(ve - 1) == ' ' || in.getByte(ve - 1) == '\t')) {
                    ve--;
                }
                int nameEnd = colon;
                while (nameEnd > pos && (in.getByte(nameEnd - 1) == ' ' || in.getByte(nameEnd - 1) == '\t')) {
                    nameEnd--;
                }
                if (named(in, pos, nameEnd, CONTENT_LENGTH)) {
                    long v = 0;
                    if (ve == vs || ve - vs > 18) {
                        return garbage();
                    }
                    for (int i = vs; i < ve; i++) {
                        byte d = in.getByte(i);
                        if (d < '0' || d > '9') {
                            return garbage();
                        }
                        v = v * 10 + (d - '0');
                    }
                    if (length >= 0 && length != v) {
                        return garbage(); // two different lengths
                    }
                    length = v;
                } else if (named(in, pos, nameEnd, TRANSFER_ENCODING)) {
                    chunked |= contains(in, vs, ve, CHUNKED);
                } else if (named(in, pos, nameEnd, CONNECTION)) {
                    close |= contains(in, vs, ve, CLOSE);
                    keep |= contains(in, vs, ve, KEEP_ALIVE);
                }
            }
            pos = lf + 1;
            if (pos - start > MAX_HEAD) {
                return garbage();
            }
        }
        if (code >= 100 && code < 200 && code != 101) {
            return true; // an interim reply: the real one follows
        }
        status = code;
        keepAlive = !close && (http11 || keep);
        received = 0;
        onHead();
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
        return true;
    }

    private boolean garbage() {
        resetParser();
        onGarbage();
        return false;
    }

    /** Keeps the unread bytes for the next read. */
    private void stash(ByteBuf in, ByteBufAllocator alloc) {
        int n = in.readableBytes();
        if (n > MAX_HEAD) {
            garbage();
            return;
        }
        ByteBuf p = alloc.heapBuffer(Math.max(256, 2 * n));
        p.writeBytes(in);
        pending = p;
    }

    /** The header name in [s, e) is {@code lower}, ignoring case. */
    private static boolean named(ByteBuf in, int s, int e, byte[] lower) {
        if (e - s != lower.length) {
            return false;
        }
        for (int i = 0; i < lower.length; i++) {
            int b = in.getByte(s + i);
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
    private static boolean contains(ByteBuf in, int s, int e, byte[] lower) {
        outer:
        for (int i = s; i + lower.length <= e; i++) {
            for (int j = 0; j < lower.length; j++) {
                int b = in.getByte(i + j);
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
