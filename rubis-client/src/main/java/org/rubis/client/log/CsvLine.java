package org.rubis.client.log;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Log lines formatted straight into UTF-8 bytes. At the highest request rates the log writer shares
 * the client's core with the event loop, and a {@code StringBuilder} costs twice there: once to turn
 * each number into chars, once more when the writer's encoder turns the chars into bytes. Here a
 * number is written as ASCII digits in place and the batch goes to the file as it is. Text fields
 * are ASCII in practice (state names, paths, addresses); any other character is encoded as UTF-8,
 * so the file is byte for byte what the {@code StringBuilder} and a UTF-8 writer produced, except for
 * a lone surrogate (not text), written as {@code ?} where that writer failed the whole batch.
 */
final class CsvLine {

    private static final byte[] DIGIT_PAIRS = new byte[200];

    static {
        for (int i = 0; i < 100; i++) {
            DIGIT_PAIRS[2 * i] = (byte) ('0' + i / 10);
            DIGIT_PAIRS[2 * i + 1] = (byte) ('0' + i % 10);
        }
    }

    private byte[] buf;
    private int len;

    CsvLine(int capacity) {
        buf = new byte[capacity];
    }

    int length() {
        return len;
    }

    /** Drops everything after {@code mark} (a partial line, when formatting ran out of heap). */
    void truncate(int mark) {
        len = mark;
    }

    /** Writes the bytes out (no Java allocation: safe when the heap is exhausted) and empties the buffer. */
    void writeTo(OutputStream out) throws IOException {
        try {
            if (len > 0) {
                out.write(buf, 0, len);
            }
        } catch (OutOfMemoryError e) {
            // A FileOutputStream copies a write of more than 8 KB through a native buffer it allocates: when even
            // that fails, slices of 8 KB go through its stack buffer.
            for (int at = 0; at < len; at += SLICE) {
                out.write(buf, at, Math.min(SLICE, len - at));
            }
        }
        len = 0;
    }

    private static final int SLICE = 8192;

    CsvLine comma() {
        return ascii(',');
    }

    CsvLine newline() {
        return ascii('\n');
    }

    private CsvLine ascii(char c) {
        ensure(1);
        buf[len++] = (byte) c;
        return this;
    }

    CsvLine append(boolean v) {
        return append(v ? "true" : "false");
    }

    /** The decimal digits of {@code v}, as {@link Long#toString(long)} writes them. */
    CsvLine append(long v) {
        if (v == Long.MIN_VALUE) {
            return append(Long.toString(v));
        }
        ensure(20);
        if (v < 0) {
            buf[len++] = '-';
            v = -v;
        }
        int n = digits(v);
        int end = len + n;
        int at = end;
        while (v >= 100) {
            int pair = (int) (v % 100);
            v /= 100;
            at -= 2;
            buf[at] = DIGIT_PAIRS[2 * pair];
            buf[at + 1] = DIGIT_PAIRS[2 * pair + 1];
        }
        if (v >= 10) {
            at -= 2;
            buf[at] = DIGIT_PAIRS[2 * (int) v];
            buf[at + 1] = DIGIT_PAIRS[2 * (int) v + 1];
        } else {
            buf[--at] = (byte) ('0' + v);
        }
        len = end;
        return this;
    }

    private static int digits(long v) {
        long p = 10;
        for (int n = 1; n < 19; n++) {
            if (v < p) {
                return n;
            }
            p *= 10;
        }
        return 19;
    }

    /** The text as it is (fields that cannot hold a comma, quote or line break). */
    CsvLine append(String s) {
        if (s == null) {
            s = "null"; // as a StringBuilder writes it
        }
        int n = s.length();
        ensure(n);
        byte[] b = buf; // locals: the loop stores to no field, so the compiler keeps the index in a register
        int at = len;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                len = at;
                return utf8(s, i);
            }
            b[at++] = (byte) c;
        }
        len = at;
        return this;
    }

    /** The text as one CSV field: quoted (RFC 4180) when it holds a comma, a quote or a line break. */
    CsvLine field(String s) {
        int n = s.length();
        ensure(n);
        byte[] b = buf;
        int at = len;
        for (int i = 0; i < n; i++) { // one pass: copied as it is unless a character asks for more
            char c = s.charAt(i);
            if (c >= 0x80 || c == ',' || c == '"' || c == '\n' || c == '\r') {
                return quotedOrUtf8(s); // len still at the field's start
            }
            b[at++] = (byte) c;
        }
        len = at;
        return this;
    }

    private CsvLine quotedOrUtf8(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return append(s);
        }
        return ascii('"').append(s.replace("\"", "\"\"")).ascii('"');
    }

    /** The rest of {@code s} from {@code from}, which is not ASCII. */
    private CsvLine utf8(String s, int from) {
        byte[] b = s.substring(from).getBytes(StandardCharsets.UTF_8);
        ensure(b.length);
        System.arraycopy(b, 0, buf, len, b.length);
        len += b.length;
        return this;
    }

    private void ensure(int more) {
        if (len + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(len + more, 2 * buf.length));
        }
    }

    @Override
    public String toString() {
        return new String(buf, 0, len, StandardCharsets.UTF_8);
    }
}
