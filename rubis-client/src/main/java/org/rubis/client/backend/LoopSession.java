package org.rubis.client.backend;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import org.rubis.format.run.ErrorClass;

/**
 * One session of an event-loop backend: its keep-alive connection ({@code C}), its request in flight and that
 * request's reply, read by the parser it extends (so an idle session holds no parser object). Touched only on its
 * event loop. The request/reply state machine lives here once, so that the event-loop backends (netty, kernel) share
 * exactly the same reuse, stale-connection resend, image fetches, failures and their classes, and differ only in
 * their I/O: how a request goes out ({@link #transmit}, {@link #fetchImage}) and how a connection closes. A reply
 * ends in {@link #onResponse}, a failure in {@link #fail} or, for a stale reused connection, in a resend
 * ({@link #failOrRetry}); a page's images follow on the same connection while it stays open. The marks are taken as
 * {@link Reply} says: the send right before the write (or the connect), the first and last bytes from the reads'
 * stamps ({@link #firstByte}, {@link #lastRead}).
 *
 * @param <C> the connection
 * @param <B> the backend, whose settings and request bytes the session reads (one reference, not one per setting)
 */
abstract class LoopSession<C, B extends LoopBackend> extends HttpReplyParser
        implements Backend.Session, LoopDeadlines.Entry {

    final B backend;
    final EventLoop loop;
    final LoopDeadlines deadlines;
    /** The connection, or null. */
    C conn;
    /** The connection's serial ({@link ConnectionIds}), drawn at the first reply or failure on it (after the end mark); 0 before. */
    long connection;
    /** The connection's local address:port, read with its serial (it never changes). */
    String localAddress = "";
    /** The connection the request in progress was written on (null before its write): its failure names it. */
    C carrier;

    Reply out;
    Runnable onReply;
    boolean awaiting;
    boolean newConnection;
    String path;
    /** The stamp of the first read of the exchange in progress (page or image); 0 before. */
    long firstByte;
    /** The stamp of the exchange's latest read: the last byte's, once the reply is complete. */
    long lastRead;
    /** The connect's own timer, while connecting. */
    ScheduledFuture<?> connectTimer;

    ArrayDeque<String> images;
    /** The page being read: its body when it came in one piece, else its pieces so far. */
    String text;

    ByteBuf body;
    /** This request's slot in {@link #deadlines}, -1 when none is in flight. */
    int slot = -1;

    LoopSession(B backend, EventLoop loop, LoopDeadlines deadlines) {
        this.backend = backend;
        this.loop = loop;
        this.deadlines = deadlines;
    }

    /** Whether {@link #conn} is open and connected, so that the next request may go out on it. */
    abstract boolean reusable();

    /** Sends the request in {@link #path} on the open connection ({@code reuse}), or on a new one. */
    abstract void transmit(boolean reuse);

    /** Requests one of the page's images: on the page's connection while it is open, else on a new one. */
    abstract void fetchImage(String imagePath);

    /** Closes {@code c} (not null). */
    abstract void closeConnection(C c);

    /** The local address:port of {@code c}, the connection that carried a request. */
    abstract String localAddressOf(C c);

    /** Where a page's body that comes in pieces is gathered. */
    abstract ByteBufAllocator alloc();

    /** The kernel's stamps, taken once the reply's end marks are (nothing by default). */
    void afterEndMarks() {}

    /** The request is resent on a new connection: what the failed attempt left is forgotten (nothing by default). */
    void retrying() {}

    @Override
    public int slot() {
        return slot;
    }

    @Override
    public void slot(int slot) {
        this.slot = slot;
    }

    void send(String path, Reply reply, Runnable whenDone) {
        out = reply;
        onReply = whenDone;
        reply.reset();
        this.path = path;
        transmit(reusable());
    }

    /**
     * The request failed; resent once on a new connection when {@link StaleConnectionRetry} says
     * so (a reused connection closed by the server before any response byte), else failed.
     */
    final void failOrRetry(ErrorClass error) {
        if (awaiting && images == null && StaleConnectionRetry.applies(out, !newConnection, firstByte != 0, error)) {
            deadlines.clearDeadline(this);
            close(detach());
            retrying();
            dropReply();
            out.retry();
            transmit(false);
            return;
        }
        fail(error);
    }

    /**
     * The request's deadline passed: the page's reply fails as a read timeout or, when an image of the page
     * did not come, the image fetches end and the page's reply stands ({@link #imageFailed}).
     */
    @Override
    public void expired() {
        if (awaiting) {
            endOnFailure(ErrorClass.READ_TIMEOUT);
        }
    }

    /**
     * The request in progress failed on this connection with {@code error}: the connection is detached at once,
     * and closed before the session's next step when an image failed (the page stands and its next step may run
     * inline: the close must not fall in the next request's window), after the failure's time stamp when the
     * page itself failed (its time must not include the close; its next step is queued, never inline).
     */
    final void endOnFailure(ErrorClass error) {
        C c = detach();
        if (images != null) {
            close(c);
            imageFailed(error);
        } else {
            fail(error);
            close(c);
        }
    }

    /**
     * Detaches the connection from the session before the request ends: ending it may run the session's next
     * step at once (a due step, with no think time), whose request must open a new connection, neither write on
     * this one nor get this one's close as its own outcome. Returns the connection, for the caller to close.
     */
    final C detach() {
        C c = conn;
        conn = null;
        dropReply();
        return c;
    }

    final void close(C c) {
        if (c != null) {
            closeConnection(c);
        }
    }

    /**
     * Names the connection that carried the request in {@link #out}, after its end mark: the serial of the connection
     * it was written on, drawn at the first reply or failure there. Nothing when none carried it (a failed connect).
     */
    private void identify() {
        C c = carrier;
        if (c == null) {
            return;
        }
        if (connection == 0) {
            connection = ConnectionIds.next();
            localAddress = localAddressOf(c);
        }
        out.connection = connection;
        out.localAddress = localAddress;
    }

    void fail(ErrorClass error) {
        if (!awaiting) {
            return;
        }
        awaiting = false;
        images = null;
        cancelConnectTimer();
        deadlines.clearDeadline(this);
        out.fail(error);
        out.newConnection = newConnection;
        identify(); // a request that reached the server and failed there is named, as the server's log names it
        done();
    }

    @Override
    final boolean reading() {
        return conn != null;
    }

    /** A page announced longer than {@link Backend#MAX_PAGE_BYTES} fails at its head, without reading the rest. */
    @Override
    final void onHead() {
        dropBody();
        if (images == null && awaiting && announced > Backend.MAX_PAGE_BYTES) {
            endOnFailure(ErrorClass.TOO_LARGE);
        }
    }

    /**
     * A piece of the body: kept for a page (the session reads it), only counted for an image. A page whose bytes grow
     * past {@link Backend#MAX_PAGE_BYTES} fails there, its connection closed.
     */
    @Override
    final void onBody(byte[] a, int at, int length, boolean whole) {
        if (images != null || !awaiting || length == 0) {
            return;
        }
        if (received > Backend.MAX_PAGE_BYTES) {
            endOnFailure(ErrorClass.TOO_LARGE);
            return;
        }
        if (whole) {
            text = new String(a, at, length, StandardCharsets.ISO_8859_1);
        } else {
            if (body == null) {
                body = alloc().heapBuffer(Math.max(length, 4096));
            }
            body.writeBytes(a, at, length);
        }
    }

    @Override
    final void onReplyEnd() {
        if (images != null) {
            onImage();
        } else {
            onResponse();
        }
    }

    /**
     * One of the page's images failed with {@code error} (its reply dropped, its connection detached): as
     * {@link ImageFetcher} does for the blocking backends, the image fetches end and the page's reply stands,
     * with its status, bytes, times and the images fetched so far, and the error {@code image-<class>}; the
     * session goes on. False when no image was being fetched: the page's own reply must then fail.
     */
    final boolean imageFailed(ErrorClass error) {
        if (images == null) {
            return false;
        }
        images = null;
        awaiting = false;
        deadlines.clearDeadline(this);
        out.failImage(error);
        done();
        return true;
    }

    final void dropReply() {
        resetParser();
        dropBody();
    }

    /** The bytes are not an HTTP reply. */
    @Override
    final void onGarbage() {
        endOnFailure(ErrorClass.NOT_HTTP);
    }

    final void dropBody() {
        text = null;
        if (body != null) {
            body.release();
            body = null;
        }
    }

    private void onResponse() {
        // The last read of the response's bytes, stamped before parsing; now is the fallback.
        long now = lastRead != 0 ? lastRead : System.nanoTime();
        if (!awaiting) {
            dropBody();
            return;
        }
        awaiting = false;
        deadlines.clearDeadline(this);
        out.markFirstByte(firstByte == 0 ? now : firstByte);
        out.markLastByte(now);
        afterEndMarks();
        out.status = status;
        out.bytes = received;
        out.body = text != null ? text : body == null ? "" : Latin1Text.of(body);
        dropBody();
        out.newConnection = newConnection;
        identify();
        if (!keepAlive) {
            close(detach());
        }
        if (backend.downloadImages) {
            images = new ArrayDeque<>(ImageFetcher.paths(out.body));
            if (!images.isEmpty()) {
                awaiting = true;
                fetchImage(images.poll());
                return;
            }
            images = null;
        }
        done();
    }

    private void onImage() {
        deadlines.clearDeadline(this);
        out.images++;
        out.imageBytes += received;
        if (!keepAlive) { // as after a page that closes: neither the next image nor the next step writes on it
            close(detach());
        }
        String nextImage = images.poll();
        if (nextImage != null) {
            fetchImage(nextImage);
            return;
        }
        images = null;
        awaiting = false;
        done();
    }

    /** The request in progress failed before it was written: images end (the page stands), else the page fails. */
    final void failRequest(ErrorClass error) {
        if (!imageFailed(error)) {
            fail(error);
        }
    }

    /** The run stops: the request in flight ends now, as aborted, and its connection is closed. */
    @Override
    public void abort() {
        // as any failure: a page in its image fetches stands (image-aborted), like in the blocking backends
        endOnFailure(ErrorClass.ABORTED);
    }

    final void done() {
        deadlines.remove(this);
        Runnable r = onReply;
        onReply = null;
        if (r != null) {
            r.run();
        }
    }

    /** Cancels the connect's timer and drops it. */
    final void cancelConnectTimer() {
        ScheduledFuture<?> t = connectTimer;
        if (t != null) {
            connectTimer = null;
            t.cancel(false);
        }
    }

    /** The session ends: its request, if any, is dropped and its connection closed. */
    void close() {
        cancelConnectTimer();
        awaiting = false;
        images = null;
        onReply = null;
        deadlines.remove(this);
        close(detach());
    }
}
