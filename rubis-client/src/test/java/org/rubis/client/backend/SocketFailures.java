package org.rubis.client.backend;

import io.netty.channel.Channel;
import io.netty.channel.ChannelException;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.unix.Errors;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.rubis.client.config.ClientConfig;

/**
 * Channels for {@link NettyBackend} whose creation fails on chosen calls as the transport's does when no socket can be
 * made (the process's file descriptors ran out), through the backend's channel seam: exhausting them for real inside
 * the test JVM fails its class loading too. Public for the engine's tests, which run NettyBackend's sessions.
 */
public final class SocketFailures implements Supplier<Channel> {

    /** EMFILE on Linux, the only system with the epoll transport. */
    private static final int EMFILE = 24;

    private final Supplier<Channel> transport = NettyChannels.socketChannels(Epoll.isAvailable());
    private final Set<Integer> failing;
    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();

    private SocketFailures(Set<Integer> failing) {
        this.failing = failing;
    }

    /** Channel creations number {@code calls} (counted from 1) fail; the others make the transport's channel. */
    public static SocketFailures onCalls(Integer... calls) {
        return new SocketFailures(Set.of(calls));
    }

    @Override
    public Channel get() {
        if (failing.contains(calls.incrementAndGet())) {
            failed.incrementAndGet();
            throw noSocket();
        }
        return transport.get();
    }

    /** Channels asked for so far. */
    public int calls() {
        return calls.get();
    }

    /** Of which failed. */
    public int failed() {
        return failed.get();
    }

    /** A netty backend for {@code base} (http), configured as {@code e} says, whose channels come from here. */
    public Backend netty(ClientConfig.Execution e, String base) {
        return new NettyBackend(e, base, this);
    }

    /** What the transport in use throws when no socket can be made. */
    public static ChannelException noSocket() {
        return Epoll.isAvailable() ? epollNoSocket() : nioNoSocket();
    }

    /** NioSocketChannel's constructor when the JDK cannot open a socket (as seen under {@code ulimit -n}). */
    static ChannelException nioNoSocket() {
        return new ChannelException("Failed to open a socket.", new SocketException("Too many open files"));
    }

    /** EpollSocketChannel's constructor when socket(2) fails with EMFILE: Netty's own exception, built by Netty. */
    static ChannelException epollNoSocket() {
        return new ChannelException(Errors.newIOException("newSocketStream", -EMFILE));
    }
}
