package org.rubis.client.backend.kernel;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Locale;
import java.util.Optional;

/**
 * The C library's socket, epoll and clock calls the kernel backend needs, bound once through the FFM API
 * ({@code java.lang.foreign}), each returning the call's result and leaving {@code errno} in the calling
 * thread's {@link Errno}: the JDK's own sockets neither hand a TCP read's control messages to the caller nor read
 * a socket's error queue, and both carry the kernel's time stamps. Linux on x86_64 and aarch64 only: the
 * structures' layouts ({@code msghdr}, {@code epoll_event}) are those ABIs'; {@link #unavailable()} says why
 * elsewhere.
 */
public final class Linux {

    // socket(2), setsockopt(2) and friends: the values of the Linux UAPI headers (asm-generic, x86_64)
    static final int AF_INET = 2;
    static final int AF_INET6 = 10;
    static final int SOCK_STREAM = 1;
    static final int SOCK_NONBLOCK = 0x800;
    static final int SOCK_CLOEXEC = 0x80000;
    static final int SOL_SOCKET = 1;
    static final int SO_ERROR = 4;
    static final int SO_TIMESTAMPING = 37;
    static final int IPPROTO_TCP = 6;
    static final int TCP_NODELAY = 1;
    static final int SOL_IP = 0;
    static final int IP_RECVERR = 11;
    static final int SOL_IPV6 = 41;
    static final int IPV6_RECVERR = 25;
    static final int MSG_DONTWAIT = 0x40;
    static final int MSG_NOSIGNAL = 0x4000;
    static final int MSG_ERRQUEUE = 0x2000;
    static final int MSG_CTRUNC = 0x8;

    // SO_TIMESTAMPING flags (linux/net_tstamp.h)
    static final int SOF_TIMESTAMPING_TX_SOFTWARE = 1 << 1;
    static final int SOF_TIMESTAMPING_RX_SOFTWARE = 1 << 3;
    static final int SOF_TIMESTAMPING_SOFTWARE = 1 << 4;
    static final int SOF_TIMESTAMPING_OPT_ID = 1 << 7;
    static final int SOF_TIMESTAMPING_OPT_TSONLY = 1 << 11;
    /** What the backend asks for: software stamps of received and sent data, sends numbered by byte offset. */
    public static final int TIMESTAMPING = SOF_TIMESTAMPING_TX_SOFTWARE
            | SOF_TIMESTAMPING_RX_SOFTWARE
            | SOF_TIMESTAMPING_SOFTWARE
            | SOF_TIMESTAMPING_OPT_ID
            | SOF_TIMESTAMPING_OPT_TSONLY;
    /** sock_extended_err.ee_origin of a time stamp; ee_info SCM_TSTAMP_SND: the stamp of the data's send. */
    static final int SO_EE_ORIGIN_TIMESTAMPING = 4;

    static final int SCM_TSTAMP_SND = 0;

    // epoll(7)
    static final int EPOLL_CLOEXEC = 0x80000;
    static final int EPOLL_CTL_ADD = 1;
    static final int EPOLL_CTL_DEL = 2;
    static final int EPOLL_CTL_MOD = 3;
    public static final int EPOLLIN = 0x001;
    public static final int EPOLLOUT = 0x004;
    public static final int EPOLLERR = 0x008;
    public static final int EPOLLHUP = 0x010;
    public static final int EPOLLRDHUP = 0x2000;
    static final int EFD_NONBLOCK = 0x800;
    static final int EFD_CLOEXEC = 0x80000;
    static final int CLOCK_REALTIME = 0;

    // errno values (asm-generic/errno-base.h, errno.h)
    public static final int EINTR = 4;
    public static final int EAGAIN = 11;
    public static final int ENFILE = 23;
    public static final int EMFILE = 24;
    public static final int EPIPE = 32;
    public static final int ENOPROTOOPT = 92;
    public static final int EOPNOTSUPP = 95;
    public static final int ENETUNREACH = 101;
    public static final int ECONNABORTED = 103;
    public static final int ECONNRESET = 104;
    public static final int ETIMEDOUT = 110;
    public static final int ECONNREFUSED = 111;
    public static final int EHOSTUNREACH = 113;
    public static final int EINPROGRESS = 115;

    /** struct epoll_event: packed on x86_64 (12 bytes), naturally aligned elsewhere (16). */
    static final long EPOLL_EVENT_SIZE;

    static final long EPOLL_EVENT_DATA;
    /** struct msghdr (64-bit): name, namelen, iov, iovlen, control, controllen, flags. */
    static final long MSGHDR_SIZE = 56;

    static final long MSG_IOV = 16;
    static final long MSG_IOVLEN = 24;
    static final long MSG_CONTROL = 32;
    static final long MSG_CONTROLLEN = 40;
    static final long MSG_FLAGS = 48;
    /** struct iovec: base, len. */
    static final long IOVEC_SIZE = 16;

    static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED;
    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private static final String UNAVAILABLE;
    private static final MethodHandle SOCKET;
    private static final MethodHandle CONNECT;
    private static final MethodHandle BIND;
    private static final MethodHandle SETSOCKOPT;
    private static final MethodHandle GETSOCKOPT;
    private static final MethodHandle GETSOCKNAME;
    private static final MethodHandle SEND;
    private static final MethodHandle RECVMSG;
    private static final MethodHandle CLOSE;
    private static final MethodHandle EPOLL_CREATE1;
    private static final MethodHandle EPOLL_CTL;
    private static final MethodHandle EPOLL_WAIT;
    /** epoll_pwait2 (Linux 5.11, glibc 2.35): a nanosecond timeout; null where absent (epoll_wait's milliseconds). */
    private static final MethodHandle EPOLL_PWAIT2;

    private static final MethodHandle EVENTFD;
    private static final MethodHandle WRITE;
    private static final MethodHandle READ;
    private static final MethodHandle CLOCK_GETTIME;
    private static final VarHandle ERRNO;
    private static final long ERRNO_SIZE;

    static {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        boolean x86 = arch.equals("amd64") || arch.equals("x86_64");
        EPOLL_EVENT_SIZE = x86 ? 12 : 16;
        EPOLL_EVENT_DATA = x86 ? 4 : 8;
        String os = System.getProperty("os.name", "");
        String why = null;
        MethodHandle socket = null, connect = null, bind = null, setsockopt = null, getsockopt = null;
        MethodHandle getsockname = null, send = null, recvmsg = null, close = null, epollCreate = null;
        MethodHandle epollCtl = null, epollWait = null, epollPwait2 = null, eventfd = null, write = null;
        MethodHandle read = null, clock = null;
        VarHandle errno = null;
        long errnoSize = 0;
        if (!os.equals("Linux")) {
            why = "the kernel backend needs Linux (its sockets' SO_TIMESTAMPING and epoll); this is " + os;
        } else if (!x86 && !arch.equals("aarch64")) {
            why = "the kernel backend knows the C structures of Linux on x86_64 and aarch64 only; this is " + arch;
        } else if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
            why = "the kernel backend needs a little-endian machine";
        } else {
            Linker linker = Linker.nativeLinker();
            SymbolLookup libc = linker.defaultLookup();
            Linker.Option ccs = Linker.Option.captureCallState("errno");
            var state = Linker.Option.captureStateLayout();
            errno = state.varHandle(MemoryLayout.PathElement.groupElement("errno"));
            errnoSize = state.byteSize();
            ValueLayout.OfInt i = ValueLayout.JAVA_INT;
            ValueLayout.OfLong l = ValueLayout.JAVA_LONG;
            var p = ValueLayout.ADDRESS;
            socket = down(linker, libc, "socket", FunctionDescriptor.of(i, i, i, i), ccs);
            connect = down(linker, libc, "connect", FunctionDescriptor.of(i, i, p, i), ccs);
            bind = down(linker, libc, "bind", FunctionDescriptor.of(i, i, p, i), ccs);
            setsockopt = down(linker, libc, "setsockopt", FunctionDescriptor.of(i, i, i, i, p, i), ccs);
            getsockopt = down(linker, libc, "getsockopt", FunctionDescriptor.of(i, i, i, i, p, p), ccs);
            getsockname = down(linker, libc, "getsockname", FunctionDescriptor.of(i, i, p, p), ccs);
            send = down(linker, libc, "send", FunctionDescriptor.of(l, i, p, l, i), ccs);
            recvmsg = down(linker, libc, "recvmsg", FunctionDescriptor.of(l, i, p, i), ccs);
            close = down(linker, libc, "close", FunctionDescriptor.of(i, i), ccs);
            epollCreate = down(linker, libc, "epoll_create1", FunctionDescriptor.of(i, i), ccs);
            epollCtl = down(linker, libc, "epoll_ctl", FunctionDescriptor.of(i, i, i, i, p), ccs);
            epollWait = down(linker, libc, "epoll_wait", FunctionDescriptor.of(i, i, p, i, i), ccs);
            Optional<MemorySegment> pwait2 = libc.find("epoll_pwait2");
            if (pwait2.isPresent()) {
                epollPwait2 = down(linker, pwait2.get(), FunctionDescriptor.of(i, i, p, i, p, p), ccs);
            }
            eventfd = down(linker, libc, "eventfd", FunctionDescriptor.of(i, i, i), ccs);
            write = down(linker, libc, "write", FunctionDescriptor.of(l, i, p, l), ccs);
            read = down(linker, libc, "read", FunctionDescriptor.of(l, i, p, l), ccs);
            clock = down(linker, libc, "clock_gettime", FunctionDescriptor.of(i, i, p), ccs);
        }
        UNAVAILABLE = why;
        SOCKET = socket;
        CONNECT = connect;
        BIND = bind;
        SETSOCKOPT = setsockopt;
        GETSOCKOPT = getsockopt;
        GETSOCKNAME = getsockname;
        SEND = send;
        RECVMSG = recvmsg;
        CLOSE = close;
        EPOLL_CREATE1 = epollCreate;
        EPOLL_CTL = epollCtl;
        EPOLL_WAIT = epollWait;
        EPOLL_PWAIT2 = epollPwait2;
        EVENTFD = eventfd;
        WRITE = write;
        READ = read;
        CLOCK_GETTIME = clock;
        ERRNO = errno;
        ERRNO_SIZE = errnoSize;
    }

    private static MethodHandle down(
            Linker linker, SymbolLookup libc, String name, FunctionDescriptor f, Linker.Option captured) {
        return down(
                linker,
                libc.find(name).orElseThrow(() -> new UnsatisfiedLinkError("no " + name + " in the C library")),
                f,
                captured);
    }

    /**
     * The one place native code is linked: a restricted method, allowed by the jars' manifests
     * ({@code Enable-Native-Access: ALL-UNNAMED}) and the tests' {@code --enable-native-access}.
     */
    @SuppressWarnings("restricted")
    private static MethodHandle down(
            Linker linker, MemorySegment symbol, FunctionDescriptor f, Linker.Option captured) {
        return linker.downcallHandle(symbol, f, captured);
    }

    private Linux() {}

    /** Why the kernel backend cannot run on this machine, in words, or null when it can (as far as the calls go). */
    public static String unavailable() {
        return UNAVAILABLE;
    }

    /**
     * Where a thread's calls leave {@code errno} (the FFM API's captured call state) and the small structures they
     * pass (a timespec, an option's value, an address): one per thread that makes calls, allocated once.
     */
    public static final class Errno {
        final MemorySegment state;
        final MemorySegment scratch;

        public Errno(Arena arena) {
            state = arena.allocate(ERRNO_SIZE, 8);
            scratch = arena.allocate(64, 8);
        }

        /** The errno of this thread's last failed call. */
        public int value() {
            return (int) ERRNO.get(state, 0L);
        }
    }

    static int socket(Errno e, int domain, int type) {
        try {
            return (int) SOCKET.invokeExact(e.state, domain, type, 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int connect(Errno e, int fd, MemorySegment addr, int len) {
        try {
            return (int) CONNECT.invokeExact(e.state, fd, addr, len);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int bind(Errno e, int fd, MemorySegment addr, int len) {
        try {
            return (int) BIND.invokeExact(e.state, fd, addr, len);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** setsockopt with an int value. */
    static int setInt(Errno e, int fd, int level, int name, int value) {
        e.scratch.set(INT, 0, value);
        try {
            return (int) SETSOCKOPT.invokeExact(e.state, fd, level, name, e.scratch, 4);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** getsockopt of an int value; -1 - errno when the call fails. */
    static int getInt(Errno e, int fd, int level, int name) {
        e.scratch.set(INT, 0, 0);
        e.scratch.set(INT, 8, 4);
        int r;
        try {
            r = (int) GETSOCKOPT.invokeExact(e.state, fd, level, name, e.scratch, e.scratch.asSlice(8));
        } catch (Throwable t) {
            throw rethrow(t);
        }
        return r < 0 ? -1 - e.value() : e.scratch.get(INT, 0);
    }

    /** getsockname into {@code addr} (at least 28 bytes); its length, or -1. */
    static int getsockname(Errno e, int fd, MemorySegment addr) {
        e.scratch.set(INT, 0, (int) addr.byteSize());
        try {
            int r = (int) GETSOCKNAME.invokeExact(e.state, fd, addr, e.scratch);
            return r < 0 ? -1 : e.scratch.get(INT, 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long send(Errno e, int fd, MemorySegment buf, long len, int flags) {
        try {
            return (long) SEND.invokeExact(e.state, fd, buf, len, flags);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long recvmsg(Errno e, int fd, MemorySegment msghdr, int flags) {
        try {
            return (long) RECVMSG.invokeExact(e.state, fd, msghdr, flags);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int close(Errno e, int fd) {
        try {
            return (int) CLOSE.invokeExact(e.state, fd);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int epollCreate(Errno e) {
        try {
            return (int) EPOLL_CREATE1.invokeExact(e.state, EPOLL_CLOEXEC);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** epoll_ctl with the event {@code events} and the data {@code fd}. */
    static int epollCtl(Errno e, int epfd, int op, int fd, int events) {
        MemorySegment ev = e.scratch.asSlice(16, 16);
        ev.set(INT, 0, events);
        ev.set(LONG, EPOLL_EVENT_DATA, fd);
        try {
            return (int) EPOLL_CTL.invokeExact(e.state, epfd, op, fd, ev);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * Waits for events: {@code timeoutNanos} 0 returns at once, negative waits without a limit. Nanoseconds through
     * epoll_pwait2 where the C library has it, else epoll_wait's milliseconds rounded up.
     */
    static int epollWait(Errno e, int epfd, MemorySegment events, int max, long timeoutNanos) {
        try {
            if (EPOLL_PWAIT2 != null && timeoutNanos > 0) {
                MemorySegment ts = e.scratch.asSlice(32, 16);
                ts.set(LONG, 0, timeoutNanos / 1_000_000_000L);
                ts.set(LONG, 8, timeoutNanos % 1_000_000_000L);
                return (int) EPOLL_PWAIT2.invokeExact(e.state, epfd, events, max, ts, MemorySegment.NULL);
            }
            int ms = timeoutNanos < 0 ? -1 : (int) Math.min(Integer.MAX_VALUE, (timeoutNanos + 999_999) / 1_000_000);
            return (int) EPOLL_WAIT.invokeExact(e.state, epfd, events, max, ms);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int eventfd(Errno e) {
        try {
            return (int) EVENTFD.invokeExact(e.state, 0, EFD_NONBLOCK | EFD_CLOEXEC);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Adds 1 to an eventfd's counter (it wakes the loop). */
    static void eventfdSignal(Errno e, int fd) {
        MemorySegment one = e.scratch.asSlice(48, 8);
        one.set(LONG, 0, 1L);
        try {
            long r = (long) WRITE.invokeExact(e.state, fd, one, 8L);
            assert r == 8 || e.value() == EAGAIN;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Resets an eventfd's counter (non-blocking read). */
    static void eventfdDrain(Errno e, int fd) {
        try {
            long r = (long) READ.invokeExact(e.state, fd, e.scratch.asSlice(48, 8), 8L);
            assert r == 8 || e.value() == EAGAIN;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** CLOCK_REALTIME in nanoseconds since the epoch: the kernel's stamps' clock. */
    static long realtimeNanos(Errno e) {
        MemorySegment ts = e.scratch.asSlice(0, 16);
        try {
            int r = (int) CLOCK_GETTIME.invokeExact(e.state, CLOCK_REALTIME, ts);
            if (r != 0) {
                throw new IllegalStateException("clock_gettime(CLOCK_REALTIME) failed: errno " + e.value());
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
        return ts.get(LONG, 0) * 1_000_000_000L + ts.get(LONG, 8);
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error err) {
            throw err;
        }
        return new IllegalStateException(t);
    }
}
