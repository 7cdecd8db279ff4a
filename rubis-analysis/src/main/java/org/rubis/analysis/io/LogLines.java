package org.rubis.analysis.io;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
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
 * {@code \n}, {@code \r\n} or a lone {@code \r} (a file saved with old Mac line ends read as one line: "no
 * requests", nothing counted as malformed).
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
    private boolean ascii = true;
    /** The last line ended at a {@code \r}: a {@code \n} next is part of its end. */
    private boolean afterCr;

    private final CharsetDecoder utf8 = StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);

    LogLines(InputStream in) {
        this.in = in;
    }

    /** The next line (without its end), "" for a bad one ({@link #kind()}), or null at the end of the file. */
    String next() throws IOException {
        if (!advance()) {
            return null;
        }
        return kind != Kind.OK
                ? ""
                : new String(line, 0, len, ascii ? StandardCharsets.US_ASCII : StandardCharsets.UTF_8);
    }

    /**
     * Reads the next line into {@link #bytes()} without making a String of it (the CSV reader splits the bytes), and
     * checks it is UTF-8 ({@link #kind()}); false at the end of the file.
     */
    boolean advance() throws IOException {
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
                        return false;
                    }
                    break;
                }
            }
            if (afterCr) {
                // The line before ended at a \r: a \n right after it belongs to that line end (\r\n).
                afterCr = false;
                if (buf[pos] == '\n') {
                    pos++;
                    continue;
                }
            }
            any = true;
            int nl = -1;
            for (int i = pos; i < end; i++) {
                if (buf[i] == '\n' || buf[i] == '\r') {
                    nl = i;
                    afterCr = buf[i] == '\r';
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
            len = 0;
            kind = Kind.TOO_LONG;
            return true;
        }
        check();
        return true;
    }

    /** The bytes of the line last read by {@link #advance()}, valid up to {@link #length()} until the next read. */
    byte[] bytes() {
        return line;
    }

    int length() {
        return len;
    }

    /** Whether the line last read is all ASCII (else UTF-8, when {@link #kind()} is OK). */
    boolean ascii() {
        return ascii;
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

    private void check() {
        ascii = true;
        for (int i = 0; i < len && ascii; i++) {
            ascii = line[i] >= 0;
        }
        kind = Kind.OK;
        if (!ascii) {
            try {
                utf8.reset().decode(ByteBuffer.wrap(line, 0, len));
            } catch (CharacterCodingException e) {
                len = 0;
                kind = Kind.NOT_UTF8;
            }
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
