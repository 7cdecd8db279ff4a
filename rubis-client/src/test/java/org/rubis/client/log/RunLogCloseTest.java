package org.rubis.client.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractQueue;
import java.util.Iterator;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rubis.client.workload.Interaction;
import org.rubis.format.run.Phase;

/**
 * A record added just as the log closes is written, or counted lost, never dropped unseen. The race
 * is forced with a queue that holds one producer's offer until the writer has read the end marker
 * and ended (the producer was preempted between deciding to add and its offer): with "look whether
 * closed, then offer" that record sat behind the marker and was never written.
 */
class RunLogCloseTest {

    @TempDir
    Path dir;

    private static RequestRecord request(String path) {
        return new RequestRecord(
                7,
                "user7",
                0,
                Interaction.HOME,
                path,
                Phase.RUN,
                1,
                2,
                3,
                4,
                5,
                200,
                null,
                false,
                "127.0.0.1:1",
                true,
                "legacy",
                0,
                0,
                0,
                -1,
                "",
                null);
    }

    @Test
    void aRecordOfferedBehindTheEndMarkerIsWritten() throws Exception {
        HoldingQueue queue = new HoldingQueue("/late");
        RunLog log = new RunLog(dir, r -> {}, s -> {}, queue);
        log.add(request("/early"));
        Thread producer = Thread.ofPlatform().start(() -> log.add(request("/late")));
        assertTrue(queue.offering.await(5, TimeUnit.SECONDS), "the producer is in its offer");
        log.close(); // the writer reads the end marker and ends; only then does the held offer go in
        producer.join(5000);
        String csv = Files.readString(dir.resolve("requests.csv"));
        assertTrue(csv.contains("/early"), csv);
        assertTrue(csv.contains("/late"), "the record offered behind the end marker is in the log: " + csv);
        assertEquals(2, log.written());
        assertEquals(0, log.lost());
    }

    @Test
    void aRecordAddedAfterTheCloseIsCountedLost() throws Exception {
        RunLog log = new RunLog(dir, r -> {}, s -> {});
        log.add(request("/before"));
        log.close();
        log.add(request("/after"));
        assertEquals(1, log.written());
        assertEquals(1, log.lost(), "not written, and said so");
        assertTrue(!Files.readString(dir.resolve("requests.csv")).contains("/after"));
    }

    /**
     * A queue whose offer of one record waits until the log's writer (its first reader) has ended,
     * and whose reads by any other thread wait until that offer is in.
     */
    private static final class HoldingQueue extends AbstractQueue<Object> {
        private final Queue<Object> q = new ConcurrentLinkedQueue<>();
        private final String heldPath;
        final CountDownLatch offering = new CountDownLatch(1);
        private final CountDownLatch offered = new CountDownLatch(1);
        private volatile Thread writer;

        HoldingQueue(String heldPath) {
            this.heldPath = heldPath;
        }

        @Override
        public boolean offer(Object o) {
            if (o instanceof RequestRecord r && r.path().equals(heldPath)) {
                offering.countDown();
                try {
                    while (writer == null) {
                        Thread.sleep(1);
                    }
                    writer.join(10_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                q.offer(o);
                offered.countDown();
                return true;
            }
            return q.offer(o);
        }

        private void reader() {
            Thread me = Thread.currentThread();
            if (writer == null) {
                writer = me;
            } else if (writer != me) {
                try {
                    offered.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @Override
        public Object poll() {
            reader();
            return q.poll();
        }

        @Override
        public boolean isEmpty() {
            reader();
            return q.isEmpty();
        }

        @Override
        public Object peek() {
            return q.peek();
        }

        @Override
        public int size() {
            return q.size();
        }

        @Override
        public Iterator<Object> iterator() {
            return q.iterator();
        }
    }
}
