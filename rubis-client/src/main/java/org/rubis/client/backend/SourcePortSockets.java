package org.rubis.client.backend;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.Socket;
import java.net.SocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hc.client5.http.io.DetachedSocketFactory;
import org.apache.hc.core5.http.io.SocketConfig;

/**
 * Sockets for HttpClient 5 that, when bound to a source address with port 0 (the dedicated
 * backend's {@link SourceAddresses}), choose the port themselves: each source address walks the
 * ephemeral port range from a random start, and a port the kernel refuses (in use or in
 * TIME_WAIT on that address) is skipped.
 *
 * <p>Why: Linux's own choice for {@code bind(address, 0)} scans the port range for a port free on
 * every address, counting TIME_WAIT. With thousands of connections open and the TIME_WAIT left by
 * a previous run (e.g. {@code bench scale}'s netty run just before), that scan cost 3 to 6 ms of
 * kernel CPU per connect: 18,000 virtual-thread users spent two whole cores in bind during their
 * up ramp and fell 8 s behind schedule. A bind to a given port is one hash lookup. (Linux's
 * IP_BIND_ADDRESS_NO_PORT would defer the choice to connect, but java.net cannot set it.)
 */
final class SourcePortSockets implements DetachedSocketFactory {

    /** Ports tried per bind before leaving the choice to the kernel (a nearly full range). */
    static final int TRIES = 64;

    private final int low;
    private final int high;
    private final ConcurrentHashMap<InetAddress, AtomicInteger> cursors = new ConcurrentHashMap<>();

    SourcePortSockets() {
        this(ephemeralRange());
    }

    SourcePortSockets(int[] range) {
        this.low = range[0];
        this.high = range[1];
    }

    /**
     * A socket made before its request's send mark ({@link DedicatedBackend#prepare}), handed to the thread that will
     * connect it: HttpClient's operator asks {@link #create} for a socket on the thread that executes the request, and
     * passes nothing of the request to it. Set only around one {@code execute}, so it never outlives the request.
     */
    private static final ThreadLocal<Socket> HANDED = new ThreadLocal<>();

    @Override
    public Socket create(Proxy proxy) {
        if (proxy != null) {
            return new Socket(proxy);
        }
        Socket prepared = takeBack();
        return prepared != null ? prepared : new PortChoosing();
    }

    /**
     * A new unconnected socket with {@code config}'s options set as HttpClient's operator sets them (so its file
     * descriptor exists and the option calls have run): what {@link #create} would return, made ahead of time.
     */
    Socket prepared(SocketConfig config) throws IOException {
        Socket s = new PortChoosing();
        try {
            if (config.getSoTimeout() != null) {
                s.setSoTimeout(config.getSoTimeout().toMillisecondsIntBound());
            }
            s.setReuseAddress(config.isSoReuseAddress());
            s.setTcpNoDelay(config.isTcpNoDelay());
            s.setKeepAlive(config.isSoKeepAlive());
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
        return s;
    }

    /** The next {@link #create} on this thread returns {@code prepared}. */
    static void handOver(Socket prepared) {
        HANDED.set(prepared);
    }

    /** The socket handed to this thread and not taken yet, or null; the hand-over ends. */
    static Socket takeBack() {
        Socket left = HANDED.get();
        if (left != null) {
            HANDED.remove();
        }
        return left;
    }

    /** The next port to try on {@code address}: round robin over the range, from a random start. */
    int nextPort(InetAddress address) {
        int span = high - low + 1;
        AtomicInteger c = cursors.computeIfAbsent(
                address, a -> new AtomicInteger(ThreadLocalRandom.current().nextInt(span)));
        return low + Math.floorMod(c.getAndIncrement(), span);
    }

    /** net.ipv4.ip_local_port_range, or Linux's default when it cannot be read. */
    static int[] ephemeralRange() {
        try {
            String[] f = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))
                    .trim()
                    .split("\\s+");
            int lo = Integer.parseInt(f[0]);
            int hi = Integer.parseInt(f[1]);
            if (lo > 0 && hi >= lo && hi <= 65535) {
                return new int[] {lo, hi};
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or unreadable: the default below
        }
        return new int[] {32768, 60999};
    }

    /** A plain socket whose bind to (address, 0) picks the port as described above. */
    private final class PortChoosing extends Socket {

        @Override
        public void bind(SocketAddress local) throws IOException {
            if (!(local instanceof InetSocketAddress a)
                    || a.getPort() != 0
                    || a.getAddress() == null
                    || a.getAddress().isAnyLocalAddress()) {
                super.bind(local);
                return;
            }
            for (int i = 0; i < TRIES; i++) {
                try {
                    super.bind(new InetSocketAddress(a.getAddress(), nextPort(a.getAddress())));
                    return;
                } catch (BindException inUse) {
                    // taken on this address (open or TIME_WAIT): the next one
                }
            }
            super.bind(local);
        }
    }
}
