package org.rubis.client.preflight;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One HTTP/1.1 connection to the target that asks for keep-alive and says when the server ended it: the pre-flight's
 * keep-alive probe must see the connection itself (how many requests it carried, whether the server announced its
 * close), which a pooling client hides. Plain http only; replies framed by {@code Content-Length}, chunks or the
 * close, as RUBiS's servers send them.
 */
final class ProbeConnection implements Closeable {

    /** A page read whole: its status, body (ISO-8859-1) and whether the server ended the connection with it. */
    record Page(int status, String body, boolean closedAfter) {}

    /** The server closed the connection before any byte of the reply to a request on it. */
    static final class ClosedBeforeReply extends IOException {
        @java.io.Serial
        private static final long serialVersionUID = 1L;

        ClosedBeforeReply() {
            super("the server closed the connection before replying");
        }
    }

    private static final int MAX_BODY = 16 * 1024 * 1024;

    private final String host;
    private final int port;
    private final int timeoutMs;
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    ProbeConnection(String host, int port, int timeoutMs) {
        this.host = host;
        this.port = port;
        this.timeoutMs = timeoutMs;
    }

    /** Sends {@code GET path} on this connection (opening it first when the last reply closed it) and reads the reply. */
    Page get(String path) throws IOException {
        if (socket == null) {
            socket = new Socket();
            socket.connect(new InetSocketAddress(host, port), timeoutMs);
            socket.setSoTimeout(timeoutMs);
            in = new BufferedInputStream(socket.getInputStream());
            out = socket.getOutputStream();
        }
        out.write(("GET " + path + " HTTP/1.1\r\nHost: " + host + ":" + port
                        + "\r\nUser-Agent: rubis-client pre-flight\r\nConnection: keep-alive\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        String status = line(true);
        String[] parts = status.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/")) {
            close();
            throw new IOException("not an HTTP reply: " + status);
        }
        int code = Integer.parseInt(parts[1]);
        long length = -1;
        boolean chunked = false;
        boolean close = parts[0].equals("HTTP/1.0");
        for (String h = line(false); !h.isEmpty(); h = line(false)) {
            int colon = h.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = h.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = h.substring(colon + 1).trim().toLowerCase(Locale.ROOT);
            switch (name) {
                case "content-length" -> length = Long.parseLong(value);
                case "transfer-encoding" -> chunked = value.contains("chunked");
                case "connection" -> close = value.contains("close") || (close && !value.contains("keep-alive"));
                default -> {}
            }
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (chunked) {
            for (long n = chunk(); n > 0; n = chunk()) {
                copy(n, body);
                line(false);
            }
            for (String t = line(false); !t.isEmpty(); t = line(false)) {} // trailers
        } else if (length >= 0) {
            copy(length, body);
        } else {
            in.transferTo(body);
            close = true;
        }
        if (close) {
            close();
        }
        return new Page(code, body.toString(StandardCharsets.ISO_8859_1), close);
    }

    private long chunk() throws IOException {
        String size = line(false);
        int semi = size.indexOf(';');
        return Long.parseLong((semi < 0 ? size : size.substring(0, semi)).trim(), 16);
    }

    private void copy(long n, ByteArrayOutputStream body) throws IOException {
        if (n > MAX_BODY) {
            throw new IOException("a page of " + n + " bytes, more than the pre-flight reads");
        }
        byte[] b = in.readNBytes((int) n);
        if (b.length < n) {
            throw new EOFException("the reply ended after " + b.length + " of " + n + " bytes");
        }
        body.write(b);
    }

    /** One line without its CRLF; {@code first}: EOF before any byte is {@link ClosedBeforeReply}. */
    private String line(boolean first) throws IOException {
        StringBuilder b = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                if (first && b.isEmpty()) {
                    close();
                    throw new ClosedBeforeReply();
                }
                throw new EOFException("the reply ended inside its head");
            }
            if (c != '\r') {
                b.append((char) c);
            }
            if (b.length() > 65_536) {
                throw new IOException("a head line longer than 64 KiB");
            }
        }
        return b.toString();
    }

    /** True while a connection is open (the last reply did not close it). */
    boolean open() {
        return socket != null;
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                // closing a probe connection: nothing to keep
            }
            socket = null;
        }
    }
}
