package org.rubis.client.log;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The streaming request and session logs. Emulated users only enqueue records; one writer thread
 * formats them, appends whole lines to {@code requests.csv} and {@code sessions.csv}, feeds the
 * statistics, and flushes at least every 200 ms, so a killed run leaves parseable files.
 * {@link #close()} drains everything and is safe to call from a shutdown hook.
 */
public final class RunLog implements AutoCloseable {

    private static final Object POISON = new Object();

    private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private final Writer requests;
    private final Writer sessions;
    private final Consumer<RequestRecord> requestSink;
    private final Consumer<SessionRecord> sessionSink;
    private final Thread writer;
    private volatile boolean closed;
    private volatile IOException failure;
    private long written;

    public RunLog(Path dir, Consumer<RequestRecord> requestSink, Consumer<SessionRecord> sessionSink) throws IOException {
        this.requests = Files.newBufferedWriter(dir.resolve("requests.csv"), StandardCharsets.UTF_8);
        this.sessions = Files.newBufferedWriter(dir.resolve("sessions.csv"), StandardCharsets.UTF_8);
        this.requestSink = requestSink;
        this.sessionSink = sessionSink;
        requests.write(RequestRecord.HEADER + "\n");
        sessions.write(SessionRecord.HEADER + "\n");
        requests.flush();
        sessions.flush();
        this.writer = new Thread(this::drain, "run-log-writer");
        writer.setDaemon(true);
        writer.setPriority(Thread.NORM_PRIORITY + 1);
        writer.start();
    }

    public void add(RequestRecord r) {
        if (!closed) {
            queue.add(r);
        }
    }

    public void add(SessionRecord s) {
        if (!closed) {
            queue.add(s);
        }
    }

    /** Records waiting to be written (a growing backlog means the writer cannot keep up). */
    public int backlog() {
        return queue.size();
    }

    private void drain() {
        List<Object> batch = new ArrayList<>(4096);
        StringBuilder req = new StringBuilder(1 << 16);
        StringBuilder ses = new StringBuilder(1 << 12);
        boolean stop = false;
        while (!stop) {
            batch.clear();
            try {
                Object first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first != null) {
                    batch.add(first);
                    queue.drainTo(batch, 8191);
                }
            } catch (InterruptedException e) {
                // close() will drain what is left
            }
            for (Object o : batch) {
                if (o == POISON) {
                    stop = true;
                } else if (o instanceof RequestRecord r) {
                    r.appendCsv(req);
                    written++;
                    safely(() -> requestSink.accept(r));
                } else if (o instanceof SessionRecord s) {
                    s.appendCsv(ses);
                    safely(() -> sessionSink.accept(s));
                }
            }
            try {
                if (!req.isEmpty()) {
                    requests.append(req);
                    req.setLength(0);
                }
                if (!ses.isEmpty()) {
                    sessions.append(ses);
                    ses.setLength(0);
                }
                requests.flush();
                sessions.flush();
            } catch (IOException e) {
                failure = e;
                req.setLength(0);
                ses.setLength(0);
            }
        }
    }

    private static void safely(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            System.err.println("warning: statistics failed on a record: " + e);
        }
    }

    public long written() {
        return written;
    }

    /** Drains the queue, flushes and closes both files. */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        queue.add(POISON);
        try {
            writer.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (requests; sessions) {
            requests.flush();
            sessions.flush();
        }
        if (failure != null) {
            throw failure;
        }
    }
}
