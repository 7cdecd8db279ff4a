package org.rubis.client.backend;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SelectStrategy;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.ResourceLeakDetector;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.rubis.client.config.ClientConfig;

/**
 * The event-driven backend, httperf's architecture in Java: a few Netty event loops (epoll where
 * available) carry every session's requests, each session has its own connection, and no thread
 * belongs to a user. A session ({@link NettySession}) is bound to one event loop at
 * {@link #startSession}; its requests, replies and timers all run there, so its state needs no
 * locking. Its new connections come from {@link NettyChannels}, its requests' bytes from
 * {@link RequestBytes}, its requests' deadlines from its loop's {@link LoopDeadlines}.
 */
public final class NettyBackend extends LoopBackend implements PreparingBackend {

    /**
     * The prepare lead: 1 ms is far beyond the prepare's own time (60-120 us cold) and the timer's lateness, and
     * short enough that the channel is not kept through a think time. Dedicated takes 2 ms
     * ({@link DedicatedBackend#LEAD_NANOS}): its prepare may first check an idle connection, a read of up to 1 ms.
     */
    static final long LEAD_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    static {
        // Netty's default leak detection samples one pooled buffer in 128 and captures a stack trace for it (a
        // Throwable), on the event loop: measurement code pays that at random. Off unless asked for with
        // -Dio.netty.leakDetection.level (an allowed JVM option, docs/FAULTS.md), e.g. when hunting a leak.
        if (System.getProperty("io.netty.leakDetection.level") == null
                && System.getProperty("io.netty.leakDetectionLevel") == null) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
    }

    private final EventLoopGroup group;
    private final SourceAddresses sources;
    /** A session's new connections. */
    final NettyChannels channels;
    /** A session's requests as bytes. */
    final RequestBytes requests;

    /**
     * The backend for {@code base} as {@code e} configures it: TLS for https with its resumption setting; connections
     * spread over {@code client_source_addresses} loopback source addresses (1: the OS chooses); with
     * {@code client_busy_poll}, one epoll event loop that busy-waits ({@link #eventLoops}).
     */
    NettyBackend(ClientConfig.Execution e, String base) {
        this(e, base, null);
    }

    /** @param channels each new connection's channel (a test's, see {@link NettyChannels}); null: the transport's */
    NettyBackend(ClientConfig.Execution e, String base, Supplier<Channel> channels) {
        super(e);
        URI u = URI.create(base);
        boolean https = ClientTls.isHttps(base);
        int port = u.getPort() < 0 ? (https ? 443 : 80) : u.getPort();
        InetSocketAddress target = new InetSocketAddress(u.getHost(), port);
        boolean epoll = Epoll.isAvailable();
        this.sources = new SourceAddresses(e.sourceAddresses(), u.getHost());
        ClientTls tls = https ? new ClientTls(e.tlsResumption()) : null;
        this.channels = new NettyChannels(target, tls, epoll, channels, e.connectTimeoutMs());
        this.requests = new RequestBytes(new RequestHeaders(base));
        this.group = eventLoops(e.busyPoll(), epoll);
    }

    /**
     * A loop per core, epoll where available. {@code busyPoll}: one epoll event loop that busy-waits (epoll_wait
     * with no timeout, in a loop) instead of blocking: it burns a whole core so that a reply is seen as soon as it
     * arrives, as httperf does; one loop only, so the other cores stay for the server. Without epoll it is ignored,
     * with a one-line message.
     */
    private static EventLoopGroup eventLoops(boolean busyPoll, boolean epoll) {
        if (busyPoll && !epoll) {
            System.err.println("warning: --busy-poll needs Netty's epoll transport (Linux x86_64/aarch64), "
                    + "unavailable here (" + Epoll.unavailabilityCause() + "); the event loops block as usual");
        }
        if (busyPoll && epoll) {
            return new MultiThreadIoEventLoopGroup(
                    1, EpollIoHandler.newFactory(0, () -> (selectSupplier, hasTasks) -> SelectStrategy.BUSY_WAIT));
        }
        int threads = Runtime.getRuntime().availableProcessors();
        return new MultiThreadIoEventLoopGroup(
                threads, epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
    }

    @Override
    public String name() {
        return "netty";
    }

    @Override
    public Session startSession() {
        EventLoop loop = group.next();
        return new NettySession(this, loop, deadlines(loop), sources.next());
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
        ((NettySession) session).prepare();
    }

    @Override
    EventLoopGroup group() {
        return group;
    }
}
