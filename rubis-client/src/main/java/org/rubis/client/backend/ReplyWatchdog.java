package org.rubis.client.backend;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The request timeout of the blocking backends as "the whole reply within T of the send mark": their libraries only
 * time out each read, so a reply that drips a byte at a time, or a chunked body without end, never timed out. One
 * daemon thread per backend looks at the requests in flight every tenth of the timeout (at most every 100 ms) and cuts
 * the connection of each one past its deadline, a page's from its send mark, an image's from its start ({@code cut}:
 * the blocked read or write then fails), remembering it as expired so that the backend classifies that failure
 * {@link org.rubis.format.run.ErrorClass#READ_TIMEOUT}. A request thus ends between T and T plus a tenth of T after its
 * send mark.
 *
 * <p>Nothing is added on the timing path: the requests in flight are the set the backend keeps anyway (to abort them
 * at a stop), each with its {@link Reply}, whose send mark the thread reads. It reads it without a lock: the entry is
 * put after the reply was reset, so a mark it sees is this request's (0 until the send is marked: not yet timed). A
 * request that was cut waits, as it ends, for its cut to be over ({@link #remove}): HttpClient releases the connection
 * of a cancelled request on the cancelling thread, and a session's next request must not find it still leased.
 *
 * @param <K> the backend's handle of a request in flight (what {@code cut} closes)
 */
final class ReplyWatchdog<K> implements AutoCloseable {

    private final Map<K, Reply> inFlight = new ConcurrentHashMap<>();
    private final Set<K> expired = ConcurrentHashMap.newKeySet();
    private final long timeoutNs;
    private final Consumer<K> cut;
    /** Held by the thread while it cuts: a request it cut waits on it as it ends. */
    private final Object cutting = new Object();

    private final Thread thread;
    private volatile boolean closed;

    ReplyWatchdog(String backend, int timeoutMs, Consumer<K> cut) {
        this.timeoutNs = TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        this.cut = cut;
        long ms = TimeUnit.MILLISECONDS.toNanos(1);
        long periodNs = Math.clamp(timeoutNs / 10, ms, 100 * ms);
        this.thread = timeoutMs <= 0
                ? null
                : Thread.ofPlatform()
                        .daemon()
                        .name("rubis-" + backend + "-timeouts")
                        .unstarted(() -> {
                            while (!closed) {
                                LockSupport.parkNanos(periodNs);
                                check(System.nanoTime());
                            }
                        });
        if (thread != null) {
            thread.start();
        }
    }

    /** {@code k} is in flight for {@code reply} (reset already), timed from its send mark. */
    void add(K k, Reply reply) {
        inFlight.put(k, reply);
    }

    /**
     * {@code k} is one of a page's images, in flight from now and timed from now: the whole image within the
     * timeout, as a page. Its clock is a reply of its own (an image is fetched after the page's last byte mark, off
     * the page's timing path).
     */
    void addImage(K k) {
        Reply clock = new Reply();
        clock.markSend();
        inFlight.put(k, clock);
    }

    /** {@code k} ended; true when it had passed its deadline and been cut (the cut is over when this returns). */
    boolean remove(K k) {
        inFlight.remove(k);
        if (expired.isEmpty() || !expired.contains(k)) {
            return false;
        }
        synchronized (cutting) {
            return expired.remove(k);
        }
    }

    /** True when {@code k} passed its deadline and was cut (its failure is a read timeout). */
    boolean expired(K k) {
        return !expired.isEmpty() && expired.contains(k);
    }

    /** The requests in flight (to abort them at a stop). */
    Set<K> inFlight() {
        return inFlight.keySet();
    }

    /** Cuts each request past its deadline at {@code now}; again at the next look if it is still in flight. */
    void check(long now) {
        for (Map.Entry<K, Reply> e : inFlight.entrySet()) {
            long sent = e.getValue().sendNano();
            if (sent != 0 && now - sent > timeoutNs) {
                K k = e.getKey();
                synchronized (cutting) {
                    expired.add(k);
                    if (inFlight.containsKey(k)) {
                        cut.accept(k);
                    } else {
                        expired.remove(k); // it ended meanwhile, on its own
                    }
                }
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        if (thread != null) {
            LockSupport.unpark(thread);
        }
    }
}
