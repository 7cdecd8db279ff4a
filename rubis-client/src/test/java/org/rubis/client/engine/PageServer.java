package org.rubis.client.engine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.config.ConfigLoader;

/**
 * A loopback HTTP/1.1 server for the engine's tests: answers every request with the same small page on a kept-alive
 * connection, and keeps what a test checks against: the request heads as received, and the connections accepted.
 */
final class PageServer implements AutoCloseable {

    static final String PAGE = "<html>Home</html>";

    private final ServerSocket server;
    final List<String> heads = new CopyOnWriteArrayList<>();
    final AtomicInteger accepted = new AtomicInteger();
    /** A connection idle this long between requests is closed, as servers close idle keep-alive connections (0: never). */
    volatile int idleCloseMs;

    final AtomicInteger idleClosed = new AtomicInteger();
    /** The page every request gets. */
    volatile String page = PAGE;

    PageServer() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    accepted.incrementAndGet();
                    Thread.ofVirtual().start(() -> serve(s));
                } catch (IOException e) {
                    return;
                }
            }
        });
        t.setDaemon(true);
        t.start();
    }

    int port() {
        return server.getLocalPort();
    }

    String base() {
        return "http://127.0.0.1:" + port();
    }

    /** A run against this server with {@code backend}: sessions of one request, no ramps. */
    ClientConfig config(String backend) {
        return config(backend, Map.of());
    }

    /**
     * Five users whose sessions of up to 1,000 requests outlast any test (120 s), think times scaled by {@code
     * thinkScale}: a run the test ends by work done ({@link StopAfterRequests}), not by time.
     */
    ClientConfig longSessions(String backend, double thinkScale, long seed) {
        return config(
                backend,
                Map.of(
                        "workload_maximum_number_of_transitions",
                        "1000",
                        "workload_number_of_clients_per_node",
                        "5",
                        "workload_session_run_time_in_ms",
                        "120000",
                        "workload_think_scale",
                        String.valueOf(thinkScale),
                        "client_seed",
                        String.valueOf(seed),
                        "client_progress",
                        "no"));
    }

    /** {@link #config(String)} with {@code settings} added or replaced (e.g. longer sessions). */
    ClientConfig config(String backend, Map<String, String> settings) {
        Map<String, String> m = new HashMap<>(Map.of(
                "client_backend",
                backend,
                "client_target",
                base(),
                "workload_maximum_number_of_transitions",
                "1",
                "workload_session_run_time_in_ms",
                "5000",
                "workload_up_ramp_time_in_ms",
                "0",
                "workload_down_ramp_time_in_ms",
                "0"));
        m.putAll(settings);
        return ConfigLoader.load((Path) null, m);
    }

    private void serve(Socket s) {
        try (s) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            while (true) {
                ByteArrayOutputStream head = new ByteArrayOutputStream();
                int c;
                s.setSoTimeout(idleCloseMs);
                try {
                    c = in.read();
                } catch (SocketTimeoutException idle) {
                    idleClosed.incrementAndGet();
                    return; // closes the connection
                }
                s.setSoTimeout(0);
                if (c >= 0) {
                    head.write(c);
                }
                while (c >= 0 && (c = in.read()) >= 0) {
                    head.write(c);
                    byte[] b = head.toByteArray();
                    int n = b.length;
                    if (n >= 4 && b[n - 4] == '\r' && b[n - 3] == '\n' && b[n - 2] == '\r' && b[n - 1] == '\n') {
                        break;
                    }
                }
                if (c < 0) {
                    return;
                }
                heads.add(head.toString(StandardCharsets.ISO_8859_1));
                String body = page;
                out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: " + body.length()
                                + "\r\nConnection: keep-alive\r\n\r\n" + body)
                        .getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            }
        } catch (IOException e) {
            // the client went away
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
