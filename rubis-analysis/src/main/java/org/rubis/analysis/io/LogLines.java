package org.rubis.analysis.io;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The lines of a log file, each decoded on its own, so that one bad line is one skipped line: a byte that is not
 * UTF-8 made the whole file unreadable ("Input length = 1", no line number), and one line of 300 MB held the
 * analysis' heap (6 GB, then out of memory). A line longer than {@link #MAX_LINE} bytes is passed over unread, in
 * constant memory, and a line that is not UTF-8 is returned as a bad one; {@link #kind()} says which. Lines end at
 * {@code \n} (a {@code \r} before it is dropped).
 */
final class LogLines implements Closeable {

    /** The longest line read: a request line is a few hundred bytes; a megabyte is no log line of ours. */
    static final int MAX_LINE = 1 << 20;

    /** What the last line returned was. */
    enum Kind {
        OK,
        NOT_UTF8,
        TOO_LONG
    }

    private final InputStream in;
    private final byte[] buf = new byte[1 << 16];
    private int pos;
    private int end;
    private byte[] line = new byte[256];
    private int len;
    private Kind kind = Kind.OK;
    private final CharsetDecoder utf8 = StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);

    LogLines(InputStream in) {
        this.in = in;
    }

    /** The next line (without its end), "" for a bad one ({@link #kind()}), or null at the end of the file. */
    String next() throws IOException {
        len = 0;
        boolean tooLong = false;
        boolean any = false;
        while (true) {
            if (pos == end) {
                end = in.read(buf, 0, buf.length);
                pos = 0;
                if (end <= 0) {
                    end = 0;
                    if (!any) {
                        return null;
                    }
                    break;
                }
            }
            any = true;
            int nl = -1;
            for (int i = pos; i < end; i++) {
                if (buf[i] == '\n') {
                    nl = i;
                    break;
                }
            }
            int stop = nl < 0 ? end : nl;
            if (!tooLong) {
                if (len + (stop - pos) > MAX_LINE) {
                    tooLong = true; // the rest of the line is read past, never kept
                } else {
                    append(pos, stop - pos);
                }
            }
            pos = nl < 0 ? end : nl + 1;
            if (nl >= 0) {
                break;
            }
        }
        if (tooLong) {
            kind = Kind.TOO_LONG;
            return "";
        }
        if (len > 0 && line[len - 1] == '\r') {
            len--;
        }
        return decode();
    }

    /** What the line last returned by {@link #next()} was. */
    Kind kind() {
        return kind;
    }

    private void append(int from, int n) {
        if (len + n > line.length) {
            line = Arrays.copyOf(line, Math.max(len + n, Math.min(MAX_LINE, line.length * 2)));
        }
        System.arraycopy(buf, from, line, len, n);
        len += n;
    }

    private String decode() {
        boolean ascii = true;
        for (int i = 0; i < len && ascii; i++) {
            ascii = line[i] >= 0;
        }
        if (ascii) {
            kind = Kind.OK;
            return new String(line, 0, len, StandardCharsets.US_ASCII);
        }
        try {
            CharBuffer c = utf8.reset().decode(ByteBuffer.wrap(line, 0, len));
            kind = Kind.OK;
            return c.toString();
        } catch (CharacterCodingException e) {
            kind = Kind.NOT_UTF8;
            return "";
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
