package org.rubis.server.truth;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.rubis.format.io.AtomicFile;
import org.rubis.format.run.RunFiles;

/**
 * The server's own account of what it served: one record per request and per connection, written
 * to {@code requests.csv} and {@code connections.csv} by a background thread (never by the thread
 * that serves), and counters summarised in {@code stats.json} and {@code GET /rubis-server/stats}.
 *
 * <p>The client's reference probe ({@code run --probe}) shares the server with the emulated users but is
 * not part of the workload: its requests (those carrying {@link RunFiles#PROBE_QUERY}) and its connection
 * are logged like any other, and counted apart ({@code probe_requests}, {@code probe_connections}), so that
 * every other counter is the users' own and compares with the client's logs like for like.
 */
public final class GroundTruth implements AutoCloseable {

    public static final String REQUESTS_HEADER =
            "connection_id,arrival_epoch_ns,completion_epoch_ns,service_ns,interaction,status,bytes,path,fault";
    public static final String CONNECTIONS_HEADER = "connection_id,open_epoch_ns,close_epoch_ns,requests,closed_by,tls";

    /** State of one open connection. */
    public static final class Conn {
        final String id;
        final long openNano;
        final AtomicInteger requests = new AtomicInteger();
        final long openedMillis = System.currentTimeMillis();
        volatile boolean closed;
        volatile boolean probe;
        volatile String tls = "";

        Conn(String id, long openNano) {
            this.id = id;
            this.openNano = openNano;
        }

        public int requests() {
            return requests.get();
        }

        public long openedMillis() {
            return openedMillis;
        }
    }

    /** Records the TLS handshake of a connection: "full" or "resumed". */
    public void handshake(Conn c, String kind) {
        c.tls = kind;
        (kind.equals("resumed") ? tlsResumed : tlsFull).incrementAndGet();
    }

    private final EpochClock clock = new EpochClock();
    private final Path dir;
    private final String model;
    private final LinkedBlockingQueue<String[]> queue = new LinkedBlockingQueue<>();
    private final Thread writer;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong errorPages = new AtomicLong();
    private final AtomicLong probeRequests = new AtomicLong();
    private final AtomicLong probeConnections = new AtomicLong();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicInteger current = new AtomicInteger();
    private final AtomicInteger maxCurrent = new AtomicInteger();
    private final AtomicLong tlsFull = new AtomicLong();
    private final AtomicLong tlsResumed = new AtomicLong();
    private final Map<String, Conn> open = new ConcurrentHashMap<>();
    private final Map<Integer, AtomicLong> perConnection = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> perInteraction = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> faults = new ConcurrentHashMap<>();
    private final long startNano = System.nanoTime();
    private volatile boolean closed;
    private static final String[] POISON = new String[0];

    /** @param dir output directory, or null to keep counters only */
    public GroundTruth(Path dir, String model) throws IOException {
        this.dir = dir;
        this.model = model;
        if (dir != null) {
            Files.createDirectories(dir);
            BufferedWriter req = Files.newBufferedWriter(dir.resolve(RunFiles.SERVER_REQUESTS), StandardCharsets.UTF_8);
            BufferedWriter con =
                    Files.newBufferedWriter(dir.resolve(RunFiles.SERVER_CONNECTIONS), StandardCharsets.UTF_8);
            req.write(REQUESTS_HEADER);
            req.newLine();
            con.write(CONNECTIONS_HEADER);
            con.newLine();
            req.flush();
            con.flush();
            writer = new Thread(() -> drain(req, con), "ground-truth-writer");
            writer.setDaemon(true);
            writer.start();
        } else {
            writer = null;
        }
    }

    public Conn opened(String connectionId) {
        Conn c = new Conn(connectionId, System.nanoTime());
        open.put(connectionId, c);
        accepted.incrementAndGet();
        int now = current.incrementAndGet();
        maxCurrent.accumulateAndGet(now, Math::max);
        return c;
    }

    public void closed(Conn c, String closedBy) {
        if (c.closed) {
            return;
        }
        c.closed = true;
        open.remove(c.id);
        int n = c.requests.get();
        if (!c.probe) {
            current.decrementAndGet();
            perConnection.computeIfAbsent(n, k -> new AtomicLong()).incrementAndGet();
        }
        long closeNano = System.nanoTime();
        enqueue(new String[] {
            "C",
            c.id,
            Long.toString(clock.epochNs(c.openNano)),
            Long.toString(clock.epochNs(closeNano)),
            Integer.toString(n),
            closedBy,
            c.tls
        });
    }

    /**
     * Takes a connection used for the admin endpoint out of the accounting, so a test or script
     * reading {@code /rubis-server/stats} does not count as a client connection.
     */
    public void admin(Conn c) {
        if (c.closed || c.requests.get() > 0) {
            return;
        }
        c.closed = true;
        if (open.remove(c.id) != null) {
            accepted.decrementAndGet();
            current.decrementAndGet();
        }
    }

    /**
     * Records one request; arrival and completion are {@link System#nanoTime()} readings, {@code fault} names the
     * fault injected on it ({@code ""}: none), so the log says which request was answered wrongly on purpose.
     */
    public void served(
            Conn c,
            long arrivalNano,
            long completionNano,
            String interaction,
            int status,
            int bytes,
            String path,
            boolean errorPage,
            String fault) {
        if (!fault.isEmpty()) {
            fault(fault);
        }
        c.requests.incrementAndGet();
        if (path.contains(RunFiles.PROBE_QUERY)) {
            probe(c);
        } else {
            requests.incrementAndGet();
            if (errorPage) {
                errorPages.incrementAndGet();
            }
            perInteraction.computeIfAbsent(interaction, k -> new AtomicLong()).incrementAndGet();
        }
        enqueue(new String[] {
            "R",
            c.id,
            Long.toString(clock.epochNs(arrivalNano)),
            Long.toString(clock.epochNs(completionNano)),
            Long.toString(completionNano - arrivalNano),
            interaction,
            Integer.toString(status),
            Integer.toString(bytes),
            path,
            fault
        });
    }

    /** Counts a request of the reference probe apart, and its connection (at its first request) with the probe's. */
    private void probe(Conn c) {
        probeRequests.incrementAndGet();
        synchronized (c) {
            if (c.probe) {
                return;
            }
            c.probe = true;
        }
        probeConnections.incrementAndGet();
        if (!c.closed) {
            accepted.decrementAndGet();
            current.decrementAndGet();
        }
    }

    /** Counts one injected fault (per request, or server-wide such as stop-accepting), for stats.json. */
    public void fault(String kind) {
        faults.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
    }

    private void enqueue(String[] rec) {
        if (writer != null && !closed) {
            queue.add(rec);
        }
    }

    private void drain(BufferedWriter req, BufferedWriter con) {
        try (req;
                con) {
            ArrayList<String[]> batch = new ArrayList<>(1024);
            while (true) {
                batch.clear();
                batch.add(queue.take());
                queue.drainTo(batch, 4095);
                boolean stop = false;
                for (String[] r : batch) {
                    if (r == POISON) {
                        stop = true;
                        continue;
                    }
                    BufferedWriter w = r[0].equals("R") ? req : con;
                    for (int i = 1; i < r.length; i++) {
                        if (i > 1) {
                            w.write(',');
                        }
                        w.write(csv(r[i]));
                    }
                    w.newLine();
                }
                req.flush();
                con.flush();
                if (stop) {
                    return;
                }
            }
        } catch (IOException e) {
            System.err.println("rubis-server: cannot write the ground-truth log: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String csv(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    /** The counters as JSON (also served at /rubis-server/stats). */
    public String statsJson() {
        StringBuilder b = new StringBuilder(512);
        b.append("{\n  \"model\": \"").append(model).append("\",\n");
        field(b, "uptime_ms", (System.nanoTime() - startNano) / 1_000_000);
        field(b, "requests", requests.get());
        field(b, "error_pages", errorPages.get());
        field(b, "connections_accepted", accepted.get());
        field(b, "current_connections", current.get());
        field(b, "max_concurrent_connections", maxCurrent.get());
        field(b, "probe_requests", probeRequests.get());
        field(b, "probe_connections", probeConnections.get());
        field(b, "tls_full_handshakes", tlsFull.get());
        field(b, "tls_resumed_handshakes", tlsResumed.get());
        b.append("  \"requests_per_connection\": ");
        requestsPerConnection(b);
        b.append(",\n  \"by_interaction\": ");
        object(b, new TreeMap<>(perInteraction));
        b.append(",\n  \"faults\": ");
        object(b, new TreeMap<>(faults));
        b.append("\n}\n");
        return b.toString();
    }

    private static void field(StringBuilder b, String name, long value) {
        b.append("  \"").append(name).append("\": ").append(value).append(",\n");
    }

    /** The requests per connection, closed and open (probes apart): min, max, mean and the histogram. */
    private void requestsPerConnection(StringBuilder b) {
        Map<Integer, Long> hist = new TreeMap<>();
        perConnection.forEach((k, v) -> hist.merge(k, v.get(), Long::sum));
        for (Conn c : open.values()) {
            if (!c.probe) {
                hist.merge(c.requests.get(), 1L, Long::sum);
            }
        }
        long conns = 0;
        long reqs = 0;
        int min = Integer.MAX_VALUE;
        int max = 0;
        for (var e : hist.entrySet()) {
            conns += e.getValue();
            reqs += (long) e.getKey() * e.getValue();
            min = Math.min(min, e.getKey());
            max = Math.max(max, e.getKey());
        }
        b.append("{\"min\": ")
                .append(conns == 0 ? 0 : min)
                .append(", \"max\": ")
                .append(max)
                .append(", \"mean\": ")
                .append(conns == 0 ? "0" : String.format(Locale.ROOT, "%.3f", (double) reqs / conns))
                .append(", \"histogram\": ");
        object(b, hist);
        b.append('}');
    }

    /** {@code {"key": value, ...}} in the map's order. */
    private static void object(StringBuilder b, Map<?, ?> counts) {
        b.append('{');
        boolean first = true;
        for (var e : counts.entrySet()) {
            b.append(first ? "" : ", ")
                    .append('"')
                    .append(e.getKey())
                    .append("\": ")
                    .append(e.getValue());
            first = false;
        }
        b.append('}');
    }

    public long requests() {
        return requests.get();
    }

    /** Requests of the reference probe, counted apart from {@link #requests()}. */
    public long probeRequests() {
        return probeRequests.get();
    }

    public long connectionsAccepted() {
        return accepted.get();
    }

    public int maxConcurrentConnections() {
        return maxCurrent.get();
    }

    /** Records still-open connections as closed by shutdown, flushes the logs and writes stats.json. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        for (Conn c : new ArrayList<>(open.values())) {
            closed(c, "shutdown");
        }
        String stats = statsJson();
        closed = true;
        if (writer != null) {
            queue.add(POISON);
            try {
                writer.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try {
                AtomicFile.writeString(dir.resolve(RunFiles.SERVER_STATS), stats); // whole or not at all
            } catch (IOException e) {
                System.err.println("rubis-server: cannot write stats.json: " + e.getMessage());
            }
        }
    }
}
