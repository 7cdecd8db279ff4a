package org.rubis.client.backend;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.netty.util.AttributeKey;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.rubis.format.run.ErrorClass;

/**
 * One netty session: its channel, the request in flight and its reply, as {@link LoopSession} runs them. A request
 * goes out on the open channel or on a new one ({@link #transmit}); the marks' read stamps are
 * {@link NettyReplyHandler}'s, taken before parsing.
 */
final class NettySession extends LoopSession<Channel, NettyBackend> {

    /** The channel's session, for the shared {@link NettyReplyHandler}. */
    static final AttributeKey<NettySession> ATTRIBUTE = AttributeKey.valueOf("rubis-conn");

    final InetSocketAddress source;
    /** The connect in progress for the request in flight, or null: an earlier connect completing later is closed. */
    ChannelFuture connecting;
    /** A registered, unconnected channel for the next new connection ({@link #prepare}), or null. */
    ChannelFuture spare;

    Throwable cause;

    NettySession(NettyBackend backend, EventLoop loop, LoopDeadlines deadlines, InetAddress source) {
        super(backend, loop, deadlines);
        this.source = source == null ? null : new InetSocketAddress(source, 0);
    }

    @Override
    boolean reusable() {
        return conn != null && conn.isActive();
    }

    @Override
    void transmit(boolean reuse) {
        ByteBuf req = backend.requests.request(path);
        carrier = null;
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
            conn = cf.channel();
            conn.attr(ATTRIBUTE).set(this);
            connection = 0; // named at its first reply: a page reusing an image's new connection names that one
            write(req);
        });
    }

    /**
     * Readies the next request's new connection when it will need one (no open connection, none being opened, none
     * prepared): the channel is built and registered now, its connect left to the request ({@link #open}).
     */
    void prepare() {
        if (spare != null || connecting != null || (conn != null && conn.isActive())) {
            return;
        }
        try {
            spare = backend.channels.register(loop);
        } catch (RuntimeException e) {
            // no socket now (file descriptors exhausted): the request tries again, and fails with the reason if it must
        }
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
        conn.writeAndFlush(req, conn.voidPromise());
        carrier = conn;
        if (awaiting) {
            deadlines.deadline(this, now + backend.requestTimeoutNs);
        }
    }

    @Override
    void retrying() {
        cause = null;
    }

    @Override
    void closeConnection(Channel c) {
        c.close();
    }

    @Override
    String localAddressOf(Channel c) {
        return ConnectionIds.address(c.localAddress());
    }

    @Override
    ByteBufAllocator alloc() {
        return conn.alloc();
    }

    /**
     * Requests one of the page's images: on the page's connection while it is open, else on a new one, as a browser
     * and the blocking backends do when a reply (the page's or an image's) says {@code Connection: close}.
     */
    @Override
    void fetchImage(String imagePath) {
        ByteBuf req = backend.requests.request(imagePath);
        if (reusable()) {
            write(req);
            return;
        }
        close(detach()); // closed under us, its inactive event still to come: not this image's
        open(req);
    }

    /** The connection closed: a reply framed by the close is complete; one in progress ends as the close says. */
    void onInactive() {
        Channel closed = conn;
        if (endOfInput()) {
            if (conn == closed) { // not one the reply's end opened since (for an image, or the next step's request)
                conn = null;
            }
            return;
        }
        conn = null;
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

    @Override
    void close() {
        super.close();
        if (spare != null) {
            spare.channel().close();
            spare = null;
        }
    }
}
