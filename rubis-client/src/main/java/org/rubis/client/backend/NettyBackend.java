package org.rubis.client.backend;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpRequestEncoder;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The event-driven backend, httperf's architecture in Java: a few Netty event loops (epoll where
 * available) carry every session's requests, each session has its own connection, and no thread
 * belongs to a user. A session is bound to one event loop at {@link #startSession}; its requests,
 * replies and timers all run there, so its state needs no locking.
 */
public final class NettyBackend implements Backend {

    private static final AttributeKey<Conn> CONN = AttributeKey.valueOf("rubis-conn");

    private final EventLoopGroup group;
    private final Bootstrap bootstrap;
    private final InetSocketAddress target;
    private final RequestHeaders headers;
    private final int requestTimeoutMs;
    private final int connectTimeoutMs;
    private final boolean downloadImages;
    private final boolean busyPoll;
    private final SourceAddresses sources;
    private final java.util.Set<Conn> inFlight = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * @param tls null for http; for https the TLS policy (session resumption or not)
     */
    public NettyBackend(String base, int connectTimeoutMs, int requestTimeoutMs, boolean downloadImages, ClientTls tls) {
        this(base, connectTimeoutMs, requestTimeoutMs, downloadImages, tls, false, 1);
    }

    /**
     * @param busyPoll        one epoll event loop that busy-waits (epoll_wait with no timeout, in a loop) instead of
     *                        blocking: it burns a whole core so that a reply is seen as soon as it arrives, as httperf
     *                        does; one loop only, so the other cores stay for the server. Without epoll: ignored, with
     *                        a one-line message.
     * @param sourceAddresses loopback source addresses to spread connections over (1 = the OS chooses)
     */
    public NettyBackend(String base, int connectTimeoutMs, int requestTimeoutMs, boolean downloadImages, ClientTls tls, boolean busyPoll,
            int sourceAddresses) {
        URI u = URI.create(base);
        this.sources = new SourceAddresses(sourceAddresses, u.getHost());
        boolean https = ClientTls.isHttps(base);
        this.target = new InetSocketAddress(u.getHost(), u.getPort() < 0 ? (https ? 443 : 80) : u.getPort());
        ClientTls t = https ? (tls != null ? tls : new ClientTls(true)) : null;
        this.headers = new RequestHeaders(base);
        this.requestTimeoutMs = requestTimeoutMs;
        this.connectTimeoutMs = connectTimeoutMs;
        this.downloadImages = downloadImages;
        boolean epoll = Epoll.isAvailable();
        int threads = Runtime.getRuntime().availableProcessors();
        if (busyPoll && !epoll) {
            System.err.println("warning: --busy-poll needs Netty's epoll transport (Linux x86_64/aarch64), unavailable here ("
                    + Epoll.unavailabilityCause() + "); the event loops block as usual");
        }
        this.busyPoll = busyPoll && epoll;
        this.group = this.busyPoll
                ? new io.netty.channel.MultiThreadIoEventLoopGroup(1, io.netty.channel.epoll.EpollIoHandler.newFactory(0,
                        () -> (selectSupplier, hasTasks) -> io.netty.channel.SelectStrategy.BUSY_WAIT))
                : epoll ? new EpollEventLoopGroup(threads) : new NioEventLoopGroup(threads);
        this.bootstrap = new Bootstrap()
                .group(group)
                .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                // Memory per idle connection (thousands of thinking users): the connect timeout is our own timer, dropped once
                // connected (Netty's stays referenced by the channel after it is cancelled), and one shared receive-buffer
                // allocator with a fixed size (the adaptive one keeps an allocator and a size calculator per channel). The
                // buffers themselves are pooled and held only during a read.
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 0)
                .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(8192))
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (t != null) {
                            ch.pipeline().addLast("tls", new io.netty.handler.ssl.SslHandler(t.clientEngine(target.getHostString(), target.getPort())));
                        }
                        // A decoder and an encoder rather than HttpClientCodec: only GETs are sent, so the codec's per-connection
                        // queue of request methods (for HEAD and CONNECT replies) and its wrapper contexts are not needed.
                        ch.pipeline()
                          .addLast("decoder", new StampingDecoder())
                          .addLast("encoder", new HttpRequestEncoder())
                          .addLast("reply", REPLY); // no aggregator: bodies of any size, images only counted
                    }
                });
        if (epoll) {
            // With source addresses a socket is bound before connect; bind(address, 0) then makes Linux scan the port range for
            // a port free on every address, TIME_WAIT included: 3 to 6 ms of kernel CPU per connect after a large run
            // (docs/BENCHMARKS.md, virtual threads at 18,000 users). With this option the port is chosen at connect.
            bootstrap.option(io.netty.channel.epoll.EpollChannelOption.IP_BIND_ADDRESS_NO_PORT, true);
        }
    }

    @Override
    public String name() {
        return "netty";
    }

    @Override
    public boolean eventLoops() {
        return true;
    }

    @Override
    public Session startSession() {
        return new Conn(group.next(), sources.next());
    }

    @Override
    public ScheduledExecutorService loop(Session session) {
        return ((Conn) session).loop;
    }

    @Override
    public void send(Session session, String path, Reply out, Runnable onReply) {
        Conn c = (Conn) session;
        if (c.loop.inEventLoop()) {
            c.send(path, out, onReply);
        } else {
            c.loop.execute(() -> c.send(path, out, onReply));
        }
    }

    /** Blocks until the reply is complete (benchmarks and tests; the engine uses {@link #send}). */
    @Override
    public void execute(Session session, String path, Reply out) {
        Conn c = (Conn) session;
        if (c.loop.inEventLoop()) {
            throw new IllegalStateException("execute() would block the session's own event loop; use send()");
        }
        CountDownLatch done = new CountDownLatch(1);
        send(session, path, out, done::countDown);
        try {
            done.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            out.fail(ErrorClass.ABORTED.label());
        }
    }

    @Override
    public void endSession(Session session) {
        Conn c = (Conn) session;
        c.loop.execute(c::close);
    }

    @Override
    public void abortInFlight() {
        for (Conn c : inFlight) {
            c.loop.execute(c::abort);
        }
    }

    @Override
    public void close() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    }

    /** The GET with the headers every backend sends, built before the send mark. */
    private DefaultFullHttpRequest request(String path) {
        DefaultFullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, path);
        headers.forEach(req.headers()::add);
        return req;
    }

    /** One session's connection and its request in flight; touched only on its event loop. */
    /** A body copy buffer per event loop: a page's body is copied once, into its String (not first into a temporary array). */
    private static final io.netty.util.concurrent.FastThreadLocal<byte[]> SCRATCH = new io.netty.util.concurrent.FastThreadLocal<>() {
        @Override
        protected byte[] initialValue() {
            return new byte[16 * 1024];
        }
    };

    /** The readable bytes as ISO-8859-1 text, as {@code ByteBuf.toString(ISO_8859_1)} without its temporary array per call. */
    static String latin1(ByteBuf b) {
        int n = b.readableBytes();
        if (n == 0) {
            return "";
        }
        byte[] a = SCRATCH.get();
        if (a.length < n) {
            if (n > 1 << 20) {
                return b.toString(StandardCharsets.ISO_8859_1); // a huge page: no event-loop buffer that large kept
            }
            a = new byte[Math.max(n, 2 * a.length)];
            SCRATCH.set(a);
        }
        b.getBytes(b.readerIndex(), a, 0, n);
        return new String(a, 0, n, StandardCharsets.ISO_8859_1);
    }

    private final class Conn implements Session {
        final EventLoop loop;
        final InetSocketAddress source;
        Channel ch;
        /** The channel's local address, named at the first reply on it (after the end mark; it never changes). */
        String connectionId;
        Reply out;
        Runnable onReply;
        boolean awaiting;
        boolean newConnection;
        String path;
        long firstByte;
        long lastRead;
        ScheduledFuture<?> timeout;
        ArrayDeque<String> images;
        /** The reply in progress: its head, body so far (pages only) and length. */
        HttpResponse head;
        CompositeByteBuf body;
        long received;
        Throwable cause;

        Conn(EventLoop loop, java.net.InetAddress source) {
            this.loop = loop;
            this.source = source == null ? null : new InetSocketAddress(source, 0);
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
            DefaultFullHttpRequest req = request(path);
            Reply reply = out;
            reply.sent();
            awaiting = true;
            inFlight.add(this);
            if (reuse) {
                newConnection = false;
                write(req);
                return;
            }
            newConnection = true;
            ChannelFuture cf = source == null ? bootstrap.clone(loop).connect(target) : bootstrap.clone(loop).connect(target, source);
            if (connectTimeoutMs > 0 && !cf.isDone()) {
                timeout = loop.schedule(() -> {
                    timeout = null;
                    if (awaiting && !cf.isDone()) {
                        fail(ErrorClass.CONNECT_TIMEOUT.label());
                        cf.channel().close();
                    }
                }, connectTimeoutMs, TimeUnit.MILLISECONDS);
            }
            cf.addListener(f -> {
                cancelTimeout();
                if (!f.isSuccess()) {
                    fail(ErrorClass.of(f.cause(), false).label());
                    return;
                }
                if (!awaiting) { // the connect timed out (already failed) or the run aborted the request
                    cf.channel().close();
                    return;
                }
                ch = cf.channel();
                ch.attr(CONN).set(this);
                write(req);
            });
        }

        /**
         * The request failed; resent once on a new connection when {@link StaleConnectionRetry} says
         * so (a reused connection closed by the server before any response byte), else failed.
         */
        private void failOrRetry(String error) {
            if (awaiting && images == null && StaleConnectionRetry.applies(out, !newConnection, firstByte != 0, error)) {
                cancelTimeout();
                Channel old = ch;
                ch = null;
                if (old != null) {
                    old.close();
                }
                head = null;
                cause = null;
                releaseBody();
                StaleConnectionRetry.restart(out);
                transmit(false);
                return;
            }
            fail(error);
        }

        void write(DefaultFullHttpRequest req) {
            firstByte = 0;
            lastRead = 0;
            // On the channel's event loop (sessions run there): the request is encoded and written to the
            // socket within this call, right after the send mark; the timeout is armed after the write.
            ch.writeAndFlush(req).addListener(f -> {
                if (!f.isSuccess() && awaiting) {
                    failOrRetry(ErrorClass.of(f.cause(), true, false).label());
                }
            });
            if (!awaiting) {
                return; // the write failed at once
            }
            timeout = loop.schedule(() -> {
                timeout = null;
                if (awaiting) {
                    Channel c = ch;
                    fail(ErrorClass.READ_TIMEOUT.label());
                    if (c != null) {
                        c.close();
                    }
                }
            }, requestTimeoutMs, TimeUnit.MILLISECONDS);
        }

        void fail(String error) {
            if (!awaiting) {
                return;
            }
            awaiting = false;
            images = null;
            cancelTimeout();
            out.fail(error);
            out.newConnection = newConnection;
            done();
        }

        /** The status line and headers of a reply. */
        void onHead(HttpResponse resp) {
            if (resp.decoderResult().isFailure()) {
                onGarbage();
                return;
            }
            head = resp;
            received = 0;
            releaseBody();
            if (images == null && awaiting) {
                body = ch.alloc().compositeBuffer(Integer.MAX_VALUE);
            }
        }

        /** A piece of the body: kept for a page (the session reads it), only counted for an image. */
        void onContent(HttpContent content) {
            if (head == null) {
                return;
            }
            if (content.decoderResult().isFailure()) {
                onGarbage();
                return;
            }
            ByteBuf b = content.content();
            received += b.readableBytes();
            if (body != null && b.isReadable()) {
                body.addComponent(true, b.retain());
            }
            if (content instanceof LastHttpContent) {
                HttpResponse h = head;
                head = null;
                if (images != null) {
                    onImage(h);
                } else {
                    onResponse(h);
                }
            }
        }

        /**
         * Drops the reply being read; true when it was an image's (the page's reply stands, the
         * session goes on), false when the page's own reply must now fail.
         */
        private boolean dropReplyInProgress() {
            head = null;
            releaseBody();
            if (images == null) {
                return false;
            }
            images = null;
            awaiting = false;
            done();
            return true;
        }

        /** The decoder found no HTTP reply in the bytes. */
        void onGarbage() {
            if (!dropReplyInProgress()) {
                fail(ErrorClass.NOT_HTTP.label());
            }
            if (ch != null) {
                ch.close();
                ch = null;
            }
        }

        void releaseBody() {
            if (body != null) {
                body.release();
                body = null;
            }
        }

        void onResponse(HttpResponse resp) {
            // The last read of the response's bytes, stamped before decoding (ReadStamp); now is the fallback.
            long now = lastRead != 0 ? lastRead : System.nanoTime();
            if (!awaiting) {
                releaseBody();
                return;
            }
            awaiting = false;
            cancelTimeout();
            long send = out.sendNano;
            out.status = resp.status().code();
            out.bytes = received;
            out.body = body == null ? "" : latin1(body);
            releaseBody();
            out.ttfbNs = (firstByte == 0 ? now : firstByte) - send;
            out.responseNs = now - send;
            out.newConnection = newConnection;
            if (newConnection || connectionId == null) {
                InetSocketAddress local = (InetSocketAddress) ch.localAddress();
                connectionId = local.getAddress().getHostAddress() + ":" + local.getPort();
            }
            out.connectionId = connectionId;
            if (!HttpUtil.isKeepAlive(resp)) {
                ch.close();
                ch = null;
            }
            if (downloadImages && ch != null) {
                images = new ArrayDeque<>(ImageFetcher.paths(out.body));
                if (!images.isEmpty()) {
                    awaiting = true;
                    write(request(images.poll()));
                    return;
                }
                images = null;
            }
            done();
        }

        void onImage(HttpResponse resp) {
            cancelTimeout();
            out.images++;
            out.imageBytes += received;
            String nextImage = images.poll();
            if (nextImage != null && ch != null && ch.isActive() && HttpUtil.isKeepAlive(resp)) {
                write(request(nextImage));
                return;
            }
            images = null;
            awaiting = false;
            done();
        }

        /** The connection closed: a reply in progress ends with the class of how it ended. */
        void onInactive() {
            ch = null;
            boolean partial = head != null || firstByte != 0;
            if (dropReplyInProgress()) {
                return;
            }
            Throwable c = cause;
            cause = null;
            failOrRetry(c != null ? ErrorClass.of(c, true, partial).label()
                    : partial ? ErrorClass.TRUNCATED_BODY.label() : ErrorClass.CLOSED_BEFORE_ANY_BYTE.label());
        }

        /** The run stops: the request in flight ends now, as aborted, and its connection is closed. */
        void abort() {
            images = null;
            fail(ErrorClass.ABORTED.label());
            if (ch != null) {
                Channel c = ch;
                ch = null;
                c.close();
            }
        }

        void done() {
            inFlight.remove(this);
            Runnable r = onReply;
            onReply = null;
            if (r != null) {
                r.run();
            }
        }

        /** Cancels the pending timeout and drops it, so that a thinking user keeps no spent timer. */
        void cancelTimeout() {
            ScheduledFuture<?> t = timeout;
            if (t != null) {
                timeout = null;
                t.cancel(false);
            }
        }

        void close() {
            cancelTimeout();
            awaiting = false;
            images = null;
            onReply = null;
            inFlight.remove(this);
            head = null;
            releaseBody();
            if (ch != null) {
                ch.close();
                ch = null;
            }
        }
    }

    /** One for every connection: the handler keeps no state of its own. */
    private static final ResponseHandler REPLY = new ResponseHandler();

    /**
     * The response decoder, which first stamps each read of response bytes: the first read is the
     * time to first byte, the last one (the read that completes the response) its end.
     */
    private static final class StampingDecoder extends HttpResponseDecoder {
        StampingDecoder() {
            super(new HttpDecoderConfig().setMaxInitialLineLength(4096).setMaxHeaderSize(16_384).setMaxChunkSize(16_384));
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
            if (msg instanceof ByteBuf) {
                long now = System.nanoTime();
                Conn c = ctx.channel().attr(CONN).get();
                if (c != null) {
                    if (c.firstByte == 0) {
                        c.firstByte = now;
                    }
                    c.lastRead = now;
                }
            }
            super.channelRead(ctx, msg);
        }
    }

    @ChannelHandler.Sharable
    private static final class ResponseHandler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                Conn c = ctx.channel().attr(CONN).get();
                if (c == null || c.ch != ctx.channel()) {
                    return;
                }
                if (msg instanceof HttpResponse r) {
                    c.onHead(r);
                }
                if (msg instanceof HttpContent h && c.ch == ctx.channel()) {
                    c.onContent(h);
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            Conn c = ctx.channel().attr(CONN).get();
            if (c != null && c.ch == ctx.channel()) {
                c.onInactive();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            Conn c = ctx.channel().attr(CONN).get();
            if (c != null && c.ch == ctx.channel() && c.cause == null) {
                c.cause = cause; // classified when the channel goes inactive
            }
            ctx.close();
        }
    }
}
