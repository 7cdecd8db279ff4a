package org.rubis.client.backend;

import io.netty.channel.Channel;
import io.netty.channel.ChannelConfig;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslHandler;
import java.net.InetSocketAddress;
import java.util.function.Supplier;

/**
 * The netty backend's new connections to its target: a channel with its options and handlers,
 * registered with a session's loop ({@link #register}, what a prepare readies ahead), then connected
 * ({@link #connect}, in the request's window).
 *
 * <p>Not {@code Bootstrap.connect}: that builds the channel by reflection, copies the bootstrap's
 * option and attribute maps, and defers the connect itself to a later task of the loop, all inside
 * the request's window (the wire check measured 325 us p50 from the send mark to the SYN on an idle
 * host). The options are the same: {@code TCP_NODELAY}; the connect timeout is the session's own
 * timer, dropped once connected (Netty's stays referenced by the channel after it is cancelled); one
 * shared receive-buffer allocator of a fixed size (the adaptive one keeps an allocator and a size
 * calculator per channel; the buffers are pooled and held only during a read); on epoll
 * {@code IP_BIND_ADDRESS_NO_PORT}: with source addresses a socket is bound before connect, and
 * bind(address, 0) makes Linux scan the port range for a port free on every address, TIME_WAIT
 * included (3 to 6 ms of kernel CPU per connect after a large run, docs/BENCHMARKS.md); with it the
 * port is chosen at connect. No HTTP codec: requests are written as bytes ({@link RequestBytes}) and
 * replies read by the session's own {@link HttpReplyParser}, so a connection has one handler,
 * shared ({@link NettyReplyHandler}; after TLS's, for https).
 */
final class NettyChannels {

    private static final FixedRecvByteBufAllocator RECEIVE_BUFFERS = new FixedRecvByteBufAllocator(8192);

    private final InetSocketAddress target;
    /** The TLS policy for https, or null. */
    private final ClientTls tls;

    private final boolean epoll;
    /**
     * Where {@link #register} gets each new connection's channel: the transport's socket channel
     * ({@link #socketChannels}). A seam for tests: a test gives its own to make the channel's creation throw, as the
     * transport does when no socket can be made (file descriptors exhausted), and so reach the error paths of a
     * session's open and prepare; real exhaustion inside the test JVM is flaky (its class loading fails at the same
     * moment). In a run it is always the one constructor reference: a call through a final field that the JIT inlines.
     */
    private final Supplier<Channel> channels;
    /** The connect timeout (0: none), timed by the session. */
    final int connectTimeoutMs;

    /** @param channels each new connection's channel (a test's); null: the transport's */
    NettyChannels(
            InetSocketAddress target, ClientTls tls, boolean epoll, Supplier<Channel> channels, int connectTimeoutMs) {
        this.target = target;
        this.tls = tls;
        this.epoll = epoll;
        this.channels = channels != null ? channels : socketChannels(epoll);
        this.connectTimeoutMs = connectTimeoutMs;
    }

    /** The transport's socket channel, unconnected and unregistered: what {@link #register} builds in a run. */
    static Supplier<Channel> socketChannels(boolean epoll) {
        return epoll ? EpollSocketChannel::new : NioSocketChannel::new;
    }

    /**
     * A new channel, its options and handlers set, registered with {@code loop}: everything a connection needs
     * before its connect. Throws when no socket can be made (Netty's ChannelException).
     */
    ChannelFuture register(EventLoop loop) {
        Channel ch = channels.get();
        try {
            ChannelConfig config = ch.config();
            config.setOption(ChannelOption.TCP_NODELAY, true);
            config.setConnectTimeoutMillis(0);
            config.setRecvByteBufAllocator(RECEIVE_BUFFERS);
            if (epoll) {
                config.setOption(EpollChannelOption.IP_BIND_ADDRESS_NO_PORT, true);
            }
            if (tls != null) {
                SslHandler handler = new SslHandler(tls.clientEngine(target.getHostString(), target.getPort()));
                ch.pipeline().addLast("tls", handler);
            }
            ch.pipeline().addLast("reply", NettyReplyHandler.INSTANCE);
        } catch (RuntimeException | Error e) {
            ch.unsafe().closeForcibly(); // its socket exists already: not left open behind the failure
            throw e;
        }
        return loop.register(ch);
    }

    /**
     * A new connection, its connect begun now, from the session's event loop, on a channel from {@link #register}:
     * built within the request's window, or before its send mark by a prepare. {@code source}: the local address to
     * bind, or null (the OS chooses).
     */
    ChannelFuture connect(ChannelFuture registered, InetSocketAddress source) {
        ChannelPromise connected = registered.channel().newPromise();
        if (registered.isDone()) { // on the channel's own loop, registration is immediate
            connectRegistered(registered, source, connected);
        } else {
            registered.addListener(f -> connectRegistered(registered, source, connected));
        }
        return connected;
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
}
