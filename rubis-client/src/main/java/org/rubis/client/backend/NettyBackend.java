package org.rubis.client.backend;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelConfig;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.rubis.client.config.ClientConfig;

/**
 * The event-driven backend, httperf's architecture in Java: a few Netty event loops (epoll where
 * available) carry every session's requests, each session has its own connection, and no thread
 * belongs to a user. A session is bound to one event loop at {@link #startSession}; its requests,
 * replies and timers all run there, so its state needs no locking.
 */
public final class NettyBackend implements EventLoopBackend, PreparingBackend {

    /**
     * The prepare lead: 1 ms is far beyond the prepare's own time (60-120 us cold) and the timer's lateness, and short
     * enough that the channel is not kept through a think time. Dedicated takes 2 ms ({@link DedicatedBackend#LEAD_NANOS}):
     * its prepare may first check an idle connection, a read of up to 1 ms.
     */
    static final long LEAD_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private static final AttributeKey<Conn> CONN = AttributeKey.valueOf("rubis-conn");

    static {
        // Netty's default leak detection samples one pooled buffer in 128 and captures a stack trace for it (a
        // Throwable), on the event loop: measurement code pays that at random. Off unless asked for with
        // -Dio.netty.leakDetection.level (an allowed JVM option, docs/ARCHITECTURE.md), e.g. when hunting a leak.
        if (System.getProperty("io.netty.leakDetection.level") == null && System.getProperty("io.netty.leakDetectionLevel") == null) {
            io.netty.util.ResourceLeakDetector.setLevel(io.netty.util.ResourceLeakDetector.Level.DISABLED);
        }
    }

    private final EventLoopGroup group;
    private final boolean epoll;
    /** The TLS policy for https, or null. */
    private final ClientTls tls;
    private static final FixedRecvByteBufAllocator RECEIVE_BUFFERS = new FixedRecvByteBufAllocator(8192);
    private final InetSocketAddress target;
    /** What follows the path in every request: the version and the headers every backend sends ({@link RequestHeaders}). */
    private final byte[] requestTail;
    private final long requestTimeoutNs;
    private final int connectTimeoutMs;
    private final boolean downloadImages;
    private final boolean busyPoll;
    private final SourceAddresses sources;
    /** The requests in flight and their deadlines, one registry per event loop. */
    private final ConcurrentHashMap<EventLoop, LoopDeadlines> deadlines = new ConcurrentHashMap<>();
    /**
     * Where {@link #register} gets each new connection's channel: the transport's socket channel
     * ({@link #socketChannels}). A seam for tests: a test gives its own (package-private constructor) to make the
     * channel's creation throw, as the transport does when no socket can be made (file descriptors exhausted), and so
     * reach the error paths of {@link Conn#open} and {@link Conn#prepare}; real exhaustion inside the test JVM is
     * flaky (its class loading fails at the same moment). In a run it is always the one constructor reference: a
     * call through a final field that the JIT inlines.
     */
    private final Supplier<Channel> channels;

    /**
     * The backend for {@code base} as {@code e} configures it: TLS for https with its resumption setting; connections
     * spread over {@code client_source_addresses} loopback source addresses (1: the OS chooses); with
     * {@code client_busy_poll}, one epoll event loop that busy-waits (epoll_wait with no timeout, in a loop) instead of
     * blocking: it burns a whole core so that a reply is seen as soon as it arrives, as httperf does; one loop only, so
     * the other cores stay for the server. Without epoll busy polling is ignored, with a one-line message.
     */
    NettyBackend(ClientConfig.Execution e, String base) {
        this(e, base, null);
    }

    /** @param channels each new connection's channel (a test's, see {@link #channels}); null: the transport's */
    NettyBackend(ClientConfig.Execution e, String base, Supplier<Channel> channels) {
        URI u = URI.create(base);
        this.sources = new SourceAddresses(e.sourceAddresses(), u.getHost());
        boolean https = ClientTls.isHttps(base);
        this.target = new InetSocketAddress(u.getHost(), u.getPort() < 0 ? (https ? 443 : 80) : u.getPort());
        ClientTls t = https ? new ClientTls(e.tlsResumption()) : null;
        this.requestTail = requestTail(new RequestHeaders(base));
        this.requestTimeoutNs = TimeUnit.MILLISECONDS.toNanos(e.requestTimeoutMs());
        this.connectTimeoutMs = e.connectTimeoutMs();
        this.downloadImages = e.downloadImages();
        boolean busyPoll = e.busyPoll();
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
        this.epoll = epoll;
        this.tls = t;
        this.channels = channels != null ? channels : socketChannels(epoll);
    }

    /** The transport's socket channel, unconnected and unregistered: what {@link #register} builds in a run. */
    static Supplier<Channel> socketChannels(boolean epoll) {
        return epoll ? EpollSocketChannel::new : NioSocketChannel::new;
    }

    /**
     * A new connection, its connect begun now, from the session's event loop, on a channel from {@link #register}: built
     * within the request's window, or before its send mark by {@link #prepare}. Not {@code Bootstrap.connect}: that
     * builds the channel by reflection, copies the bootstrap's option and attribute maps, and defers the connect
     * itself to a later task of the loop, all inside the request's window (the wire check measured 325 us p50 from
     * the send mark to the SYN on an idle host). The options are the same:
     * {@code TCP_NODELAY}; the connect timeout is our own timer, dropped once connected (Netty's stays referenced by the
     * channel after it is cancelled); one shared receive-buffer allocator of a fixed size (the adaptive one keeps an
     * allocator and a size calculator per channel; the buffers are pooled and held only during a read); on epoll
     * {@code IP_BIND_ADDRESS_NO_PORT}: with source addresses a socket is bound before connect, and bind(address, 0) makes
     * Linux scan the port range for a port free on every address, TIME_WAIT included (3 to 6 ms of kernel CPU per
     * connect after a large run, docs/BENCHMARKS.md); with it the port is chosen at connect. No HTTP codec: requests
     * are written as bytes ({@code requestTail}) and replies read by the connection's own {@link HttpReplyParser}, so
     * a connection has one handler, shared (after TLS's, for https).
     */
    private ChannelFuture connect(ChannelFuture registered, InetSocketAddress source) {
        ChannelPromise connected = registered.channel().newPromise();
        if (registered.isDone()) { // on the channel's own loop, registration is immediate
            connectRegistered(registered, source, connected);
        } else {
            registered.addListener(f -> connectRegistered(registered, source, connected));
        }
        return connected;
    }

    /** A new channel, its options and handlers set, registered with {@code loop}: everything a connection needs before its connect. */
    private ChannelFuture register(EventLoop loop) {
        Channel ch = channels.get(); // throws when no socket can be made (Netty's ChannelException)
        try {
            ChannelConfig config = ch.config();
            config.setOption(ChannelOption.TCP_NODELAY, true);
            config.setConnectTimeoutMillis(0);
            config.setRecvByteBufAllocator(RECEIVE_BUFFERS);
            if (epoll) {
                config.setOption(io.netty.channel.epoll.EpollChannelOption.IP_BIND_ADDRESS_NO_PORT, true);
            }
            if (tls != null) {
                ch.pipeline().addLast("tls", new io.netty.handler.ssl.SslHandler(tls.clientEngine(target.getHostString(), target.getPort())));
            }
            ch.pipeline().addLast("reply", REPLY);
        } catch (RuntimeException | Error e) {
            ch.unsafe().closeForcibly(); // its socket exists already: not left open behind the failure
            throw e;
        }
        return loop.register(ch);
    }

    private void connectRegistered(ChannelFuture registered, InetSocketAddress source, ChannelPromise connected) {
        if (!registered.isSuccess()) {
            connected.setFailure(registered.cause());
            registered.channel().unsafe().closeForcibly();
        } else if (source == null) {
            registered.channel().connect(target, connected);
        } else {
            registered.channel().connect(target, source, connected);
        }
    }

    @Override
    public String name() {
        return "netty";
    }

    @Override
    public Session startSession() {
        EventLoop loop = group.next();
        return new Conn(loop, deadlines.computeIfAbsent(loop, LoopDeadlines::new), sources.next());
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

    @Override
    public void sendAndWait(Session session, String path, Reply out) {
        Conn c = (Conn) session;
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
    public long prepareLeadNanos() {
        return LEAD_NANOS;
    }

    /**
     * Always: the step's prepare timer is one timer of the session's loop, and {@link #prepare} itself finds out, on
     * the loop, whether the next request will need a new connection (nothing is read here from another thread).
     */
    @Override
    public boolean prepares(Session session, long requestNano) {
        return true;
    }

    @Override
    public void prepare(Session session) {
        ((Conn) session).prepare();
    }

    @Override
    public void endSession(Session session) {
        Conn c = (Conn) session;
        c.loop.execute(c::close);
    }

    @Override
    public void abortInFlight() {
        for (LoopDeadlines d : deadlines.values()) {
            d.loop().execute(d::abortAll);
        }
    }

    @Override
    public void close() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    }

    private static final byte[] GET = "GET ".getBytes(StandardCharsets.US_ASCII);

    /** " HTTP/1.1", then each header of {@link RequestHeaders} in order, then the blank line: what HttpRequestEncoder wrote. */
    static byte[] requestTail(RequestHeaders headers) {
        StringBuilder b = new StringBuilder(" HTTP/1.1\r\n");
        headers.forEach((name, value) -> b.append(name).append(": ").append(value).append("\r\n"));
        return b.append("\r\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The GET with the headers every backend sends, as bytes, built before the send mark. An ASCII
     * path (every generated one) is assembled in an array of the thread and copied into the buffer
     * once: encoding it into the direct buffer byte by byte checked the buffer at every byte.
     */
    private ByteBuf request(String path) {
        int n = path.length();
        int total = GET.length + n + requestTail.length;
        byte[] a = REQUEST_SCRATCH.get();
        if (total <= a.length) {
            int k = GET.length;
            for (int i = 0; i < n; i++) {
                char c = path.charAt(i);
                if (c >= 0x80) {
                    k = -1;
                    break;
                }
                a[k++] = (byte) c;
            }
            if (k >= 0) {
                System.arraycopy(requestTail, 0, a, k, requestTail.length);
                return reusable(total).writeBytes(a, 0, total);
            }
        }
        ByteBuf b = ByteBufAllocator.DEFAULT.buffer(GET.length + ByteBufUtil.utf8MaxBytes(path) + requestTail.length);
        b.writeBytes(GET);
        ByteBufUtil.writeUtf8(b, path);
        b.writeBytes(requestTail);
        return b;
    }

    /**
     * A direct buffer of at least {@code size} bytes for a request, empty, that the write will
     * release. The thread keeps one and hands it out again once the last write of it is done (only
     * its own reference left): a request written at once, as on a reused connection, then costs no
     * allocation; one still queued (or held through a connect) is left to its writer and replaced.
     */
    private static ByteBuf reusable(int size) {
        ByteBuf[] held = REQUEST_BUFFER.get();
        ByteBuf b = held[0];
        if (b == null || b.refCnt() != 1 || b.capacity() < size) {
            if (b != null) {
                b.release();
            }
            b = ByteBufAllocator.DEFAULT.directBuffer(Math.max(size, 1024));
            held[0] = b;
        }
        b.clear();
        return b.retain(); // the write's reference; the thread keeps its own
    }

    private static final io.netty.util.concurrent.FastThreadLocal<ByteBuf[]> REQUEST_BUFFER = new io.netty.util.concurrent.FastThreadLocal<>() {
        @Override
        protected ByteBuf[] initialValue() {
            return new ByteBuf[1];
        }

        @Override
        protected void onRemoval(ByteBuf[] held) {
            if (held[0] != null) { // the event loop's thread ends
                held[0].release();
                held[0] = null;
            }
        }
    };

    /** Where a request is assembled: "GET " stays at its start. */
    private static final io.netty.util.concurrent.FastThreadLocal<byte[]> REQUEST_SCRATCH = new io.netty.util.concurrent.FastThreadLocal<>() {
        @Override
        protected byte[] initialValue() {
            byte[] a = new byte[4096];
            System.arraycopy(GET, 0, a, 0, GET.length);
            return a;
        }
    };

    /** A body copy buffer per event loop: a page's body is copied once, into its String (not first into a temporary array). */
    private static final io.netty.util.concurrent.FastThreadLocal<byte[]> SCRATCH = new io.netty.util.concurrent.FastThreadLocal<>() {
        @Override
        protected byte[] initialValue() {
            return new byte[16 * 1024];
        }
    };

    /** The readable bytes as ISO-8859-1 text. */
    static String latin1(ByteBuf b) {
        return latin1(b, b.readerIndex(), b.readableBytes());
    }

    /** {@code n} bytes from {@code at} as ISO-8859-1 text, as {@code ByteBuf.toString(ISO_8859_1)} without its temporary array per call. */
    static String latin1(ByteBuf b, int at, int n) {
        if (n == 0) {
            return "";
        }
        if (b.hasArray()) {
            return new String(b.array(), b.arrayOffset() + at, n, StandardCharsets.ISO_8859_1);
        }
        byte[] a = SCRATCH.get();
        if (a.length < n) {
            if (n > 1 << 20) {
                return b.toString(at, n, StandardCharsets.ISO_8859_1); // a huge page: no event-loop buffer that large kept
            }
            a = new byte[Math.max(n, 2 * a.length)];
            SCRATCH.set(a);
        }
        b.getBytes(at, a, 0, n);
        return new String(a, 0, n, StandardCharsets.ISO_8859_1);
    }

    /** One session's connection and its request in flight; touched only on its event loop. */
    private final class Conn extends HttpReplyParser implements Session, LoopDeadlines.Entry {
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
        long firstByte;
        long lastRead;
        /** This request's slot in {@link #deadlines}, -1 when none is in flight. */
        int slot = -1;
        /** The connect in progress for the request in flight, or null: a later completion of an earlier connect is closed. */
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

        Conn(EventLoop loop, LoopDeadlines deadlines, java.net.InetAddress source) {
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
            ByteBuf req = request(path);
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
                    registered = register(loop);
                } catch (RuntimeException e) { // no socket (file descriptors exhausted): the request fails, the session goes on
                    req.release();
                    failRequest(ErrorClass.of(e, false));
                    return;
                }
            }
            ChannelFuture cf = connect(registered, source);
            connecting = cf;
            if (connectTimeoutMs > 0 && !cf.isDone()) {
                connectTimer = loop.schedule(() -> {
                    connectTimer = null;
                    if (awaiting && !cf.isDone()) {
                        failRequest(ErrorClass.CONNECT_TIMEOUT);
                        cf.channel().close();
                    }
                }, connectTimeoutMs, TimeUnit.MILLISECONDS);
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
                ch.attr(CONN).set(this);
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
                spare = register(loop);
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
         * write reaches {@link ReplyHandler#exceptionCaught} (the void promise), then the close.
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
                deadlines.deadline(this, now + requestTimeoutNs);
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

        @Override
        void onHead() {
            dropBody();
        }

        /** A piece of the body: kept for a page (the session reads it), only counted for an image. */
        @Override
        void onBody(byte[] a, int at, int length, boolean whole) {
            if (images != null || !awaiting || length == 0) {
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
            // The last read of the response's bytes, stamped before parsing (ReplyHandler); now is the fallback.
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
            out.body = text != null ? text : body == null ? "" : latin1(body, body.readerIndex(), body.readableBytes());
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
            if (downloadImages) {
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
            if (!keepAlive) { // as after a page that closes: neither the next image nor the next step writes on this connection
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
            ByteBuf req = request(imagePath);
            if (ch != null && ch.isActive()) {
                write(req);
                return;
            }
            close(detach()); // closed under us, its inactive event still to come: not this image's
            open(req);
        }

        /** The request in progress failed before it was written: during the images they end (the page stands), else the page fails. */
        private void failRequest(ErrorClass error) {
            if (!imageFailed(error)) {
                fail(error);
            }
        }

        /** The connection closed: a reply framed by the close is complete; one in progress ends with the class of how it ended. */
        void onInactive() {
            Channel closed = ch;
            if (endOfInput()) {
                if (ch == closed) { // not a connection the reply's end opened since (for an image, or the next step's request)
                    ch = null;
                }
                return;
            }
            ch = null;
            boolean partial = inReply() || firstByte != 0;
            dropReply();
            Throwable c = cause;
            cause = null;
            ErrorClass error = c != null ? ErrorClass.of(c, true, partial)
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

    /** One for every connection: the handler keeps no state of its own. */
    private static final ReplyHandler REPLY = new ReplyHandler();

    /**
     * Stamps each read of response bytes, then parses it: the first read is the time to first
     * byte, the read that completes the response its end. The stamp is taken before any parsing.
     */
    @ChannelHandler.Sharable
    private static final class ReplyHandler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            long now = System.nanoTime();
            try {
                Conn c = ctx.channel().attr(CONN).get();
                if (c == null || c.ch != ctx.channel() || !(msg instanceof ByteBuf b)) {
                    return;
                }
                if (c.firstByte == 0) {
                    c.firstByte = now;
                }
                c.lastRead = now;
                c.read(b, ctx.alloc());
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
