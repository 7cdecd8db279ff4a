package org.rubis.client.backend;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.rubis.client.config.ClientConfig;
import org.rubis.format.run.ErrorClass;

/**
 * What the event-loop backends (netty, kernel) share once: each session ({@link LoopSession}) bound to one loop of
 * the backend's group, its requests handed to that loop, their deadlines in one registry per loop, the abort of all
 * of them at a stop. They differ in their I/O only, which their sessions carry.
 */
abstract class LoopBackend implements EventLoopBackend {

    /** The requests in flight and their deadlines, one registry per event loop. */
    private final ConcurrentHashMap<EventLoop, LoopDeadlines> deadlines = new ConcurrentHashMap<>();
    /** How long a request may wait for its reply once written. */
    final long requestTimeoutNs;
    /** Whether a page's images are fetched after it. */
    final boolean downloadImages;

    LoopBackend(ClientConfig.Execution e) {
        this.requestTimeoutNs = TimeUnit.MILLISECONDS.toNanos(e.requestTimeoutMs());
        this.downloadImages = e.downloadImages();
    }

    /** The event loops the sessions run on. */
    abstract EventLoopGroup group();

    /** The deadlines of the requests on {@code loop}. */
    final LoopDeadlines deadlines(EventLoop loop) {
        return deadlines.computeIfAbsent(loop, LoopDeadlines::new);
    }

    @Override
    public final ScheduledExecutorService loop(Session session) {
        return ((LoopSession<?, ?>) session).loop;
    }

    @Override
    public final void send(Session session, String path, Reply out, Runnable onReply) {
        LoopSession<?, ?> c = (LoopSession<?, ?>) session;
        if (c.loop.inEventLoop()) {
            c.send(path, out, onReply);
        } else {
            c.loop.execute(() -> c.send(path, out, onReply));
        }
    }

    @Override
    public final void sendAndWait(Session session, String path, Reply out) {
        LoopSession<?, ?> c = (LoopSession<?, ?>) session;
        if (c.loop.inEventLoop()) {
            throw new IllegalStateException("sendAndWait() would block the session's own event loop; use send()");
        }
        CountDownLatch done = new CountDownLatch(1);
        send(session, path, out, done::countDown);
        try {
            done.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            out.fail(ErrorClass.ABORTED);
        }
    }

    @Override
    public final void endSession(Session session) {
        LoopSession<?, ?> c = (LoopSession<?, ?>) session;
        c.loop.execute(c::close);
    }

    @Override
    public final void abortInFlight() {
        for (LoopDeadlines d : deadlines.values()) {
            d.loop().execute(d::abortAll);
        }
    }

    @Override
    public void close() {
        group().shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}
