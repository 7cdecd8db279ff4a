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
import javax.net.ssl.SSLSocket;
import org.rubis.format.fault.FaultKind;
import org.rubis.format.fault.FaultRule;
import org.rubis.format.io.Tls;
import org.rubis.server.app.Response;
import org.rubis.server.app.RubisApp;
import org.rubis.server.fault.FaultInjector;
import org.rubis.server.fault.FaultReplies;
import org.rubis.server.truth.GroundTruth;

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

    private void serve(Socket raw) {
        InetSocketAddress remote = (InetSocketAddress) raw.getRemoteSocketAddress();
        GroundTruth.Conn conn = truth.opened(remote.getAddress().getHostAddress() + ":" + remote.getPort());
        String closedBy = "client";
        try (raw) {
            raw.setTcpNoDelay(true);
            Socket s = settings.tls() == null ? raw : handshake(raw, remote, conn);
            closedBy = s == null ? "tls-error" : new KeepAliveConnection(raw, s, conn).serve();
        } catch (SocketException e) {
            closedBy = running ? "reset" : "shutdown";
        } catch (IOException e) {
            closedBy = "error";
        } finally {
            truth.closed(conn, closedBy);
        }
    }

    /** The worker does the handshake itself, as an Apache prefork child does; null when the handshake fails. */
    private SSLSocket handshake(Socket raw, InetSocketAddress remote, GroundTruth.Conn conn) throws IOException {
        raw.setSoTimeout(30_000);
        SSLSocket ssl = (SSLSocket) settings.tls()
                .context()
                .getSocketFactory()
                .createSocket(raw, remote.getAddress().getHostAddress(), remote.getPort(), true);
        ssl.setUseClientMode(false);
        try {
            ssl.startHandshake();
        } catch (IOException e) {
            return null;
        }
        truth.handshake(conn, Tls.handshakeKind(ssl.getSession(), conn.openedMillis()));
        return ssl;
    }

    /**
     * One accepted connection's requests, read and answered in turn (or misbehaved on, as the next fault says)
     * until one side closes it; each request's arrival and reply go to the ground truth.
     */
    private final class KeepAliveConnection {
        private final Socket raw;
        private final Socket socket;
        private final GroundTruth.Conn conn;
        private final InputStream in;
        private final OutputStream out;

        KeepAliveConnection(Socket raw, Socket socket, GroundTruth.Conn conn) throws IOException {
            this.raw = raw;
            this.socket = socket;
            this.conn = conn;
            this.in = new BufferedInputStream(socket.getInputStream(), 16_384);
            this.out = socket.getOutputStream();
        }

        /** Serves requests until the connection ends; returns who or what closed it. */
        String serve() throws IOException {
            String closedBy = "client";
            while (running) {
                socket.setSoTimeout(settings.keepAliveMs());
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
                socket.setSoTimeout(30_000);
                Request req = Request.read(in, first);
                if (req == null) {
                    closedBy = "bad-request";
                    break;
                }
                String ended = answer(req, arrival);
                if (ended != null) {
                    closedBy = ended;
                    break;
                }
            }
            return running ? closedBy : "shutdown";
        }

        /** Answers one request as the next fault says; returns who closed the connection, or null to read on. */
        private String answer(Request req, long arrival) throws IOException {
            boolean admin = Exchange.isAdmin(req.uri);
            if (admin) {
                truth.admin(conn);
            }
            FaultRule fault = admin ? null : faults.next();
            FaultKind kind = fault == null ? null : fault.kind();
            String faultName = fault == null ? "" : kind.specName();
            if (kind == FaultKind.HANG
                    || kind == FaultKind.RESET
                    || kind == FaultKind.TRUNCATE
                    || kind == FaultKind.GARBAGE
                    || kind == FaultKind.DIE) {
                return misbehave(kind, faultName, req, arrival);
            }
            if (kind == FaultKind.DELAY && !pause(fault.param())) {
                return "client";
            }
            Response instead = faultReply(fault);
            Response r = instead != null ? instead : Exchange.respond(app, truth, req.uri);
            boolean keepAlive = req.keepAlive
                    && (settings.maxKeepAliveRequests() <= 0 || conn.requests() + 1 < settings.maxKeepAliveRequests());
            out.write(head(r, keepAlive));
            out.write(r.body());
            out.flush();
            long done = System.nanoTime();
            if (!admin) {
                truth.served(
                        conn,
                        arrival,
                        done,
                        r.interaction(),
                        r.status(),
                        r.body().length,
                        req.uri,
                        Exchange.isErrorPage(r),
                        faultName);
            }
            if (keepAlive && kind == FaultKind.IDLE_CLOSE) {
                pause(fault.param());
                return "fault-idle-close";
            }
            return keepAlive ? null : "server";
        }

        /** The faults that give no proper reply: never answer, a broken reply, or the server's death. */
        private String misbehave(FaultKind kind, String faultName, Request req, long arrival) throws IOException {
            if (kind == FaultKind.HANG) {
                truth.served(
                        conn, arrival, System.nanoTime(), FaultReplies.INTERACTION, 0, 0, req.uri, false, faultName);
                socket.setSoTimeout(0);
                while (in.read() >= 0) {
                    // never answer; wait for the client to give up
                }
                return "client";
            }
            if (kind == FaultKind.DIE) {
                truth.served(
                        conn, arrival, System.nanoTime(), FaultReplies.INTERACTION, 0, 0, req.uri, false, faultName);
                faults.die();
                return "client";
            }
            int half = FaultReplies.PARTIAL.length / 2;
            if (kind == FaultKind.GARBAGE) {
                out.write(FaultReplies.GARBAGE);
            } else {
                out.write(FaultReplies.head(200, FaultReplies.PARTIAL.length, true, "rubis-server/prefork"));
                out.write(FaultReplies.PARTIAL, 0, half);
            }
            out.flush();
            boolean garbage = kind == FaultKind.GARBAGE;
            truth.served(
                    conn,
                    arrival,
                    System.nanoTime(),
                    FaultReplies.INTERACTION,
                    garbage ? 0 : 200,
                    garbage ? FaultReplies.GARBAGE.length : half,
                    req.uri,
                    false,
                    faultName);
            if (kind == FaultKind.RESET) {
                raw.setSoLinger(true, 0); // close with RST
            }
            return "fault-" + faultName;
        }
    }

    /** Sleeps for a fault's pause; false when interrupted (the interrupt is kept). */
    private static boolean pause(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static byte[] head(Response r, boolean keepAlive) {
        String reason = r.status() == 200 ? " OK" : r.status() == 404 ? " Not Found" : " Error";
        String head = "HTTP/1.1 " + r.status() + reason + "\r\n"
                + "Content-Type: " + r.contentType() + "\r\nContent-Length: " + r.body().length + "\r\n"
                + "Server: rubis-server/prefork\r\nConnection: " + (keepAlive ? "keep-alive" : "close") + "\r\n\r\n";
        return head.getBytes(StandardCharsets.ISO_8859_1);
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
