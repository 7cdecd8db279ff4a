package org.rubis.client.backend.kernel;

import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoRegistration;
import io.netty.util.concurrent.ThreadAwareExecutor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One event loop's I/O: an epoll instance of its own (epoll_create1, epoll_ctl, epoll_pwait2 through {@link Linux}),
 * the {@link StampedSocket}s registered with it, and the buffers every call on this loop shares, allocated once:
 * the read buffer, the send buffer, the {@code msghdr}, its {@code iovec} and control buffer, the epoll events.
 * It is the {@link IoHandler} of a Netty {@code SingleThreadIoEventLoop}, which supplies the rest of an event loop
 * (its task queue, its timers, its thread): Netty's own loop, well kept and already the engine's, with our polling
 * in it, so that the kernel backend's sessions run on loops the engine drives exactly as it drives netty's. Only the
 * loop's thread touches its sockets and buffers; {@link #wakeup} is the one call from other threads.
 */
public final class KernelLoop implements IoHandler {

    private static final int MAX_EVENTS = 256;
    private static final int CONTROL_BYTES = 512;
    /** The largest read: as Netty's default receive buffer allocator ends up for pages of a few KB to 64 KB. */
    static final int READ_BYTES = 64 * 1024;

    private static final int SEND_BYTES = 16 * 1024;

    /** Freed by the collector once the loop is gone: nothing here frees it while another thread may still wake us. */
    private final Arena arena = Arena.ofAuto();

    final Linux.Errno errno = new Linux.Errno(arena);
    /** Other threads' wake-ups use their own errno slot: the loop's is the loop thread's alone. */
    private final Linux.Errno wakeErrno = new Linux.Errno(arena);

    final ClockAnchor anchor;
    final MemorySegment in = arena.allocate(READ_BYTES, 64);
    final byte[] heapIn = new byte[READ_BYTES];
    final MemorySegment out = arena.allocate(SEND_BYTES, 64);
    final MemorySegment address = arena.allocate(32, 8);
    private final MemorySegment addressLength = arena.allocate(8, 8);
    private final MemorySegment msghdr = arena.allocate(Linux.MSGHDR_SIZE, 8);
    private final MemorySegment iovec = arena.allocate(Linux.IOVEC_SIZE, 8);
    private final MemorySegment control = arena.allocate(CONTROL_BYTES, 8);
    private final MemorySegment events = arena.allocate(Linux.EPOLL_EVENT_SIZE * MAX_EVENTS, 8);
    private final int epfd;
    private final int wakeFd;
    private final AtomicBoolean sleeping = new AtomicBoolean();
    private StampedSocket[] byFd = new StampedSocket[1024];
    /** Set once the loop's descriptors are closed; guarded by {@code this} with the wake-up's write. */
    private boolean closed;

    /** The receive stamp ({@code CLOCK_REALTIME} ns) of the last {@link #receive}, 0 when it carried none. */
    long lastStamp;
    /** The last error-queue message's transmit stamp and its byte offset (-1 when it was no send stamp). */
    long lastTxStamp;

    long lastTxId = -1;

    /** Stamps missing from reads that returned data, and reads: the run's account of what the kernel gave. */
    long readsWithoutStamp;

    long reads;
    /** Control messages truncated (a buffer too small: never expected). */
    long truncated;

    KernelLoop(ClockAnchor anchor) {
        this.anchor = anchor;
        epfd = Linux.epollCreate(errno);
        if (epfd < 0) {
            throw new IllegalStateException("epoll_create1 failed: errno " + errno.value());
        }
        wakeFd = Linux.eventfd(errno);
        if (wakeFd < 0) {
            throw new IllegalStateException("eventfd failed: errno " + errno.value());
        }
        if (Linux.epollCtl(errno, epfd, Linux.EPOLL_CTL_ADD, wakeFd, Linux.EPOLLIN) < 0) {
            throw new IllegalStateException("epoll_ctl(eventfd) failed: errno " + errno.value());
        }
        msghdr.set(ValueLayout.ADDRESS, Linux.MSG_IOV, iovec);
        msghdr.set(Linux.LONG, Linux.MSG_IOVLEN, 1L);
        msghdr.set(ValueLayout.ADDRESS, Linux.MSG_CONTROL, control);
        iovec.set(ValueLayout.ADDRESS, 0, in);
    }

    /** The loops of one backend: a factory that remembers which loop (executor) got which handler. */
    public static final class Factory implements IoHandlerFactory {
        private final ClockAnchor anchor;
        private final Map<ThreadAwareExecutor, KernelLoop> loops = new ConcurrentHashMap<>();

        public Factory(ClockAnchor anchor) {
            this.anchor = anchor;
        }

        @Override
        public IoHandler newHandler(ThreadAwareExecutor executor) {
            KernelLoop l = new KernelLoop(anchor);
            loops.put(executor, l);
            return l;
        }

        /** The handler of {@code loop}, an event loop of a group made with this factory. */
        public KernelLoop of(Object loop) {
            KernelLoop l = loops.get(loop);
            if (l == null) {
                throw new IllegalArgumentException(loop + " is not a loop of this factory");
            }
            return l;
        }

        /** Every loop's handler. */
        public Iterable<KernelLoop> all() {
            return loops.values();
        }
    }

    /** A socket of this loop for {@code handler}; call on the loop's thread. */
    public StampedSocket socket(StampedSocket.Handler handler) {
        return new StampedSocket(this, handler);
    }

    int add(int fd, StampedSocket s, int interest) {
        if (fd >= byFd.length) {
            byFd = Arrays.copyOf(byFd, Math.max(fd + 1, 2 * byFd.length));
        }
        if (Linux.epollCtl(errno, epfd, Linux.EPOLL_CTL_ADD, fd, interest | Linux.EPOLLRDHUP) < 0) {
            return errno.value();
        }
        byFd[fd] = s;
        return 0;
    }

    void modify(int fd, int interest) {
        Linux.epollCtl(errno, epfd, Linux.EPOLL_CTL_MOD, fd, interest);
    }

    void remove(int fd) {
        Linux.epollCtl(errno, epfd, Linux.EPOLL_CTL_DEL, fd, 0);
        if (fd < byFd.length) {
            byFd[fd] = null;
        }
    }

    /**
     * recvmsg(fd) of up to {@code max} bytes into {@link #in}, never blocking, its control messages read:
     * {@link #lastStamp} for data, {@link #lastTxStamp}/{@link #lastTxId} for the error queue
     * ({@code MSG_ERRQUEUE} in {@code flags}). Returns the bytes read, or {@code -errno}.
     */
    long receive(int fd, long max, int flags) {
        iovec.set(Linux.LONG, 8, max);
        msghdr.set(Linux.LONG, Linux.MSG_CONTROLLEN, (long) CONTROL_BYTES);
        msghdr.set(Linux.INT, Linux.MSG_FLAGS, 0);
        long n = Linux.recvmsg(errno, fd, msghdr, flags | Linux.MSG_DONTWAIT);
        if (n < 0) {
            return -errno.value();
        }
        boolean errQueue = (flags & Linux.MSG_ERRQUEUE) != 0;
        long stamp = 0;
        long txId = -1;
        if ((msghdr.get(Linux.INT, Linux.MSG_FLAGS) & Linux.MSG_CTRUNC) != 0) {
            truncated++;
        }
        long length = msghdr.get(Linux.LONG, Linux.MSG_CONTROLLEN);
        long at = 0;
        while (at + 16 <= length) {
            long len = control.get(Linux.LONG, at);
            if (len < 16 || at + len > length) {
                break;
            }
            int level = control.get(Linux.INT, at + 8);
            int type = control.get(Linux.INT, at + 12);
            if (level == Linux.SOL_SOCKET && type == Linux.SO_TIMESTAMPING && len >= 16 + 16) {
                // struct scm_timestamping: ts[0] is the software stamp
                stamp = control.get(Linux.LONG, at + 16) * 1_000_000_000L + control.get(Linux.LONG, at + 24);
            } else if ((level == Linux.SOL_IP && type == Linux.IP_RECVERR
                            || level == Linux.SOL_IPV6 && type == Linux.IPV6_RECVERR)
                    && len >= 16 + 16) {
                // struct sock_extended_err: errno, origin, type, code, pad, info, data
                int origin = control.get(ValueLayout.JAVA_BYTE, at + 20) & 0xff;
                int info = control.get(Linux.INT, at + 24);
                int data = control.get(Linux.INT, at + 28);
                if (origin == Linux.SO_EE_ORIGIN_TIMESTAMPING && info == Linux.SCM_TSTAMP_SND) {
                    txId = data & 0xffffffffL;
                }
            }
            at += (len + 7) & ~7L;
        }
        if (errQueue) {
            lastTxStamp = stamp;
            lastTxId = txId;
        } else {
            lastStamp = stamp;
            if (n > 0) {
                reads++;
                if (stamp == 0) {
                    readsWithoutStamp++;
                }
            }
        }
        return n;
    }

    /** getsockname as "address:port". Off the timing path (named once per connection). */
    String localAddress(int fd) {
        addressLength.set(Linux.INT, 0, (int) address.byteSize());
        int len = Linux.getsockname(errno, fd, address);
        if (len < 0) {
            return "";
        }
        int family = address.get(ValueLayout.JAVA_SHORT_UNALIGNED, 0);
        int port =
                ((address.get(ValueLayout.JAVA_BYTE, 2) & 0xff) << 8) | (address.get(ValueLayout.JAVA_BYTE, 3) & 0xff);
        byte[] a = family == Linux.AF_INET6 ? new byte[16] : new byte[4];
        MemorySegment.copy(address, ValueLayout.JAVA_BYTE, family == Linux.AF_INET6 ? 8 : 4, a, 0, a.length);
        try {
            return InetAddress.getByAddress(a).getHostAddress() + ":" + port;
        } catch (UnknownHostException e) {
            return "";
        }
    }

    /** Reads with data, and those of them the kernel gave no receive stamp. */
    public long reads() {
        return reads;
    }

    public long readsWithoutStamp() {
        return readsWithoutStamp;
    }

    @Override
    public int run(IoHandlerContext context) {
        long timeout = 0;
        sleeping.set(true);
        if (context.canBlock()) {
            long deadline = context.deadlineNanos();
            timeout = deadline == -1 ? -1 : Math.max(0, context.delayNanos(System.nanoTime()));
        }
        int n = Linux.epollWait(errno, epfd, events, MAX_EVENTS, timeout);
        sleeping.set(false);
        if (n < 0) {
            return 0; // EINTR
        }
        for (int i = 0; i < n; i++) {
            long base = i * Linux.EPOLL_EVENT_SIZE;
            int ev = events.get(Linux.INT, base);
            int fd = (int) events.get(Linux.LONG, base + Linux.EPOLL_EVENT_DATA);
            if (fd == wakeFd) {
                Linux.eventfdDrain(errno, wakeFd);
                continue;
            }
            StampedSocket s = fd < byFd.length ? byFd[fd] : null;
            if (s != null) {
                s.ready(ev);
            }
        }
        return n;
    }

    /**
     * From another thread: a task is queued. The eventfd is written only while the loop waits, under the lock that
     * {@link #destroy} closes it under, so a wake-up never writes to a descriptor number the process has reused.
     */
    @Override
    public void wakeup() {
        if (sleeping.compareAndSet(true, false)) {
            synchronized (this) {
                if (!closed) {
                    Linux.eventfdSignal(wakeErrno, wakeFd);
                }
            }
        }
    }

    @Override
    public IoRegistration register(IoHandle handle) {
        throw new UnsupportedOperationException("the kernel loop registers its own sockets, not Netty channels");
    }

    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
        return false;
    }

    @Override
    public void destroy() {
        for (StampedSocket s : byFd) {
            if (s != null) {
                s.close();
            }
        }
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            Linux.close(errno, wakeFd);
            Linux.close(errno, epfd);
        }
    }
}
