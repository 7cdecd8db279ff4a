package org.rubis.client.engine;

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
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AttributeKey;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import org.rubis.client.backend.ErrorClass;
import org.rubis.client.backend.Reply;
import org.rubis.client.backend.RequestHeaders;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.workload.UserSession;

/**
 * The event-driven backend, httperf's architecture in Java: a few Netty event loops (epoll where
 * available) drive every session asynchronously, think times are timers, each session has its own
 * connection, and no thread belongs to a user. A session's steps all run on one event loop, so its
 * state needs no locking.
 */
final class EventLoopDriver implements AutoCloseable {

    static final String NAME = "netty";
    private static final AttributeKey<Flow> FLOW = AttributeKey.valueOf("rubis-flow");

    private final EventLoopGroup group;
    private final Bootstrap bootstrap;
    private final InetSocketAddress target;
    private final String hostHeader;
    private final int requestTimeoutMs;
    private final boolean downloadImages;
    private final RunClock clock;
    private final StopSignal stop;
    private final Recorder recorder;
    private final ActiveSessions active;
    private final Set<Flow> flows = ConcurrentHashMap.newKeySet();

    EventLoopDriver(ClientConfig.Execution e, String base, RunClock clock, StopSignal stop, Recorder recorder, ActiveSessions active) {
        URI u = URI.create(base);
        boolean https = org.rubis.client.backend.ClientTls.isHttps(base);
        this.target = new InetSocketAddress(u.getHost(), u.getPort() < 0 ? (https ? 443 : 80) : u.getPort());
        org.rubis.client.backend.ClientTls tls = https ? new org.rubis.client.backend.ClientTls(e.tlsResumption()) : null;
        this.hostHeader = RequestHeaders.host(base);
        this.requestTimeoutMs = e.requestTimeoutMs();
        this.downloadImages = e.downloadImages();
        this.clock = clock;
        this.stop = stop;
        this.recorder = recorder;
        this.active = active;
        boolean epoll = Epoll.isAvailable();
        int threads = Runtime.getRuntime().availableProcessors();
        this.group = epoll ? new EpollEventLoopGroup(threads) : new NioEventLoopGroup(threads);
        this.bootstrap = new Bootstrap()
                .group(group)
                .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, e.connectTimeoutMs())
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (tls != null) {
                            ch.pipeline().addLast("tls", new io.netty.handler.ssl.SslHandler(tls.clientEngine(target.getHostString(), target.getPort())));
                        }
                        ch.pipeline()
                          .addLast("stamp", new FirstByteStamp())
                          .addLast("codec", new HttpClientCodec(4096, 16_384, 16_384))
                          .addLast("aggregate", new HttpObjectAggregator(16 << 20))
                          .addLast("flow", new ResponseHandler());
                    }
                });
    }

    /** Sessions scheduled or running. */
    int live() {
        return flows.size();
    }

    /**
     * Starts session {@code s} with its first request at {@code intendedNano}; {@code onEnd} gets the
     * intended start of the user's next session, or {@link SessionRunner#ABORTED}.
     */
    void start(UserSession s, int emulatedUser, long intendedNano, LongConsumer onEnd) {
        Flow f = new Flow(s, emulatedUser, intendedNano, onEnd, group.next());
        flows.add(f);
        f.at(intendedNano, f::first);
    }

    /** Ends every session that is waiting (thinking or not started); in-flight requests finish. */
    void abortWaiting() {
        for (Flow f : flows) {
            f.loop.execute(f::abortIfWaiting);
        }
    }

    @Override
    public void close() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    }

    /** One session's state machine. */
    private final class Flow {
        final UserSession s;
        final int user;
        final long intendedStart;
        final LongConsumer onEnd;
        final EventLoop loop;
        final Reply reply = new Reply();
        Channel ch;
        boolean started;
        boolean awaiting;
        boolean finished;
        boolean newConnection;
        int index;
        long startNano;
        long intended;
        long send;
        long firstByte;
        long lastDone;
        ScheduledFuture<?> timer;
        ArrayDeque<String> images;

        Flow(UserSession s, int user, long intendedStart, LongConsumer onEnd, EventLoop loop) {
            this.s = s;
            this.user = user;
            this.intendedStart = intendedStart;
            this.intended = intendedStart;
            this.onEnd = onEnd;
            this.loop = loop;
        }

        /** Runs {@code task} at {@code nano} on this flow's loop; past the end of the run, ends the session. */
        void at(long nano, Runnable task) {
            if (nano >= clock.endNano()) {
                timer = loop.schedule(() -> end(true), Math.max(0, clock.endNano() - System.nanoTime()), TimeUnit.NANOSECONDS);
                return;
            }
            timer = loop.schedule(task, Math.max(0, nano - System.nanoTime()), TimeUnit.NANOSECONDS);
        }

        void first() {
            if (stop.stopped()) {
                end(true);
                return;
            }
            started = true;
            startNano = System.nanoTime();
            lastDone = startNano;
            active.increment();
            sendRequest(s.nextPath());
        }

        void next() {
            if (stop.stopped()) {
                end(true);
                return;
            }
            sendRequest(s.nextPath());
        }

        void abortIfWaiting() {
            if (!finished && !awaiting) {
                if (timer != null) {
                    timer.cancel(false);
                }
                end(true);
            }
        }

        void sendRequest(String path) {
            reply.reset();
            DefaultFullHttpRequest req = request(path);
            reply.sent();
            send = reply.sendNano;
            awaiting = true;
            if (ch != null && ch.isActive()) {
                newConnection = false;
                write(req);
                return;
            }
            newConnection = true;
            ChannelFuture cf = bootstrap.clone(loop).connect(target);
            cf.addListener(f -> {
                if (!f.isSuccess()) {
                    fail(ErrorClass.of(f.cause(), false));
                    return;
                }
                ch = cf.channel();
                ch.attr(FLOW).set(this);
                write(req);
            });
        }

        /** The GET with the headers every backend sends, built before the send mark. */
        DefaultFullHttpRequest request(String path) {
            DefaultFullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, path);
            req.headers().add("User-Agent", RequestHeaders.USER_AGENT).add("Accept", RequestHeaders.ACCEPT)
               .add("Host", hostHeader).add("Connection", RequestHeaders.CONNECTION);
            return req;
        }

        void write(DefaultFullHttpRequest req) {
            firstByte = 0;
            timer = loop.schedule(() -> {
                if (awaiting) {
                    Channel c = ch;
                    fail("read-timeout");
                    if (c != null) {
                        c.close();
                    }
                }
            }, requestTimeoutMs, TimeUnit.MILLISECONDS);
            ch.writeAndFlush(req).addListener(f -> {
                if (!f.isSuccess() && awaiting) {
                    fail(ErrorClass.of(f.cause(), true));
                }
            });
        }

        void fail(String error) {
            if (!awaiting) {
                return;
            }
            awaiting = false;
            if (timer != null) {
                timer.cancel(false);
            }
            reply.fail(error);
            reply.newConnection = newConnection;
            afterReply();
        }

        void onResponse(FullHttpResponse resp) {
            long now = System.nanoTime();
            if (images != null) {
                onImage(resp);
                return;
            }
            if (!awaiting) {
                return;
            }
            awaiting = false;
            timer.cancel(false);
            reply.status = resp.status().code();
            reply.bytes = resp.content().readableBytes();
            reply.body = resp.content().toString(StandardCharsets.ISO_8859_1);
            reply.ttfbNs = (firstByte == 0 ? now : firstByte) - send;
            reply.responseNs = now - send;
            reply.newConnection = newConnection;
            InetSocketAddress local = (InetSocketAddress) ch.localAddress();
            reply.connectionId = local.getAddress().getHostAddress() + ":" + local.getPort();
            if (!HttpUtil.isKeepAlive(resp)) {
                ch.close();
                ch = null;
            }
            if (downloadImages && ch != null) {
                images = new ArrayDeque<>(org.rubis.client.backend.ImageFetcher.paths(reply.body));
                if (!images.isEmpty()) {
                    awaiting = true;
                    write(request(images.poll()));
                    return;
                }
                images = null;
            }
            afterReply();
        }

        void onImage(FullHttpResponse resp) {
            timer.cancel(false);
            reply.images++;
            reply.imageBytes += resp.content().readableBytes();
            String nextImage = images.poll();
            if (nextImage != null && ch != null && ch.isActive()) {
                write(request(nextImage));
                return;
            }
            images = null;
            awaiting = false;
            afterReply();
        }

        void onInactive() {
            ch = null;
            if (images != null) {
                images = null;
                awaiting = false;
                afterReply();
                return;
            }
            fail("connection-reset");
        }

        void afterReply() {
            long done = send + reply.responseNs;
            lastDone = done;
            UserSession.Next n = s.onReply(reply.body, reply.failed());
            recorder.request(s, index++, intended, send, reply);
            if (n == UserSession.Next.END) {
                end(false);
                return;
            }
            intended = done + clock.scaleThink(s.thinkNanos(), done);
            at(intended, this::next);
        }

        void end(boolean aborted) {
            if (finished) {
                return;
            }
            finished = true;
            if (ch != null) {
                ch.close();
                ch = null;
            }
            flows.remove(this);
            if (!started) {
                onEnd.accept(SessionRunner.ABORTED);
                return;
            }
            if (aborted) {
                s.abort();
            }
            active.decrement();
            recorder.session(s, user, intendedStart, startNano, lastDone);
            onEnd.accept(aborted ? SessionRunner.ABORTED : lastDone + clock.scaleThink(s.thinkNanos(), lastDone));
        }
    }

    /** Notes when the first bytes of a response arrive (time to first byte). */
    private static final class FirstByteStamp extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            Flow f = ctx.channel().attr(FLOW).get();
            if (f != null && f.firstByte == 0 && msg instanceof ByteBuf) {
                f.firstByte = System.nanoTime();
            }
            ctx.fireChannelRead(msg);
        }
    }

    private static final class ResponseHandler extends SimpleChannelInboundHandler<FullHttpResponse> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse resp) {
            Flow f = ctx.channel().attr(FLOW).get();
            if (f != null && f.ch == ctx.channel()) {
                f.onResponse(resp);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            Flow f = ctx.channel().attr(FLOW).get();
            if (f != null && f.ch == ctx.channel()) {
                f.onInactive();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
