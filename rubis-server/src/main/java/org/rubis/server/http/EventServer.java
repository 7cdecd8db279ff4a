package org.rubis.server.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.rubis.format.fault.FaultKind;
import org.rubis.format.fault.FaultRule;
import org.rubis.format.io.Tls;
import org.rubis.server.app.Response;
import org.rubis.server.app.RubisApp;
import org.rubis.server.fault.FaultInjector;
import org.rubis.server.fault.FaultReplies;
import org.rubis.server.truth.GroundTruth;

/**
 * The event-driven model (like Lighttpd): a few Netty event loops serve every connection; the
 * application runs on the loop that read the request. Keep-alive idle connections are closed by
 * an idle timer.
 */
public final class EventServer extends RubisHttpServer {

    private EventLoopGroup boss;
    private EventLoopGroup workers;
    private Channel serverChannel;

    public EventServer(RubisApp app, GroundTruth truth, ServerSettings settings, FaultInjector faults) {
        super(app, truth, settings, faults);
    }

    @Override
    void holdNewConnections() {
        // Connections wait in the kernel's backlog. Done on the listener's loop and waited for: from another thread the
        // listener would stop reading only later, after taking one more connection.
        serverChannel
                .eventLoop()
                .submit(() -> serverChannel.config().setAutoRead(false))
                .syncUninterruptibly();
    }

    @Override
    public void resumeAccepting() {
        serverChannel.config().setAutoRead(true);
    }

    @Override
    public int start() throws InterruptedException {
        int threads = settings.eventThreads() > 0
                ? settings.eventThreads()
                : Runtime.getRuntime().availableProcessors();
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        boss = new MultiThreadIoEventLoopGroup(1, io);
        workers = new MultiThreadIoEventLoopGroup(threads, io);
        ServerBootstrap b = new ServerBootstrap()
                .group(boss, workers)
                .channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, settings.backlog())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        Connection conn = new Connection();
                        // The idle handler comes first: its events travel towards the handlers after it.
                        ch.pipeline()
                                .addLast(
                                        "idle",
                                        new IdleStateHandler(0, 0, settings.keepAliveMs(), TimeUnit.MILLISECONDS));
                        if (settings.tls() != null) {
                            // Before "conn": a request arrives when its bytes are decrypted, after the handshake.
                            SslHandler ssl = new SslHandler(settings.tls().serverEngine());
                            ch.pipeline().addLast("tls", ssl);
                            ssl.handshakeFuture().addListener(f -> {
                                if (f.isSuccess() && conn.record != null) {
                                    truth.handshake(
                                            conn.record,
                                            Tls.handshakeKind(ssl.engine().getSession(), conn.record.openedMillis()));
                                }
                            });
                        }
                        ch.pipeline()
                                .addLast("conn", conn)
                                .addLast("codec", new HttpServerCodec(65_536, 16_384, 65_536))
                                .addLast("aggregate", new HttpObjectAggregator(1 << 20))
                                .addLast("app", new Handler(conn));
                    }
                });
        serverChannel = b.bind(new InetSocketAddress(settings.host(), settings.port()))
                .sync()
                .channel();
        faults.start(this);
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    /** Per-connection accounting: open/close, and the arrival instant of the request being read. */
    private final class Connection extends ChannelDuplexHandler {
        GroundTruth.Conn record;
        long arrivalNano;
        boolean awaitingRequest = true;
        boolean answerPending; // a delayed or never-coming answer: not an idle connection
        String closedBy = "client";

        @Override
        public void channelActive(ChannelHandlerContext ctx) throws Exception {
            InetSocketAddress remote = (InetSocketAddress) ctx.channel().remoteAddress();
            record = truth.opened(remote.getAddress().getHostAddress() + ":" + remote.getPort());
            super.channelActive(ctx);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
            if (awaitingRequest && msg instanceof ByteBuf) {
                arrivalNano = System.nanoTime();
                awaitingRequest = false;
            }
            super.channelRead(ctx, msg);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
            if (evt instanceof IdleStateEvent && !answerPending) {
                closedBy = "idle-timeout";
                ctx.close();
                return;
            }
            super.userEventTriggered(ctx, evt);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            if (record != null) {
                truth.closed(record, closedBy);
            }
            super.channelInactive(ctx);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            closedBy = "error";
            ctx.close();
        }
    }

    private final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final Connection conn;

        Handler(Connection conn) {
            this.conn = conn;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            long arrival = conn.arrivalNano;
            String uri = req.uri();
            boolean decoded = req.decoderResult().isSuccess();
            boolean keepAlive = HttpUtil.isKeepAlive(req) && decoded;
            boolean admin = Exchange.isAdmin(uri);
            if (admin) {
                truth.admin(conn.record);
            }
            FaultRule fault = admin ? null : faults.next();
            if (fault == null) {
                answer(ctx, arrival, uri, keepAlive, decoded, admin, null);
                return;
            }
            String name = fault.kind().specName();
            switch (fault.kind()) {
                case HANG -> {
                    conn.answerPending = true;
                    truth.served(
                            conn.record, arrival, System.nanoTime(), FaultReplies.INTERACTION, 0, 0, uri, false, name);
                }
                case DELAY -> {
                    conn.answerPending = true;
                    ctx.executor()
                            .schedule(
                                    () -> {
                                        conn.answerPending = false;
                                        if (ctx.channel().isActive()) {
                                            answer(ctx, arrival, uri, keepAlive, decoded, false, fault);
                                        }
                                    },
                                    fault.param(),
                                    TimeUnit.MILLISECONDS);
                }
                case RESET, TRUNCATE -> {
                    byte[] head = FaultReplies.head(200, FaultReplies.PARTIAL.length, true, "rubis-server/event");
                    int half = FaultReplies.PARTIAL.length / 2;
                    ByteBuf out = Unpooled.wrappedBuffer(head, Arrays.copyOf(FaultReplies.PARTIAL, half));
                    raw(ctx).writeAndFlush(out).addListener((ChannelFutureListener) f -> {
                        truth.served(
                                conn.record,
                                arrival,
                                System.nanoTime(),
                                FaultReplies.INTERACTION,
                                200,
                                half,
                                uri,
                                false,
                                name);
                        conn.closedBy = "fault-" + name;
                        if (fault.kind() == FaultKind.RESET) {
                            f.channel().config().setOption(ChannelOption.SO_LINGER, 0); // close with RST
                        }
                        f.channel().close();
                    });
                }
                case GARBAGE ->
                    raw(ctx).writeAndFlush(Unpooled.wrappedBuffer(FaultReplies.GARBAGE))
                            .addListener((ChannelFutureListener) f -> {
                                truth.served(
                                        conn.record,
                                        arrival,
                                        System.nanoTime(),
                                        FaultReplies.INTERACTION,
                                        0,
                                        FaultReplies.GARBAGE.length,
                                        uri,
                                        false,
                                        name);
                                conn.closedBy = "fault-garbage";
                                f.channel().close();
                            });
                case DIE -> {
                    truth.served(
                            conn.record, arrival, System.nanoTime(), FaultReplies.INTERACTION, 0, 0, uri, false, name);
                    faults.die();
                }
                default -> answer(ctx, arrival, uri, keepAlive, decoded, false, fault); // status, large, idle-close
            }
        }

        /** Outbound from the connection handler: raw bytes that skip the HTTP encoder (but not TLS). */
        private ChannelHandlerContext raw(ChannelHandlerContext ctx) {
            return ctx.pipeline().context("conn");
        }

        /** The answer: the application's, or the status/large/idle-close fault's. */
        private void answer(
                ChannelHandlerContext ctx,
                long arrival,
                String uri,
                boolean keepAlive,
                boolean decoded,
                boolean admin,
                FaultRule fault) {
            FaultKind kind = fault == null ? null : fault.kind();
            Response instead = faultReply(fault);
            Response r = instead != null
                    ? instead
                    : decoded
                            ? Exchange.respond(app, truth, uri)
                            : new Response(400, "text/plain", "bad request\n".getBytes(), "BadRequest");
            int served = conn.record.requests() + (admin ? 0 : 1);
            if (settings.maxKeepAliveRequests() > 0 && served >= settings.maxKeepAliveRequests()) {
                keepAlive = false;
            }
            FullHttpResponse resp = new DefaultFullHttpResponse(
                    HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(r.status()), Unpooled.wrappedBuffer(r.body()));
            resp.headers()
                    .set(HttpHeaderNames.CONTENT_TYPE, r.contentType())
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, r.body().length)
                    .set(HttpHeaderNames.SERVER, "rubis-server/event");
            resp.headers()
                    .set(HttpHeaderNames.CONNECTION, keepAlive ? HttpHeaderValues.KEEP_ALIVE : HttpHeaderValues.CLOSE);
            boolean close = !keepAlive;
            String path = uri;
            String faultName = fault == null ? "" : fault.kind().specName();
            ctx.writeAndFlush(resp).addListener((ChannelFutureListener) f -> {
                long done = System.nanoTime();
                if (!admin) {
                    truth.served(
                            conn.record,
                            arrival,
                            done,
                            r.interaction(),
                            r.status(),
                            r.body().length,
                            path,
                            Exchange.isErrorPage(r),
                            faultName);
                }
                conn.awaitingRequest = true;
                if (close) {
                    conn.closedBy = "server";
                    f.channel().close();
                } else if (kind == FaultKind.IDLE_CLOSE) {
                    f.channel()
                            .eventLoop()
                            .schedule(
                                    () -> {
                                        conn.closedBy = "fault-idle-close";
                                        f.channel().close();
                                    },
                                    fault.param(),
                                    TimeUnit.MILLISECONDS);
                }
            });
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            conn.closedBy = "error";
            ctx.close();
        }
    }

    @Override
    public void close() {
        faults.close();
        if (serverChannel != null) {
            serverChannel.close().awaitUninterruptibly();
        }
        if (workers != null) {
            workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
            boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        }
    }
}
