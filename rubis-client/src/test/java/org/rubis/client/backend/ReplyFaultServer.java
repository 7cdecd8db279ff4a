package org.rubis.client.backend;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback server whose replies are malformed, endless, oversized or redirected, chosen by the request's path (one
 * server serves every fault, so a parameterised test shares it), and which counts what it saw: the requests of each
 * path (the truth for resends: the requests a client made are the lines it logged plus their retries), the replies
 * the client cut off (a write failed because the client closed), and the requests that reached the other host a
 * redirect named. A second listener, on 127.0.0.2, is that other host; a third accepts and never reads nor writes
 * (a TLS handshake stalls there).
 *
 * <p>Paths: {@code /ok} (200, keep-alive), {@code /redirect-same} and {@code /redirect-other} (302 to {@code /landing}
 * on this host, or on the other host), {@code /reset} and {@code /close} (RST or FIN before any byte), {@code
 * /big-header} (a 2 MiB header line), {@code /length-negative} and {@code /length-20-digits} (a Content-Length that is
 * not one, the connection kept open), {@code /drip} (one body byte every 40 ms), {@code /endless-chunked} (a small
 * chunk every 20 ms), {@code /too-large-announced} (a Content-Length over the maximum page, then nothing) and {@code
 * /too-large-chunked} (1 MiB chunks as fast as the client reads, without end).
 */
final class ReplyFaultServer implements AutoCloseable {

    static final String OK_BODY = "hello";
    private static final byte[] MIB = new byte[1 << 20];

    private final ServerSocket main;
    private final ServerSocket other;
    private final ServerSocket silent;
    private final Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> cutOff = new ConcurrentHashMap<>();
    private final AtomicInteger otherHostRequests = new AtomicInteger();
    private final List<Socket> open = new CopyOnWriteArrayList<>();

    ReplyFaultServer() throws IOException {
        main = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        other = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.2"));
        silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        accept(main, this::serve);
        accept(other, s -> {
            if (readPath(s.getInputStream()) != null) {
                otherHostRequests.incrementAndGet();
            }
            write(s.getOutputStream(), head("200 OK", "Content-Length: 5") + OK_BODY);
        });
        accept(silent, s -> {
            try {
                TimeUnit.MINUTES.sleep(1); // holds the connection, reads nothing, until closed
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /** {@code http://127.0.0.1:port} of the faults. */
    String base() {
        return "http://127.0.0.1:" + main.getLocalPort();
    }

    /** {@code https://127.0.0.1:port} of the listener that never answers: a TLS handshake stalls there. */
    String stalledTls() {
        return "https://127.0.0.1:" + silent.getLocalPort();
    }

    /** Requests of {@code path} this server read so far. */
    int requests(String path) {
        return count(seen, path);
    }

    /** Replies to {@code path} whose write failed because the client had closed the connection. */
    int cutOff(String path) {
        return count(cutOff, path);
    }

    /** Requests that reached the other host (where {@code /redirect-other} points). */
    int otherHostRequests() {
        return otherHostRequests.get();
    }

    private static int count(Map<String, AtomicInteger> m, String path) {
        AtomicInteger n = m.get(path);
        return n == null ? 0 : n.get();
    }

    private interface Handler {
        void serve(Socket s) throws IOException;
    }

    private void accept(ServerSocket listener, Handler handler) {
        Thread.ofPlatform()
                .daemon()
                .name("fault-accept-" + listener.getLocalPort())
                .start(() -> {
                    while (!listener.isClosed()) {
                        Socket s;
                        try {
                            s = listener.accept();
                        } catch (IOException e) {
                            return;
                        }
                        open.add(s);
                        Thread.ofPlatform().daemon().start(() -> {
                            try (s) {
                                handler.serve(s);
                            } catch (IOException e) {
                                // the client went away
                            } finally {
                                open.remove(s);
                            }
                        });
                    }
                });
    }

    /** One connection: requests until the client closes it or a fault ends it. */
    private void serve(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        OutputStream out = s.getOutputStream();
        String path;
        while ((path = readPath(in)) != null) {
            seen.computeIfAbsent(path, k -> new AtomicInteger()).incrementAndGet();
            try {
                if (!reply(path, s, out)) {
                    return;
                }
            } catch (IOException e) {
                cutOff.computeIfAbsent(path, k -> new AtomicInteger()).incrementAndGet();
                return;
            }
        }
    }

    /** Answers {@code path}; false when the connection is to be left (closed, reset, or an endless reply ended). */
    private boolean reply(String path, Socket s, OutputStream out) throws IOException {
        switch (path) {
            case "/ok", "/landing" -> write(out, head("200 OK", "Content-Length: 5") + OK_BODY);
            case "/redirect-same" -> write(out, head("302 Found", "Location: /landing", "Content-Length: 5") + "moved");
            case "/redirect-other" ->
                write(
                        out,
                        head(
                                        "302 Found",
                                        "Location: http://127.0.0.2:" + other.getLocalPort() + "/landing",
                                        "Content-Length: 5")
                                + "moved");
            case "/reset" -> {
                s.setSoLinger(true, 0);
                return false;
            }
            case "/close" -> {
                return false;
            }
            case "/big-header" ->
                write(out, head("200 OK", "X-Big: " + "a".repeat(2 << 20), "Content-Length: 5") + OK_BODY);
            case "/length-negative" -> write(out, head("200 OK", "Content-Length: -5") + OK_BODY);
            case "/length-20-digits" -> write(out, head("200 OK", "Content-Length: 12345678901234567890") + OK_BODY);
            case "/drip" -> {
                write(out, head("200 OK", "Content-Length: 1000"));
                for (int i = 0; i < 1000; i++) {
                    pause(40);
                    out.write('x');
                    out.flush();
                }
            }
            case "/endless-chunked" -> {
                write(out, head("200 OK", "Transfer-Encoding: chunked"));
                while (true) {
                    pause(20);
                    write(out, "5\r\nhello\r\n");
                }
            }
            case "/too-large-announced" -> {
                write(out, head("200 OK", "Content-Length: " + (Backend.MAX_PAGE_BYTES + 1L)) + "x".repeat(100));
                pause(10_000); // the rest never comes: the client must not wait for it
                return false;
            }
            case "/too-large-chunked" -> {
                write(out, head("200 OK", "Transfer-Encoding: chunked"));
                byte[] size = (Integer.toHexString(MIB.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
                while (true) {
                    out.write(size);
                    out.write(MIB);
                    out.write('\r');
                    out.write('\n');
                }
            }
            default -> write(out, head("404 Not Found", "Content-Length: 0"));
        }
        return true;
    }

    private static String head(String status, String... headers) {
        StringBuilder b = new StringBuilder("HTTP/1.1 ").append(status).append("\r\n");
        for (String h : headers) {
            b.append(h).append("\r\n");
        }
        return b.append("\r\n").toString();
    }

    private static void write(OutputStream out, String s) throws IOException {
        out.write(s.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    private static void pause(long ms) throws IOException {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }

    /** The path of the next request on the connection (its head read whole), or null at the end of the stream. */
    private static String readPath(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        String path = null;
        int state = 0;
        int c;
        while ((c = in.read()) >= 0) {
            if (path == null) {
                if (c == '\r' || c == '\n') {
                    String[] parts = line.toString().split(" ");
                    path = parts.length > 1 ? parts[1] : "";
                } else {
                    line.append((char) c);
                }
            }
            boolean next = c == '\r' ? state == 0 || state == 2 : c == '\n' && (state == 1 || state == 3);
            state = next ? state + 1 : 0;
            if (state == 4) {
                return path;
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        main.close();
        other.close();
        silent.close();
        for (Socket s : open) {
            s.close();
        }
    }
}
