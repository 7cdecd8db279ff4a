package org.rubis.client.log;

import io.netty.util.internal.PlatformDependent;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.rubis.client.input.ConfigException;
import org.rubis.format.io.RegularFile;
import org.rubis.format.run.Columns;
import org.rubis.format.run.RunFiles;

/**
 * The streaming request and session logs. Emulated users only enqueue records; one writer thread
 * formats them, appends whole lines to {@code requests.csv} and {@code sessions.csv}, feeds the
 * statistics, and flushes within about 200 ms of a record (batched: an idle log wakes no one, a
 * slow one wakes up five times a second at most), so a killed run leaves parseable files.
 * {@link #close()} drains everything and is safe to call from a shutdown hook.
 *
 * <p>Adding is "offer, then look whether the log is closed", not the other way round: a producer
 * that found the log open and was then held up before its offer put its record behind the writer's
 * end marker, where nobody read it (a silent loss). Now a record offered before {@link #close()} has
 * drained is written (by the writer, or by close from behind the marker); one offered later is
 * counted in {@link #lost()}, never dropped unseen. The hot path reads one flag after its offer
 * instead of one before it: no lock, no atomic added.
 *
 * <p>A failed write (the disk is full) stops the logs at the last whole line: the file is cut back to it, that batch
 * and every later record are counted in {@link #lost()}, and {@link #onWriteFailure} is told once, so the run stops
 * instead of going on unlogged. The statistics are fed a record only once its line is written, so the summary's
 * figures are those of the lines the files hold. A {@link RunFiles#DISK_RESERVE reserve} held on the disk from the
 * start is given back then, so that the summary and the other files' last lines still fit.
 */
public final class RunLog implements AutoCloseable {

    private static final Object POISON = new Object();
    /** A record reaches the file about this long after the first of its batch was added. */
    private static final long GATHER_NS = 200_000_000L;

    private static final int BATCH = 8191;

    /**
     * Many producers, one consumer (the writer), unbounded; for a few producer threads ({@link Producers#FEW})
     * array-based (Netty's copy of JCTools' queue): adding a record is one atomic increment and a store, with no
     * node per record, and wakes the writer only when it sleeps with nothing to do ({@link #writerIdle}). A
     * blocking queue's locks and signalling were a tenth of the event loop's time at the highest request rate, a
     * linked lock-free queue still 9 % (docs/BENCHMARKS.md); for thousands of platform threads the linked one
     * ({@link Producers#MANY}).
     */
    private final Queue<Object> queue;
    /** Whether requests.csv has the kernel backend's columns. */
    private final boolean kernelColumns;
    /** The writer is parked until a record comes. */
    private volatile boolean writerIdle;

    private final OutputStream requests;
    private final OutputStream sessions;
    private final Consumer<RequestRecord> requestSink;
    private final Consumer<SessionRecord> sessionSink;
    private final Thread writer;
    private volatile boolean closed;
    /** Set by {@link #close()} once the writer has ended: records still offered after it drains are counted lost. */
    private volatile boolean drained;

    private volatile IOException failure;
    private long written;
    private volatile boolean lowMemory;
    private volatile long lost;
    private volatile boolean statsIncomplete;
    /** Records formatted into the buffers, not yet written: fed to the statistics once their lines are in the file. */
    private final List<Object> pending = new ArrayList<>(BATCH + 1);

    private final FileOutputStream requestsFile;
    private final FileOutputStream sessionsFile;
    /** Bytes of whole lines in each file: a failed write is cut back to them. */
    private long requestsBytes;

    private long sessionsBytes;
    private final Path reserve;
    /** Told of a failed write; without one, {@link #close()} throws the failure. */
    private volatile Consumer<String> onWriteFailure;
    /** The first failed write in words ("requests.csv: No space left on device"), null while every write succeeded. */
    private volatile String failedWrite;
    /** Bytes held by the reserve on the run directory's disk. */
    static final int RESERVE_BYTES = 512 * 1024;

    /**
     * Who adds the records, which decides the queue between them and the writer.
     */
    public enum Producers {
        /**
         * A few threads, about one per core: event loops, or the carriers of virtual threads. The array queue: no node
         * per record. A producer that grows it makes the others wait, spinning, until the new chunk is linked (and
         * the writer waits, spinning, for a slot claimed but not yet filled): short while the producers have cores.
         */
        FEW,
        /**
         * Thousands of platform threads (thread per user or per session) on a few cores. A linked lock-free queue: an
         * offer is one compare-and-set, and no producer or writer ever waits on another thread's half-done offer. With
         * the array queue a producer descheduled in the middle of growing it left every other producer spinning on the
         * cores it needed (thousands of users log their sessions in the same millisecond at the end of a run).
         */
        MANY
    }

    public RunLog(Path dir, Consumer<RequestRecord> requestSink, Consumer<SessionRecord> sessionSink)
            throws IOException {
        this(dir, requestSink, sessionSink, Producers.FEW);
    }

    public RunLog(
            Path dir, Consumer<RequestRecord> requestSink, Consumer<SessionRecord> sessionSink, Producers producers)
            throws IOException {
        this(dir, requestSink, sessionSink, producers, false);
    }

    /** @param kernelColumns requests.csv has the kernel backend's columns ({@link Columns#REQUESTS_KERNEL}) */
    public RunLog(
            Path dir,
            Consumer<RequestRecord> requestSink,
            Consumer<SessionRecord> sessionSink,
            Producers producers,
            boolean kernelColumns)
            throws IOException {
        this(
                dir,
                requestSink,
                sessionSink,
                producers == Producers.MANY ? new ConcurrentLinkedQueue<>() : PlatformDependent.newMpscQueue(),
                kernelColumns);
    }

    /** Tests: a queue that holds an offer, to force a producer's record behind the end marker. */
    RunLog(Path dir, Consumer<RequestRecord> requestSink, Consumer<SessionRecord> sessionSink, Queue<Object> queue)
            throws IOException {
        this(dir, requestSink, sessionSink, queue, false);
    }

    private RunLog(
            Path dir,
            Consumer<RequestRecord> requestSink,
            Consumer<SessionRecord> sessionSink,
            Queue<Object> queue,
            boolean kernelColumns)
            throws IOException {
        this.queue = queue;
        this.kernelColumns = kernelColumns;
        // Plain file streams: a batch is written from the formatter's bytes as it is, with no allocation (out of heap
        // too).
        this.requestsFile =
                new FileOutputStream(RegularFile.fresh(RunFiles.requests(dir)).toFile()); // never through a link
        this.sessionsFile =
                new FileOutputStream(RegularFile.fresh(RunFiles.sessions(dir)).toFile());
        this.requests = requestsFile;
        this.sessions = sessionsFile;
        this.requestSink = requestSink;
        this.sessionSink = sessionSink;
        byte[] requestsHeader = (Columns.header(kernelColumns ? Columns.REQUESTS_WITH_KERNEL : Columns.REQUESTS) + "\n")
                .getBytes(StandardCharsets.UTF_8);
        byte[] sessionsHeader = (Columns.header(Columns.SESSIONS) + "\n").getBytes(StandardCharsets.UTF_8);
        requests.write(requestsHeader);
        sessions.write(sessionsHeader);
        requestsBytes = requestsHeader.length;
        sessionsBytes = sessionsHeader.length;
        this.reserve = dir.resolve(RunFiles.DISK_RESERVE);
        try {
            holdReserve();
        } catch (ConfigException e) {
            requestsFile.close();
            sessionsFile.close();
            throw e;
        }
        this.writer = new Thread(this::drain, "run-log-writer");
        writer.setDaemon(true);
        writer.setPriority(Thread.NORM_PRIORITY + 1);
        writer.start();
    }

    /** Blocks of real bytes (not a sparse file: that would hold no space). */
    private void holdReserve() throws IOException {
        try (FileOutputStream out =
                new FileOutputStream(RegularFile.fresh(reserve).toFile())) {
            byte[] block = new byte[64 * 1024];
            for (int i = 0; i < RESERVE_BYTES / block.length; i++) {
                out.write(block);
            }
        } catch (IOException e) {
            // The disk filled since the run directory was claimed: nothing of the reserve is left behind.
            releaseReserve();
            throw new ConfigException(reserve.getParent() + ": no room for the " + RESERVE_BYTES / 1024
                    + " KiB the logs keep for the summary (" + e.getMessage() + "); free some space or give the run a"
                    + " directory on another disk");
        }
    }

    private void releaseReserve() {
        try {
            Files.deleteIfExists(reserve);
        } catch (IOException e) {
            // Nothing to give back: the summary gets what the disk has.
        }
    }

    /**
     * Told once, from the writer thread, when a write fails, with the file and the failure in words
     * ({@code requests.csv: No space left on device}); no line is written after it.
     */
    public void onWriteFailure(Consumer<String> listener) {
        this.onWriteFailure = listener;
    }

    /** The first failed write in words, or null while every write succeeded. */
    public String failedWrite() {
        return failedWrite;
    }

    public void add(RequestRecord r) {
        enqueue(r);
    }

    public void add(SessionRecord s) {
        enqueue(s);
    }

    private void enqueue(Object o) {
        queue.offer(o);
        // The queue publishes some offers (when it grows a chunk) with a release store only: without this fence the
        // reads below could pass it, and a writer that just found the queue empty would sleep on a record, or a
        // close that just drained would miss it while this producer missed the close.
        VarHandle.fullFence();
        if (writerIdle) {
            LockSupport.unpark(writer);
        }
        if (drained) {
            late();
        }
    }

    /** After the close has drained: what is still queued was offered too late to be written. */
    private synchronized void late() {
        for (Object o = queue.poll(); o != null; o = queue.poll()) {
            if (o != POISON) {
                lost++;
            }
        }
    }

    private void drain() {
        List<Object> batch = new ArrayList<>(BATCH + 1);
        CsvLine req = new CsvLine(1 << 16);
        CsvLine ses = new CsvLine(1 << 12);
        boolean stop = false;
        while (!stop) {
            batch.clear();
            if (queue.isEmpty()) {
                // Idle: no wake-up until a record comes. Then gather for up to 200 ms, so that one wake-up
                // (about 0.1 ms of CPU on a virtual machine) handles all the records of a low rate, not each.
                writerIdle = true;
                while (queue.isEmpty()) {
                    LockSupport.park(this);
                }
                writerIdle = false;
                long due = System.nanoTime() + GATHER_NS;
                for (long left = GATHER_NS; left > 0 && !closed; left = due - System.nanoTime()) {
                    LockSupport.parkNanos(this, left);
                }
            }
            for (int max = lowMemory ? 63 : BATCH; batch.size() < max; ) {
                Object o = queue.poll();
                if (o == null) {
                    break;
                }
                batch.add(o);
            }
            for (Object o : batch) {
                if (o == POISON) {
                    stop = true;
                    continue;
                }
                try {
                    record(o, req, ses);
                } catch (OutOfMemoryError e) {
                    // The heap is exhausted (the run is failing): write out what is buffered (without
                    // allocating) and go on record by record, so the log stays complete.
                    lowMemory = true;
                    flush(req, ses);
                    try {
                        record(o, req, ses);
                    } catch (OutOfMemoryError again) {
                        lost++;
                    }
                }
            }
            flush(req, ses); // once per batch: at low rates once per 200 ms
        }
    }

    private void record(Object o, CsvLine req, CsvLine ses) {
        if (failedWrite != null) {
            lost++; // the disk is full: nothing more is written
            return;
        }
        if (o instanceof RequestRecord r) {
            int mark = req.length();
            try {
                r.appendCsv(req, kernelColumns);
            } catch (OutOfMemoryError e) {
                req.truncate(mark); // never a partial line
                throw e;
            }
            pending.add(r);
        } else if (o instanceof SessionRecord s) {
            int mark = ses.length();
            try {
                s.appendCsv(ses);
            } catch (OutOfMemoryError e) {
                ses.truncate(mark);
                throw e;
            }
            pending.add(s);
        }
        if (lowMemory) {
            flush(req, ses); // small writes, one record at a time
        }
    }

    /**
     * Feeds a record to the statistics; out of memory there leaves them incomplete, never the log. The sink and the
     * record are passed, not a lambda holding them: no object per record.
     */
    private <T> void feed(Consumer<T> sink, T record) {
        if (statsIncomplete) {
            return;
        }
        try {
            sink.accept(record);
        } catch (OutOfMemoryError e) {
            statsIncomplete = true;
        } catch (RuntimeException e) {
            System.err.println("warning: statistics failed on a record: " + e);
        }
    }

    /** True when the statistics missed records (they ran out of heap); the log itself is complete. */
    public boolean statsIncomplete() {
        return statsIncomplete;
    }

    /** Records that could not be written even after the writer released its buffers. */
    public long lost() {
        return lost;
    }

    /** Writes the buffered lines, then feeds their records to the statistics; a failed file's records are lost. */
    private void flush(CsvLine req, CsvLine ses) {
        boolean requestsWritten = write(req, requestsFile, RunFiles.REQUESTS, true);
        boolean sessionsWritten = write(ses, sessionsFile, RunFiles.SESSIONS, false);
        for (Object o : pending) {
            if (o instanceof RequestRecord r) {
                if (requestsWritten) {
                    written++;
                    feed(requestSink, r);
                } else {
                    lost++;
                }
            } else if (o instanceof SessionRecord s) {
                if (sessionsWritten) {
                    feed(sessionSink, s);
                } else {
                    lost++;
                }
            }
        }
        pending.clear();
    }

    /**
     * Appends a buffer's whole lines; on a failure cuts the file back to its last whole line (a full disk still lets a
     * file shrink) and stops the logs.
     */
    private boolean write(CsvLine buffer, FileOutputStream file, String name, boolean requestsLog) {
        int bytes = buffer.length();
        if (failedWrite != null) {
            buffer.truncate(0);
            return false;
        }
        try {
            buffer.writeTo(file);
            if (requestsLog) {
                requestsBytes += bytes;
            } else {
                sessionsBytes += bytes;
            }
            return true;
        } catch (IOException e) {
            buffer.truncate(0);
            failure = e;
            try {
                file.getChannel().truncate(requestsLog ? requestsBytes : sessionsBytes);
            } catch (IOException again) {
                e.addSuppressed(again);
            }
            failedWrite = name + ": " + e.getMessage();
            releaseReserve();
            Consumer<String> listener = onWriteFailure;
            if (listener != null) {
                listener.accept(failedWrite);
            }
            return false;
        }
    }

    public long written() {
        return written;
    }

    /** Writes the records of producers that offered after the end marker, before the writer ended. */
    private void drainBehindEnd() {
        CsvLine req = new CsvLine(1 << 10);
        CsvLine ses = new CsvLine(1 << 10);
        for (Object o = queue.poll(); o != null; o = queue.poll()) {
            if (o != POISON) {
                try {
                    record(o, req, ses);
                } catch (OutOfMemoryError e) {
                    lost++;
                }
            }
        }
        flush(req, ses);
    }

    /** Drains the queue, flushes and closes both files. */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        queue.add(POISON);
        LockSupport.unpark(writer); // out of its gathering pause
        try {
            writer.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!writer.isAlive()) { // the queue has one reader: this thread only once the writer has ended
            drained = true;
            VarHandle.fullFence(); // pairs with enqueue's: this drain sees the record, or its producer sees drained
            drainBehindEnd();
        }
        try (requests;
                sessions) {
            requests.flush();
            sessions.flush();
        } finally {
            releaseReserve();
        }
        if (failure != null && onWriteFailure == null) {
            throw failure;
        }
    }
}
