package org.rubis.server.http;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.rubis.server.app.Response;
import org.rubis.server.fault.FaultInjector;
import org.rubis.format.fault.FaultKind;
import org.rubis.server.fault.FaultReplies;
import org.rubis.format.fault.FaultRule;
import org.rubis.server.app.RubisApp;
import org.rubis.server.truth.GroundTruth;
import org.rubis.format.Tls;

/**
 * The worker-pool model (like Apache prefork): each worker accepts one connection and serves it
 * for its whole keep-alive lifetime; connections beyond the pool wait in the accept backlog.
 * The pool starts with {@code initialWorkers} and grows towards {@code maxWorkers}: every
 * {@code spawnDelayMs}, when fewer than {@code minSpareWorkers} are idle, it spawns 1, 2, 4, ...
 * (at most 32) workers per round, as Apache does.
 */
public final class PreforkServer extends RubisHttpServer {

    private final List<Thread> workers = new CopyOnWriteArrayList<>();
    private final List<Socket> active = new CopyOnWriteArrayList<>();
    private final AtomicInteger idle = new AtomicInteger();
    private volatile boolean running = true;
    private ServerSocket server;
    private Thread supervisor;
    private volatile boolean paused;

    public PreforkServer(RubisApp app, GroundTruth truth, ServerSettings settings, FaultInjector faults) {
        super(app, truth, settings, faults);
    }

    /** Workers take no new connection from the listener until resumed (they wait in the backlog). */
    @Override
    void holdNewConnections() {
        paused = true;
    }

    @Override
    public void resumeAccepting() {
        paused = false;
    }

    /** Workers in the pool now. */
    public int workers() {
        return workers.size();
    }

    @Override
    public int start() throws IOException {
        server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(InetAddress.getByName(settings.host()), settings.port()), settings.backlog());
        spawn(Math.min(settings.initialWorkers(), settings.maxWorkers()));
        supervisor = new Thread(this::supervise, "prefork-supervisor");
        supervisor.setDaemon(true);
        supervisor.start();
        faults.start(this);
        return server.getLocalPort();
    }

    private void spawn(int n) {
        for (int i = 0; i < n && workers.size() < settings.maxWorkers(); i++) {
            Thread t = new Thread(this::work, "prefork-worker-" + workers.size());
            t.setDaemon(true);
            idle.incrementAndGet();
            workers.add(t);
            t.start();
        }
    }

    private void supervise() {
        int rate = 1;
        while (running) {
            try {
                Thread.sleep(Math.max(1, settings.spawnDelayMs()));
            } catch (InterruptedException e) {
                return;
            }
            if (idle.get() < settings.minSpareWorkers() && workers.size() < settings.maxWorkers()) {
                spawn(rate);
                rate = Math.min(32, rate * 2);
            } else {
                rate = 1;
            }
        }
    }

    private void work() {
        while (running) {
            Socket s;
            try {
                while (paused && running) {
                    Thread.sleep(10); // stop-accepting fault: the listener's backlog holds new connections
                }
                s = server.accept();
                while (paused && running) {
                    Thread.sleep(10); // accepted just as the window began: held unanswered like the backlog's
                }
            } catch (IOException e) {
                if (running) {
                    continue;
                }
                return;
            } catch (InterruptedException e) {
                return;
            }
            idle.decrementAndGet();
            active.add(s);
            try {
                serve(s);
            } finally {
                active.remove(s);
                idle.incrementAndGet();
            }
        }
    }

    private void serve(Socket s) {
        InetSocketAddress remote = (InetSocketAddress) s.getRemoteSocketAddress();
        GroundTruth.Conn conn = truth.opened(remote.getAddress().getHostAddress() + ":" + remote.getPort());
        String closedBy = "client";
        Socket raw = s;
        try (raw) {
            s.setTcpNoDelay(true);
            if (settings.tls() != null) {
                // The worker does the handshake itself, as an Apache prefork child does.
                s.setSoTimeout(30_000);
                javax.net.ssl.SSLSocket ssl = (javax.net.ssl.SSLSocket) settings.tls().context().getSocketFactory()
                        .createSocket(raw, remote.getAddress().getHostAddress(), remote.getPort(), true);
                ssl.setUseClientMode(false);
                try {
                    ssl.startHandshake();
                } catch (IOException e) {
                    closedBy = "tls-error";
                    return;
                }
                truth.handshake(conn, Tls.handshakeKind(ssl.getSession(), conn.openedMillis()));
                s = ssl;
            }
            InputStream in = new BufferedInputStream(s.getInputStream(), 16_384);
            OutputStream out = s.getOutputStream();
            while (running) {
                s.setSoTimeout(settings.keepAliveMs());
                int first;
                try {
                    first = in.read();
                } catch (SocketTimeoutException e) {
                    closedBy = "idle-timeout";
                    break;
                }
                if (first < 0) {
                    break;
                }
                long arrival = System.nanoTime();
                s.setSoTimeout(30_000);
                Request req = Request.read(in, first);
                if (req == null) {
                    closedBy = "bad-request";
                    break;
                }
                boolean admin = Exchange.isAdmin(req.uri);
                if (admin) {
                    truth.admin(conn);
                }
                FaultRule fault = admin ? null : faults.next();
                FaultKind kind = fault == null ? null : fault.kind();
                String faultName = fault == null ? "" : kind.specName();
                if (kind == FaultKind.HANG) {
                    truth.served(conn, arrival, System.nanoTime(), FaultReplies.INTERACTION, 0, 0, req.uri, false, faultName);
                    s.setSoTimeout(0);
                    while (in.read() >= 0) {
                        // never answer; wait for the client to give up
                    }
                    break;
                }
                if (kind == FaultKind.RESET || kind == FaultKind.TRUNCATE || kind == FaultKind.GARBAGE) {
                    int half = FaultReplies.PARTIAL.length / 2;
                    if (kind == FaultKind.GARBAGE) {
                        out.write(FaultReplies.GARBAGE);
                    } else {
                        out.write(FaultReplies.head(200, FaultReplies.PARTIAL.length, true, "rubis-server/prefork"));
                        out.write(FaultReplies.PARTIAL, 0, half);
                    }
                    out.flush();
                    truth.served(conn, arrival, System.nanoTime(), FaultReplies.INTERACTION, kind == FaultKind.GARBAGE ? 0 : 200,
                            kind == FaultKind.GARBAGE ? FaultReplies.GARBAGE.length : half, req.uri, false, faultName);
                    if (kind == FaultKind.RESET) {
                        raw.setSoLinger(true, 0); // close with RST
                    }
                    closedBy = "fault-" + faultName;
                    break;
                }
                if (kind == FaultKind.DIE) {
                    truth.served(conn, arrival, System.nanoTime(), FaultReplies.INTERACTION, 0, 0, req.uri, false, faultName);
                    faults.die();
                    break;
                }
                if (kind == FaultKind.DELAY) {
                    try {
                        Thread.sleep(fault.param());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
                Response instead = faultReply(fault);
                Response r = instead != null ? instead : Exchange.respond(app, truth, req.uri);
                boolean keepAlive = req.keepAlive
                        && (settings.maxKeepAliveRequests() <= 0 || conn.requests() + 1 < settings.maxKeepAliveRequests());
                String head = "HTTP/1.1 " + r.status() + (r.status() == 200 ? " OK" : r.status() == 404 ? " Not Found" : " Error") + "\r\n"
                        + "Content-Type: " + r.contentType() + "\r\nContent-Length: " + r.body().length + "\r\n"
                        + "Server: rubis-server/prefork\r\nConnection: " + (keepAlive ? "keep-alive" : "close") + "\r\n\r\n";
                out.write(head.getBytes(StandardCharsets.ISO_8859_1));
                out.write(r.body());
                out.flush();
                long done = System.nanoTime();
                if (!admin) {
                    truth.served(conn, arrival, done, r.interaction(), r.status(), r.body().length, req.uri, Exchange.isErrorPage(r), faultName);
                }
                if (keepAlive && kind == FaultKind.IDLE_CLOSE) {
                    try {
                        Thread.sleep(fault.param());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    closedBy = "fault-idle-close";
                    break;
                }
                if (!keepAlive) {
                    closedBy = "server";
                    break;
                }
            }
            if (!running) {
                closedBy = "shutdown";
            }
        } catch (SocketException e) {
            closedBy = running ? "reset" : "shutdown";
        } catch (IOException e) {
            closedBy = "error";
        } finally {
            truth.closed(conn, closedBy);
        }
    }

    /** The request line and the headers that matter; the rest is skipped. */
    private record Request(String uri, boolean keepAlive) {
        static Request read(InputStream in, int first) throws IOException {
            String line = line(in, first);
            if (line == null) {
                return null;
            }
            String[] parts = line.split(" ");
            if (parts.length < 2) {
                return null;
            }
            boolean http11 = parts.length < 3 || !parts[2].equals("HTTP/1.0");
            boolean keepAlive = http11;
            long contentLength = 0;
            while (true) {
                String h = line(in, in.read());
                if (h == null) {
                    return null;
                }
                if (h.isEmpty()) {
                    break;
                }
                int colon = h.indexOf(':');
                if (colon < 0) {
                    continue;
                }
                String name = h.substring(0, colon).strip();
                String value = h.substring(colon + 1).strip();
                if (name.equalsIgnoreCase("Connection")) {
                    keepAlive = value.equalsIgnoreCase("keep-alive") || (http11 && !value.equalsIgnoreCase("close"));
                } else if (name.equalsIgnoreCase("Content-Length")) {
                    try {
                        contentLength = Long.parseLong(value);
                    } catch (NumberFormatException e) {
                        return null;
                    }
                }
            }
            if (contentLength > 0) {
                in.skipNBytes(contentLength);
            }
            return new Request(parts[1], keepAlive);
        }

        private static String line(InputStream in, int first) throws IOException {
            StringBuilder b = new StringBuilder(128);
            int c = first;
            while (c >= 0 && c != '\n') {
                if (c != '\r') {
                    b.append((char) c);
                }
                if (b.length() > 65_536) {
                    return null;
                }
                c = in.read();
            }
            return c < 0 && b.isEmpty() ? null : b.toString();
        }
    }

    @Override
    public void close() {
        running = false;
        faults.close();
        try {
            if (server != null) {
                server.close();
            }
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Socket s : active) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        if (supervisor != null) {
            supervisor.interrupt();
        }
        for (Thread t : workers) {
            try {
                t.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
