package org.rubis.client.backend;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import org.rubis.format.ErrorClass;

/**
 * One netty session: its connection, its request in flight and that request's reply, read by the
 * parser it extends (so an idle session holds no parser object). Touched only on its event loop. A
 * request goes out on the open connection or on a new one ({@link #transmit}); the reply ends in
 * {@link #onResponse}, a failure in {@link #fail} or, for a stale reused connection, in a resend
 * ({@link #failOrRetry}); a page's images follow on the same connection while it stays open. The
 * marks are taken as {@link Reply} says: the send right before the write (or the connect), the first
 * and last bytes from {@link NettyReplyHandler}'s read stamps.
 */
final class NettySession extends HttpReplyParser implements Backend.Session, LoopDeadlines.Entry {

    /** The channel's session, for the shared {@link NettyReplyHandler}. */
    static final AttributeKey<NettySession> ATTRIBUTE = AttributeKey.valueOf("rubis-conn");

    /** What the backend's sessions share: channels, request bytes, timeouts (one reference, not one per setting). */
    final NettyBackend backend;

    final EventLoop loop;
    final LoopDeadlines deadlines;
    final InetSocketAddress source;
    Channel ch;
    /** The channel's local address, named at the first reply on it (after the end mark; it never changes). */
    String connectionId;

    Reply out;
    Runnable onReply;
    boolean awaiting;
    boolean newConnection;
    String path;
    /** {@link NettyReplyHandler}'s stamp of the first read of the exchange in progress (page or image); 0 before. */
    long firstByte;
    /** Its stamp of the exchange's latest read: the last byte's, once the reply is complete. */
    long lastRead;
    /** This request's slot in {@link #deadlines}, -1 when none is in flight. */
    int slot = -1;
    /** The connect in progress for the request in flight, or null: an earlier connect completing later is closed. */
    ChannelFuture connecting;
    /** The connect's own timer, while connecting. */
    ScheduledFuture<?> connectTimer;
    /** A registered, unconnected channel for the next new connection ({@link #prepare}), or null. */
    ChannelFuture spare;

    ArrayDeque<String> images;
    /** The page being read: its body when it came in one piece, else its pieces so far. */
    String text;

    ByteBuf body;
    Throwable cause;

    NettySession(NettyBackend backend, EventLoop loop, LoopDeadlines deadlines, InetAddress source) {
        this.backend = backend;
        this.loop = loop;
        this.deadlines = deadlines;
        this.source = source == null ? null : new InetSocketAddress(source, 0);
    }

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
        transmit(ch != null && ch.isActive());
    }

    /** Sends the request in {@link #path} on the open connection, or on a new one. */
    private void transmit(boolean reuse) {
        ByteBuf req = backend.requests.request(path);
        long sent = out.markSend();
        awaiting = true;
        deadlines.add(this);
        if (reuse) {
            newConnection = false;
            write(req, sent); // the mark was taken just now: no second clock read for the deadline
            return;
        }
        newConnection = true;
        close(detach()); // a channel closed under us whose inactive event has not come yet: not this request's
        open(req);
    }

    /**
     * Opens a new connection and writes {@code req} on it once connected: the page's request ({@link #transmit}) or,
     * after a reply that closed the connection, the page's next image ({@link #fetchImage}). A connect that fails or
     * times out during the images ends them, not the page ({@link #failRequest}).
     */
    private void open(ByteBuf req) {
        ChannelFuture registered = spare;
        spare = null;
        if (registered == null || !registered.channel().isOpen()) {
            try {
                registered = backend.channels.register(loop);
            } catch (RuntimeException e) { // no socket (descriptors exhausted): the request fails, the session goes on
                req.release();
                failRequest(ErrorClass.of(e, false));
                return;
            }
        }
        ChannelFuture cf = backend.channels.connect(registered, source);
        connecting = cf;
        int connectTimeoutMs = backend.channels.connectTimeoutMs;
        if (connectTimeoutMs > 0 && !cf.isDone()) {
            connectTimer = loop.schedule(
                    () -> {
                        connectTimer = null;
                        if (awaiting && !cf.isDone()) {
                            failRequest(ErrorClass.CONNECT_TIMEOUT);
                            cf.channel().close();
                        }
                    },
                    connectTimeoutMs,
                    TimeUnit.MILLISECONDS);
        }
        cf.addListener(f -> {
            if (connecting != cf) { // a connect of an earlier request, which has ended since: not this one's
                req.release();
                cf.channel().close();
                return;
            }
            connecting = null;
            cancelConnectTimer();
            if (!f.isSuccess()) {
                req.release();
                failRequest(ErrorClass.of(f.cause(), false));
                return;
            }
            if (!awaiting) { // the connect timed out (already failed) or the run aborted the request
                req.release();
                cf.channel().close();
                return;
            }
            ch = cf.channel();
            ch.attr(ATTRIBUTE).set(this);
            connectionId = null; // named at its first reply: a page reusing an image's new connection names that one
            write(req);
        });
    }

    /**
     * Readies the next request's new connection when it will need one (no open connection, none being opened, none
     * prepared): the channel is built and registered now, its connect left to the request ({@link #open}).
     */
    void prepare() {
        if (spare != null || connecting != null || (ch != null && ch.isActive())) {
            return;
        }
        try {
            spare = backend.channels.register(loop);
        } catch (RuntimeException e) {
            // no socket now (file descriptors exhausted): the request tries again, and fails with the reason if it must
        }
    }

    /**
     * The request failed; resent once on a new connection when {@link StaleConnectionRetry} says
     * so (a reused connection closed by the server before any response byte), else failed.
     */
    private void failOrRetry(ErrorClass error) {
        if (awaiting && images == null && StaleConnectionRetry.applies(out, !newConnection, firstByte != 0, error)) {
            deadlines.clearDeadline(this);
            Channel old = ch;
            ch = null;
            if (old != null) {
                old.close();
            }
            cause = null;
            dropReply();
            out.retry();
            transmit(false);
            return;
        }
        fail(error);
    }

    /**
     * Writes the request: on the channel's event loop (sessions run there) it goes to the socket
     * within this call, right after the send mark; its deadline is set after the write. A failed
     * write reaches {@link NettyReplyHandler#exceptionCaught} (the void promise), then the close.
     */
    void write(ByteBuf req) {
        write(req, System.nanoTime());
    }

    /** {@code now}: an instant taken right before, from which the request's timeout counts. */
    void write(ByteBuf req, long now) {
        firstByte = 0;
        lastRead = 0;
        resetParser();
        ch.writeAndFlush(req, ch.voidPromise());
        if (awaiting) {
            deadlines.deadline(this, now + backend.requestTimeoutNs);
        }
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
    private void endOnFailure(ErrorClass error) {
        Channel c = detach();
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
     * this one nor get this one's close as its own outcome (its inactive event comes later, to a channel no
     * longer the session's). Returns the connection, for the caller to close ({@link #endOnFailure}).
     */
    private Channel detach() {
        Channel c = ch;
        ch = null;
        dropReply();
        return c;
    }

    private static void close(Channel c) {
        if (c != null) {
            c.close();
        }
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
        done();
    }

    @Override
    boolean reading() {
        return ch != null;
    }

    /** A page announced longer than {@link Backend#MAX_PAGE_BYTES} fails at its head, without reading the rest. */
    @Override
    void onHead() {
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
    void onBody(byte[] a, int at, int length, boolean whole) {
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
                body = ch.alloc().heapBuffer(Math.max(length, 4096));
            }
            body.writeBytes(a, at, length);
        }
    }

    @Override
    void onReplyEnd() {
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
    private boolean imageFailed(ErrorClass error) {
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

    private void dropReply() {
        resetParser();
        dropBody();
    }

    /** The bytes are not an HTTP reply. */
    @Override
    void onGarbage() {
        endOnFailure(ErrorClass.NOT_HTTP);
    }

    void dropBody() {
        text = null;
        if (body != null) {
            body.release();
            body = null;
        }
    }

    void onResponse() {
        // The last read of the response's bytes, stamped before parsing (NettyReplyHandler); now is the fallback.
        long now = lastRead != 0 ? lastRead : System.nanoTime();
        if (!awaiting) {
            dropBody();
            return;
        }
        awaiting = false;
        deadlines.clearDeadline(this);
        out.markFirstByte(firstByte == 0 ? now : firstByte);
        out.markLastByte(now);
        out.status = status;
        out.bytes = received;
        out.body = text != null ? text : body == null ? "" : Latin1Text.of(body);
        dropBody();
        out.newConnection = newConnection;
        if (newConnection || connectionId == null) {
            InetSocketAddress local = (InetSocketAddress) ch.localAddress();
            connectionId = local.getAddress().getHostAddress() + ":" + local.getPort();
        }
        out.connectionId = connectionId;
        if (!keepAlive) {
            ch.close();
            ch = null;
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

    void onImage() {
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

    /**
     * Requests one of the page's images: on the page's connection while it is open, else on a new one, as a browser
     * and the blocking backends do when a reply (the page's or an image's) says {@code Connection: close}.
     */
    private void fetchImage(String imagePath) {
        ByteBuf req = backend.requests.request(imagePath);
        if (ch != null && ch.isActive()) {
            write(req);
            return;
        }
        close(detach()); // closed under us, its inactive event still to come: not this image's
        open(req);
    }

    /** The request in progress failed before it was written: images end (the page stands), else the page fails. */
    private void failRequest(ErrorClass error) {
        if (!imageFailed(error)) {
            fail(error);
        }
    }

    /** The connection closed: a reply framed by the close is complete; one in progress ends as the close says. */
    void onInactive() {
        Channel closed = ch;
        if (endOfInput()) {
            if (ch == closed) { // not one the reply's end opened since (for an image, or the next step's request)
                ch = null;
            }
            return;
        }
        ch = null;
        boolean partial = inReply() || firstByte != 0;
        dropReply();
        Throwable c = cause;
        cause = null;
        ErrorClass error = c != null
                ? ErrorClass.of(c, true, partial)
                : partial ? ErrorClass.TRUNCATED_BODY : ErrorClass.CLOSED_BEFORE_ANY_BYTE;
        if (!imageFailed(error)) {
            failOrRetry(error);
        }
    }

    /** The run stops: the request in flight ends now, as aborted, and its connection is closed. */
    @Override
    public void abort() {
        // as any failure: a page in its image fetches stands (image-aborted), like in the blocking backends
        endOnFailure(ErrorClass.ABORTED);
    }

    void done() {
        deadlines.remove(this);
        Runnable r = onReply;
        onReply = null;
        if (r != null) {
            r.run();
        }
    }

    /** Cancels the connect's timer and drops it. */
    void cancelConnectTimer() {
        ScheduledFuture<?> t = connectTimer;
        if (t != null) {
            connectTimer = null;
            t.cancel(false);
        }
    }

    void close() {
        cancelConnectTimer();
        awaiting = false;
        images = null;
        onReply = null;
        deadlines.remove(this);
        dropReply();
        if (ch != null) {
            ch.close();
            ch = null;
        }
        if (spare != null) {
            spare.channel().close();
            spare = null;
        }
    }
}
