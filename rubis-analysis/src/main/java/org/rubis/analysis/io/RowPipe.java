package org.rubis.analysis.io;

import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Reads a file's rows on a thread of its own while the caller's thread consumes them, in batches: reading and
 * splitting the lines was half the work of a report, and a second core did nothing. The queue holds a few batches,
 * so memory stays a few thousand rows whatever the file's length; the reader stops when the consumer fails, and its
 * own failure is thrown on the consumer's thread. The reader's counts (bad lines) are read after it has ended.
 */
final class RowPipe {

    private static final int BATCH = 2048;
    private static final CsvStream.Row[] END = new CsvStream.Row[0];

    private final ArrayBlockingQueue<CsvStream.Row[]> queue = new ArrayBlockingQueue<>(4);
    private volatile boolean stopped;
    private Throwable failure;

    private RowPipe() {}

    /** Hands every row of {@code cursor} to {@code consumer}, on this thread. */
    static void run(CsvStream.Cursor cursor, Consumer<CsvStream.Row> consumer) {
        new RowPipe().pipe(cursor, consumer);
    }

    private void pipe(CsvStream.Cursor cursor, Consumer<CsvStream.Row> consumer) {
        Thread reader = Thread.ofPlatform().daemon().name("csv-reader").start(() -> read(cursor));
        try {
            for (CsvStream.Row[] batch = queue.take(); batch != END; batch = queue.take()) {
                for (CsvStream.Row r : batch) {
                    consumer.accept(r);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AnalysisException("interrupted while reading a CSV file");
        } finally {
            stopped = true;
            queue.clear();
            join(reader);
        }
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
    }

    private void read(CsvStream.Cursor cursor) {
        try {
            CsvStream.Row[] batch = new CsvStream.Row[BATCH];
            int n = 0;
            for (CsvStream.Row r; !stopped && (r = cursor.next()) != null; ) {
                batch[n++] = r;
                if (n == BATCH) {
                    put(batch);
                    batch = new CsvStream.Row[BATCH];
                    n = 0;
                }
            }
            put(Arrays.copyOf(batch, n));
        } catch (RuntimeException | Error e) {
            failure = e;
        } finally {
            put(END);
        }
    }

    /** Queues a batch unless the consumer has stopped. */
    private void put(CsvStream.Row[] batch) {
        try {
            while (!stopped && !queue.offer(batch, 10, TimeUnit.MILLISECONDS)) {
                // the consumer is behind: wait for room, or for it to stop
            }
        } catch (InterruptedException e) {
            stopped = true;
        }
    }

    private static void join(Thread reader) {
        boolean interrupted = false;
        while (true) {
            try {
                reader.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
