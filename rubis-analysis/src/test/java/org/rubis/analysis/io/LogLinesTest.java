package org.rubis.analysis.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each line decoded on its own: a bad byte or an endless line costs one line, not the file. */
class LogLinesTest {

    @Test
    void badAndOverlongLinesAreMarkedTheOthersRead() throws IOException {
        byte[] good = "a,b\r\nc,d\n".getBytes(StandardCharsets.UTF_8);
        byte[] bad = {'x', (byte) 0xc3, '(', '\n'};
        byte[] accented = "é,ü\n".getBytes(StandardCharsets.UTF_8);
        InputStream in = new SequenceInputStream(Collections.enumeration(List.of(
                new ByteArrayInputStream(good),
                new ByteArrayInputStream(bad),
                new Endless(LogLines.MAX_LINE * 3L),
                new ByteArrayInputStream(accented),
                new ByteArrayInputStream("last".getBytes(StandardCharsets.UTF_8)))));
        try (LogLines l = new LogLines(in)) {
            assertEquals("a,b", l.next());
            assertEquals("c,d", l.next());
            assertEquals("", l.next());
            assertEquals(LogLines.Kind.NOT_UTF8, l.kind());
            assertEquals("", l.next());
            assertEquals(LogLines.Kind.TOO_LONG, l.kind());
            assertEquals("é,ü", l.next());
            assertEquals(LogLines.Kind.OK, l.kind());
            assertEquals("last", l.next(), "a last line without its line break");
            assertNull(l.next());
        }
    }

    /** Old Mac line ends (a lone \r) end lines too, and a \r\n split over two reads is one line end. */
    @Test
    void aLoneCarriageReturnEndsALine() throws IOException {
        InputStream in = new SequenceInputStream(Collections.enumeration(List.of(
                new ByteArrayInputStream("a,b\rc,d\r".getBytes(StandardCharsets.UTF_8)),
                new ByteArrayInputStream("\ne,f\r\rg".getBytes(StandardCharsets.UTF_8)))));
        try (LogLines l = new LogLines(in)) {
            assertEquals("a,b", l.next());
            assertEquals("c,d", l.next());
            assertEquals("e,f", l.next());
            assertEquals("", l.next(), "an empty line between two \r");
            assertEquals("g", l.next());
            assertNull(l.next());
        }
    }

    /** {@code n} bytes of 'x', then a line break, without holding them. */
    private static final class Endless extends InputStream {
        private long left;

        Endless(long n) {
            left = n + 1;
        }

        @Override
        public int read() {
            return left-- > 1 ? 'x' : left == 0 ? '\n' : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (left <= 0) {
                return -1;
            }
            int n = (int) Math.min(len, left);
            Arrays.fill(b, off, off + n, (byte) 'x');
            left -= n;
            if (left == 0) {
                b[off + n - 1] = '\n';
            }
            return n;
        }
    }
}
