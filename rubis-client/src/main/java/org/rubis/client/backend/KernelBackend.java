package org.rubis.client.backend;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.util.concurrent.FastThreadLocal;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.rubis.client.backend.kernel.ClockAnchor;
import org.rubis.client.backend.kernel.KernelLoop;
import org.rubis.client.backend.kernel.KernelProbe;
import org.rubis.client.backend.kernel.StampsOn;
import org.rubis.client.config.ClientConfig;
import org.rubis.client.input.ConfigException;

/**
 * The event-loop backend on the kernel's own sockets: an epoll loop per core of our own ({@link KernelLoop}, inside
 * Netty's single-thread loops for their tasks and timers), each session its own keep-alive connection
 * ({@link KernelSession}), HTTP/1.1 read by the project's {@link HttpReplyParser}. Its sockets have the kernel's
 * software time stamps on, so each request also carries the kernel's transmit stamps of its bytes and receive stamps
 * of its reply's, the same instants a packet capture sees at the device, without a capture: published in place of
 * the user-space marks (docs/KERNEL-TIMESTAMPS.md). Linux only, http only: where the kernel or the target cannot give
 * honest stamps the run is refused before it starts ({@link #refusal}), never run on user-space times instead.
 */
public final class KernelBackend extends LoopBackend {

    private final MultiThreadIoEventLoopGroup group;
    /** Holds the kernel's receive stamping on for the backend's life. */
    private final StampsOn stampsOn;

    private final KernelLoop.Factory loops;
    private final ClockAnchor anchor;
    private final SourceAddresses sources;
    final InetSocketAddress target;
    final int connectTimeoutMs;
    /** " HTTP/1.1", the headers every backend sends, the blank line. */
    private final byte[] tail;

    /** Where a request is assembled, one array per loop: "GET " stays at its start. */
    private final FastThreadLocal<byte[]> scratch = new FastThreadLocal<>() {
        @Override
        protected byte[] initialValue() {
            byte[] a = new byte[4096];
            a[0] = 'G';
            a[1] = 'E';
            a[2] = 'T';
            a[3] = ' ';
            return a;
        }
    };

    private final FastThreadLocal<int[]> length = new FastThreadLocal<>() {
        @Override
        protected int[] initialValue() {
            return new int[1];
        }
    };

    KernelBackend(ClientConfig.Execution e, String base) {
        super(e);
        this.stampsOn = new StampsOn(); // before the probe: its exchange and the run's then find stamping on
        String why = refusal(base);
        if (why != null) {
            stampsOn.close();
            throw new ConfigException(why);
        }
        URI u = URI.create(base);
        int port = u.getPort() < 0 ? 80 : u.getPort();
        this.target = new InetSocketAddress(u.getHost(), port);
        this.sources = new SourceAddresses(e.sourceAddresses(), u.getHost());
        this.connectTimeoutMs = e.connectTimeoutMs();
        this.tail = RequestBytes.tail(new RequestHeaders(base));
        this.anchor = ClockAnchor.take();
        this.loops = new KernelLoop.Factory(anchor);
        this.group = new MultiThreadIoEventLoopGroup(Runtime.getRuntime().availableProcessors(), loops);
    }

    /**
     * Why the kernel backend cannot measure {@code base} on this machine, in one line, or null when it can: https
     * (the stamps would time TLS records, not the requests), not Linux, or a kernel that refuses the time-stamping
     * option on a loopback TCP connection ({@link KernelProbe}).
     */
    public static String refusal(String base) {
        if (ClientTls.isHttps(base)) {
            return "--backend kernel: https is not supported (the kernel stamps TCP segments, which over TLS are "
                    + "records, not requests); use an http target or another backend";
        }
        return kernelRefusal();
    }

    /** Why this machine's kernel cannot give the backend's stamps, in one line, or null when it can. */
    public static String kernelRefusal() {
        String probe = KernelProbe.refusal();
        return probe == null ? null : "--backend kernel: " + probe + "; use another backend";
    }

    /** The GET of {@code path}, in this loop's array ({@link #requestLength} bytes). ASCII paths; others encoded. */
    byte[] request(String path) {
        byte[] a = scratch.get();
        int n = path.length();
        int total = 4 + n + tail.length;
        boolean ascii = true;
        for (int i = 0; i < n && ascii; i++) {
            ascii = path.charAt(i) < 0x80;
        }
        if (!ascii) {
            byte[] p = path.getBytes(StandardCharsets.UTF_8);
            total = 4 + p.length + tail.length;
            if (total > a.length) {
                a = grow(total);
            }
            System.arraycopy(p, 0, a, 4, p.length);
            System.arraycopy(tail, 0, a, 4 + p.length, tail.length);
        } else {
            if (total > a.length) {
                a = grow(total);
            }
            for (int i = 0; i < n; i++) {
                a[4 + i] = (byte) path.charAt(i);
            }
            System.arraycopy(tail, 0, a, 4 + n, tail.length);
        }
        length.get()[0] = total;
        return a;
    }

    private byte[] grow(int size) {
        byte[] a = new byte[Math.max(size, 2 * scratch.get().length)];
        System.arraycopy(scratch.get(), 0, a, 0, 4);
        scratch.set(a);
        return a;
    }

    /** The length of the last {@link #request} on this thread. */
    int requestLength() {
        return length.get()[0];
    }

    @Override
    public String name() {
        return "kernel";
    }

    @Override
    EventLoopGroup group() {
        return group;
    }

    /** False: the user-space marks are published, the kernel's only logged beside them. */
    volatile boolean publishKernel = true;

    /** Whether the kernel's times are published ({@code --published-times kernel}, the default on this backend). */
    public void publishKernelTimes(boolean kernel) {
        publishKernel = kernel;
    }

    /** The anchor that maps the kernel's stamps onto the run's clock. */
    public ClockAnchor anchor() {
        return anchor;
    }

    /** Reads that returned data over every loop, and those of them without a receive stamp. */
    public long[] readStamps() {
        long reads = 0;
        long without = 0;
        for (KernelLoop l : loops.all()) {
            reads += l.reads();
            without += l.readsWithoutStamp();
        }
        return new long[] {reads, without};
    }

    @Override
    public Session startSession() {
        EventLoop loop = group.next();
        return new KernelSession(this, loop, loops.of(loop), deadlines(loop), sources.next());
    }

    @Override
    public void close() {
        super.close();
        stampsOn.close();
    }
}
