package org.rubis.client.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The lean reply parser against replies written out by hand, each fed in two reads split at
 * every byte (heap and direct buffers): the same status, connection policy and body whatever the
 * split, and non-HTTP bytes are garbage.
 */
class HttpReplyParserTest {

    /** Records what the parser reports. */
    private static final class Recorder extends HttpReplyParser {
        final List<String> replies = new ArrayList<>();
        StringBuilder body = new StringBuilder();
        int garbage;
        boolean open = true;

        @Override
        void onHead() {
            body = new StringBuilder();
        }

        @Override
        void onBody(byte[] a, int at, int length, boolean whole) {
            body.append(new String(a, at, length, StandardCharsets.ISO_8859_1));
        }

        @Override
        void onReplyEnd() {
            replies.add(status + " " + (keepAlive ? "keep" : "close") + " " + received + " " + body);
        }

        @Override
        void onGarbage() {
            garbage++;
            open = false;
        }

        @Override
        boolean reading() {
            return open;
        }
    }

    private static List<String> everySplit(String wire, boolean closeAtEnd) {
        byte[] bytes = wire.getBytes(StandardCharsets.ISO_8859_1);
        List<String> first = null;
        for (int cut = 0; cut <= bytes.length; cut++) {
            for (boolean direct : new boolean[] {false, true}) {
                Recorder r = new Recorder();
                feed(r, bytes, 0, cut, direct);
                feed(r, bytes, cut, bytes.length, direct);
                if (closeAtEnd) {
                    r.endOfInput();
                }
                assertEquals(0, r.garbage, "cut at " + cut);
                assertFalse(r.inReply(), "cut at " + cut);
                if (first == null) {
                    first = r.replies;
                }
                assertEquals(first, r.replies, "cut at " + cut + (direct ? " (direct)" : " (heap)"));
            }
        }
        return first;
    }

    private static void feed(Recorder r, byte[] bytes, int from, int to, boolean direct) {
        ByteBuf b = direct ? Unpooled.directBuffer(Math.max(1, to - from)) : Unpooled.buffer(Math.max(1, to - from));
        try {
            b.writeBytes(bytes, from, to - from);
            r.read(b, ByteBufAllocator.DEFAULT);
            assertFalse(b.isReadable(), "a read is consumed whole");
        } finally {
            b.release();
        }
    }

    @Test
    void contentLengthKeepAliveAndClose() {
        assertEquals(
                List.of("200 keep 5 hello"),
                everySplit("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\ncontent-length:  5 \r\n\r\nhello", false));
        assertEquals(
                List.of("503 close 3 abc"),
                everySplit(
                        "HTTP/1.1 503 Service Unavailable\r\nCONNECTION: Close\r\nContent-Length: 3\r\n\r\nabc",
                        false));
        assertEquals(List.of("200 close 2 ok"), everySplit("HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok", false));
        assertEquals(
                List.of("200 keep 2 ok"),
                everySplit("HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 2\r\n\r\nok", false));
    }

    @Test
    void chunkedUntilCloseAndEmptyBodies() {
        assertEquals(
                List.of("200 keep 9 hello, yo"),
                everySplit(
                        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n4\r\n, yo\r\n0\r\nX-Trailer: t\r\n\r\n",
                        false));
        assertEquals(
                List.of("200 close 6 to end"),
                everySplit("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\nto end", true));
        assertEquals(
                List.of("204 keep 0 ", "304 keep 0 ", "200 keep 0 "),
                everySplit(
                        "HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
                        false));
        assertEquals(
                List.of("200 keep 2 hi"),
                everySplit("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi", false));
        assertEquals(
                List.of("200 keep 1 a", "404 keep 1 b"),
                everySplit(
                        "\r\nHTTP/1.1 200 OK\nContent-Length: 1\n\nainHTTP/1.1 404 Not Found\r\nContent-Length: 1\r\n\r\nb"
                                .replace("ain", "a"),
                        false));
    }

    @Test
    void notHttpIsGarbage() {
        for (String wire : List.of(
                "SSH-2.0-rubis-fault\r\n\u0000\u0001 not http\r\n",
                "HTTP/2 200\r\n\r\n",
                "HTTP/1.1 2x0 OK\r\n\r\n",
                "HTTP/1.1 200 OK\r\nContent-Length: 12a\r\n\r\n",
                "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")) {
            Recorder r = new Recorder();
            feed(r, wire.getBytes(StandardCharsets.ISO_8859_1), 0, wire.length(), false);
            assertEquals(1, r.garbage, wire);
            assertTrue(r.replies.isEmpty(), wire);
        }
        Recorder r = new Recorder();
        byte[] head = ("HTTP/1.1 200 OK\r\nX: " + "y".repeat(HttpReplyParser.MAX_HEAD) + "\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        feed(r, head, 0, head.length, true);
        assertEquals(1, r.garbage, "a head longer than the limit");
    }

    @Test
    void aReplyCutShortIsStillInProgress() {
        Recorder r = new Recorder();
        byte[] wire = "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf".getBytes(StandardCharsets.ISO_8859_1);
        feed(r, wire, 0, wire.length, false);
        assertTrue(r.inReply());
        assertFalse(r.endOfInput(), "a close before Content-Length bytes does not complete the reply");
        assertTrue(r.replies.isEmpty());
    }
}
