package org.rubis.server.fault;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The bytes the server models send for a fault, shared so both models misbehave identically. */
public final class FaultReplies {

    /** The interaction name a fault reply is logged under when the application was not asked. */
    public static final String INTERACTION = "Fault";

    /** Bytes that are not an HTTP response (an SSH banner, then binary). */
    public static final byte[] GARBAGE =
            "SSH-2.0-rubis-fault\r\n\u0000\u0001\u0002\u00ff\u00fe not http\r\n".getBytes(StandardCharsets.ISO_8859_1);

    private static final Map<Long, byte[]> LARGE = new ConcurrentHashMap<>();

    private FaultReplies() {}

    /** An HTML body of exactly {@code n} bytes. */
    public static byte[] body(int n) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) 'x');
        byte[] open = "<html><body>".getBytes(StandardCharsets.ISO_8859_1);
        if (n >= open.length) {
            System.arraycopy(open, 0, b, 0, open.length);
        }
        return b;
    }

    /** The body of the {@code large} fault: {@code megabytes} MiB, shared between requests (never modified). */
    public static byte[] large(long megabytes) {
        return LARGE.computeIfAbsent(megabytes, mb -> body((int) (mb << 20)));
    }

    /** The body of the {@code status} fault. */
    public static byte[] statusBody(int status) {
        return ("<html><body>rubis-server: injected fault, status " + status + "</body></html>\n")
                .getBytes(StandardCharsets.ISO_8859_1);
    }

    /** A response head with the given Content-Length, as the prefork model writes it. */
    public static byte[] head(int status, long contentLength, boolean keepAlive, String server) {
        String reason =
                status == 200 ? "OK" : status == 404 ? "Not Found" : status == 503 ? "Service Unavailable" : "Error";
        return ("HTTP/1.1 " + status + " " + reason + "\r\nContent-Type: text/html\r\nContent-Length: " + contentLength
                        + "\r\n" + "Server: " + server + "\r\nConnection: " + (keepAlive ? "keep-alive" : "close")
                        + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
    }

    /** The body of the {@code reset} and {@code truncate} faults: its head announces all of it, half is sent. */
    public static final byte[] PARTIAL = body(16_384);
}
