package org.rubis.server;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;

/** A minimal keep-alive HTTP/1.1 client on one socket, so tests control connections exactly. */
final class RawHttp implements AutoCloseable {

    record Reply(int status, String body, boolean close) {}

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RawHttp(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        in = new BufferedInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    Reply get(String path) throws IOException {
        out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        String status = line();
        if (status == null) {
            throw new IOException("connection closed");
        }
        int length = -1;
        boolean close = false;
        String h;
        while (!(h = line()).isEmpty()) {
            String lower = h.toLowerCase();
            if (lower.startsWith("content-length:")) {
                length = Integer.parseInt(h.substring(15).strip());
            } else if (lower.startsWith("connection:")) {
                close = lower.contains("close");
            }
        }
        byte[] body = in.readNBytes(length);
        return new Reply(Integer.parseInt(status.split(" ")[1]), new String(body, StandardCharsets.ISO_8859_1), close);
    }

    /** True when the server has closed the connection (read returns end of stream). */
    boolean closedByServer() throws IOException {
        try {
            return in.read() < 0;
        } catch (SocketException e) {
            return true;
        }
    }

    private String line() throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0 && c != '\n') {
            if (c != '\r') {
                b.append((char) c);
            }
        }
        return c < 0 && b.isEmpty() ? null : b.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
